/**
 * What a worker holds while it delivers (shared by attempt.ts and fan-out.ts, so neither imports
 * the other): a claimed delivery, the lease it is held under, one event's fan-out.
 */

/** A delivery whose lease this worker holds, with what an attempt needs. */
export interface Claimed {
  id: string;
  attempt: number;
  payload: string;
  eventType: string;
  endpointId: string;
  url: string;
  secretCiphertext: string;
  /** The endpoint's rate (rate.ts); null: unlimited. */
  rateLimitPerSecond: number | null;
}

/** The hold an attempt has on its delivery: nothing is recorded under a token no longer the delivery's. */
export interface Lease {
  token: string;
  until: Date;
}

/** One event's fan-out: its new deliveries and the lease they are held under. */
export interface FanOut {
  lease: Lease;
  deliveries: Claimed[];
}
