import type { WindowResult } from './window';

/**
 * The same exact sliding window, kept in this process: the fallback while Redis is unreachable.
 * Each key holds the times of its allowed requests (at most `max`, ascending); keys whose requests
 * have all left the window are swept once per window so memory follows the active keys only.
 */
export class MemorySlidingWindow {
  private readonly hits = new Map<string, number[]>();
  private nextSweepMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: { max: number; windowMs: number }) {}

  /** `requests`: how many requests this one counts as (an MCP batch); all fit in the window, or none counts. */
  hit(keyId: string, nowMs: number, requests = 1): WindowResult {
    const cutoff = nowMs - this.options.windowMs;
    this.sweep(nowMs, cutoff);
    let times = this.hits.get(keyId);
    if (!times) {
      times = [];
      this.hits.set(keyId, times);
    }
    let expired = 0;
    while (expired < times.length && times[expired]! <= cutoff) expired++;
    if (expired > 0) times.splice(0, expired);
    const allowed = times.length + requests <= this.options.max;
    if (allowed) for (let i = 0; i < requests; i++) insertSorted(times, nowMs);
    return { allowed, count: times.length, oldestMs: times[0] ?? null };
  }

  private sweep(nowMs: number, cutoff: number) {
    if (nowMs < this.nextSweepMs) return;
    this.nextSweepMs = nowMs + this.options.windowMs;
    for (const [keyId, times] of this.hits) {
      if ((times.at(-1) ?? Number.NEGATIVE_INFINITY) <= cutoff) this.hits.delete(keyId);
    }
  }
}

/** Requests normally arrive in time order (a push); a clock that stepped back still lands in place. */
function insertSorted(times: number[], value: number) {
  let index = times.length;
  while (index > 0 && times[index - 1]! > value) index--;
  times.splice(index, 0, value);
}
