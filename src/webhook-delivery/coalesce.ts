/**
 * Single-flight coalescing of one kind of statement: calls made while a statement of that kind is
 * in flight wait and go together, as one statement, when it returns. An idle worker runs each call
 * at once (no added latency); a busy one runs several per statement, which is where a delivery's
 * time goes on a loaded machine (each statement is a round trip and a commit). Should a shared
 * statement fail, its calls run again one by one, so one bad input fails only its own caller.
 */
export function coalesce<I, O>(runBatch: (inputs: I[]) => Promise<O[]>): (input: I) => Promise<O> {
  type Entry = { input: I; resolve: (output: O) => void; reject: (error: unknown) => void };
  let queued: Entry[] = [];
  let running = false;

  const settle = async (batch: Entry[]) => {
    const outputs = await runBatch(batch.map((entry) => entry.input));
    batch.forEach((entry, i) => {
      entry.resolve(outputs[i] as O);
    });
  };

  async function drain() {
    running = true;
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      try {
        await settle(batch);
      } catch (error) {
        if (batch.length === 1) batch[0]?.reject(error);
        else for (const entry of batch) await settle([entry]).catch(entry.reject);
      }
    }
    running = false;
  }

  return (input) =>
    new Promise<O>((resolve, reject) => {
      queued.push({ input, resolve, reject });
      if (!running) void drain();
    });
}
