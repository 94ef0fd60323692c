/**
 * How much query cost each store may have executing at once in this process (README "Query limits
 * and cost", fair share): an operation waits, first come first served, until its requested cost
 * fits beside what its own store has running, so one store's expensive documents take turns among
 * themselves while other stores' requests never wait for them. Our own: a weighted FIFO semaphore per
 * key is a few lines, and the maintained queue libraries (p-limit, p-queue) count tasks, not weights.
 */
export class CostInFlight {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly capacity: number) {}

  /** Runs `body` once `cost` fits in the store's lane (a cost above the capacity takes it whole). */
  run<T>(storeId: string, cost: number, body: () => T | Promise<T>): Promise<T> {
    const weight = Math.min(Math.max(1, cost), this.capacity);
    let lane = this.lanes.get(storeId);
    if (!lane) {
      lane = { running: 0, waiting: [] };
      this.lanes.set(storeId, lane);
    }
    if (lane.waiting.length === 0 && lane.running + weight <= this.capacity) {
      lane.running += weight;
      return this.finish(storeId, lane, weight, body);
    }
    const queued = lane;
    return new Promise<void>((start) => queued.waiting.push({ weight, start })).then(() =>
      this.finish(storeId, queued, weight, body),
    );
  }

  /** The cost running and the operations waiting for a store (metrics, tests). */
  state(storeId: string): { running: number; waiting: number } {
    const lane = this.lanes.get(storeId);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  private async finish<T>(storeId: string, lane: Lane, weight: number, body: () => T | Promise<T>) {
    try {
      return await body();
    } finally {
      lane.running -= weight;
      let next = lane.waiting[0];
      while (next && lane.running + next.weight <= this.capacity) {
        lane.waiting.shift();
        lane.running += next.weight;
        next.start();
        next = lane.waiting[0];
      }
      if (lane.running === 0 && lane.waiting.length === 0) this.lanes.delete(storeId);
    }
  }
}

interface Lane {
  running: number;
  waiting: { weight: number; start: () => void }[];
}
