import { coalesce } from '../../src/webhook-delivery/coalesce';

/** The pipeline's statement coalescing (fan-out and attempt records), without a database. */
describe('coalesce', () => {
  const gate = () => {
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { open, opened };
  };

  it('runs a call at once when idle, and the calls made meanwhile together in one batch', async () => {
    const batches: number[][] = [];
    const first = gate();
    const run = coalesce(async (inputs: number[]) => {
      batches.push(inputs);
      if (batches.length === 1) await first.opened;
      return inputs.map((n) => n * 10);
    });
    const a = run(1);
    const rest = [run(2), run(3), run(4)];
    expect(batches).toEqual([[1]]);
    first.open();
    expect(await a).toBe(10);
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('after a shared batch fails, runs its calls one by one so only the bad one fails', async () => {
    const batches: string[][] = [];
    const first = gate();
    const run = coalesce(async (inputs: string[]) => {
      batches.push(inputs);
      if (batches.length === 1) await first.opened;
      if (inputs.includes('bad')) throw new Error(`cannot write ${inputs.join('+')}`);
      return inputs.map((s) => s.toUpperCase());
    });
    const a = run('a');
    const results = Promise.allSettled([run('b'), run('bad'), run('c')]);
    first.open();
    expect(await a).toBe('A');
    const [b, bad, c] = await results;
    expect(b).toEqual({ status: 'fulfilled', value: 'B' });
    expect(bad).toEqual({ status: 'rejected', reason: new Error('cannot write bad') });
    expect(c).toEqual({ status: 'fulfilled', value: 'C' });
    expect(batches).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('keeps serving after a failure', async () => {
    const run = coalesce(async (inputs: number[]) => {
      if (inputs[0] === 0) throw new Error('zero');
      return inputs;
    });
    await expect(run(0)).rejects.toThrow('zero');
    expect(await run(5)).toBe(5);
  });
});
