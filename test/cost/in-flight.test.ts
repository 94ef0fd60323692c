import { CostInFlight } from '../../src/cost/in-flight';

/**
 * README "Query limits and cost", fair share: a store's operations execute while their requested
 * cost fits beside what the same store has running; other stores never wait for them.
 */

/** An operation that runs until the test ends it. */
function held() {
  let end!: (value: string) => void;
  let started = false;
  const body = () => {
    started = true;
    return new Promise<string>((resolve) => {
      end = resolve;
    });
  };
  return { body, end: (value = 'done') => end(value), started: () => started };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('cost in flight per store', () => {
  it('makes a store’s second expensive operation wait for its first, while another store’s runs at once', async () => {
    const lanes = new CostInFlight(25_000);
    const first = held();
    const second = held();
    const otherStore = held();
    const a1 = lanes.run('store-a', 20_404, first.body);
    const a2 = lanes.run('store-a', 20_404, second.body);
    const b1 = lanes.run('store-b', 20_404, otherStore.body);
    await settle();
    expect([first.started(), second.started(), otherStore.started()]).toEqual([true, false, true]);
    expect(lanes.state('store-a')).toEqual({ running: 20_404, waiting: 1 });

    first.end('a1');
    await expect(a1).resolves.toBe('a1');
    await settle();
    expect(second.started()).toBe(true);
    second.end('a2');
    otherStore.end('b1');
    await expect(Promise.all([a2, b1])).resolves.toEqual(['a2', 'b1']);
    expect(lanes.state('store-a')).toEqual({ running: 0, waiting: 0 });
  });

  it('runs cheap operations side by side with an expensive one while they fit', async () => {
    const lanes = new CostInFlight(25_000);
    const heavy = held();
    const cheap = Array.from({ length: 10 }, () => held());
    const running = [lanes.run('s', 20_404, heavy.body), ...cheap.map((op) => lanes.run('s', 51, op.body))];
    await settle();
    expect(cheap.every((op) => op.started())).toBe(true);
    heavy.end();
    for (const op of cheap) op.end();
    await Promise.all(running);
  });

  it('keeps arrival order: a cheap operation behind a waiting expensive one waits too', async () => {
    const lanes = new CostInFlight(1000);
    const order: string[] = [];
    const first = held();
    const running = [
      lanes.run('s', 900, first.body),
      lanes.run('s', 900, async () => order.push('big')),
      lanes.run('s', 10, async () => order.push('small')),
    ];
    await settle();
    expect(order).toEqual([]);
    first.end();
    await Promise.all(running);
    expect(order).toEqual(['big', 'small']);
  });

  it('gives the share back when an operation throws, and lets a cost above the capacity run alone', async () => {
    const lanes = new CostInFlight(100);
    await expect(
      lanes.run('s', 80, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(lanes.run('s', 60, async () => Promise.reject(new Error('later')))).rejects.toThrow('later');
    expect(lanes.state('s')).toEqual({ running: 0, waiting: 0 });
    await expect(lanes.run('s', 5000, () => 'alone')).resolves.toBe('alone');
  });
});
