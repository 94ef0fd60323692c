/**
 * The endpoint rate of rate.lua.ts kept in this process (no Redis, or Redis down): the same slots, in
 * milliseconds of this process's clock. Endpoints whose slots have all left the window are dropped
 * once per window, so memory follows the endpoints being delivered to.
 */
export class ProcessRateWindows {
  /** Per endpoint: each slot's member and score (its deadline while in flight, then its end). */
  private readonly slots = new Map<string, Map<string, number>>();
  /** Per endpoint: when the next refused attempt is to try again, one slot after the one before. */
  private readonly queued = new Map<string, number>();
  private nextSweepMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly windowMs: number) {}

  admit(
    endpointId: string,
    max: number,
    member: string,
    holdMs: number,
    nowMs: number,
  ): { admitted: true } | { admitted: false; waitMs: number } {
    this.sweep(nowMs);
    let slots = this.slots.get(endpointId);
    if (!slots) {
      slots = new Map();
      this.slots.set(endpointId, slots);
    }
    for (const [key, score] of slots) if (score <= nowMs - this.windowMs) slots.delete(key);
    if (slots.size < max) {
      slots.set(member, nowMs + holdMs);
      return { admitted: true };
    }
    const scores = [...slots.values()].sort((a, b) => a - b);
    const leaving = scores[slots.size - max] as number;
    const slot = Math.ceil(this.windowMs / max);
    const retry = Math.max(
      leaving > nowMs ? nowMs + slot : leaving + this.windowMs,
      this.queued.get(endpointId) ?? 0,
    );
    this.queued.set(endpointId, retry + slot);
    return { admitted: false, waitMs: retry - nowMs };
  }

  finish(endpointId: string, member: string, nowMs: number): void {
    const slots = this.slots.get(endpointId);
    if (slots?.has(member)) slots.set(member, nowMs);
  }

  private sweep(nowMs: number) {
    if (nowMs < this.nextSweepMs) return;
    this.nextSweepMs = nowMs + this.windowMs;
    for (const [endpointId, slots] of this.slots) {
      if ([...slots.values()].every((score) => score <= nowMs - this.windowMs)) this.slots.delete(endpointId);
    }
    for (const [endpointId, retry] of this.queued) {
      if (retry <= nowMs) this.queued.delete(endpointId);
    }
  }
}
