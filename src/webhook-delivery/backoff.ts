/** docs/design.md "Retries": at most 8 attempts; before attempt n ≥ 2 wait 30 s × 4^(n−1), capped at 6 h, ±15 % jitter. */
export const MAX_ATTEMPTS = 8;
export const BASE_DELAY_MS = 30_000;
export const MAX_DELAY_MS = 6 * 60 * 60 * 1000;
export const JITTER = 0.15;

/**
 * The wait before attempt `nextAttempt` (2…8). `random` returns [0, 1) and is injectable for tests.
 * Jitter applies to the capped delay and the result never passes the cap, so "capped at 6 hours" holds
 * for every delay (attempts 6 to 8 land between 5.1 and 6 h).
 */
export function deliveryBackoff(nextAttempt: number, random: () => number = Math.random): number {
  if (!Number.isInteger(nextAttempt) || nextAttempt < 2 || nextAttempt > MAX_ATTEMPTS) {
    throw new RangeError(`No retry before attempt ${nextAttempt}`);
  }
  const base = Math.min(BASE_DELAY_MS * 4 ** (nextAttempt - 1), MAX_DELAY_MS);
  const factor = 1 + (random() * 2 - 1) * JITTER;
  return Math.min(Math.round(base * factor), MAX_DELAY_MS);
}

/** When the attempt after `attemptsMade` failed attempts is due, or null when the delivery is exhausted. */
export function nextRetryAt(
  attemptsMade: number,
  now: Date,
  random: () => number = Math.random,
): Date | null {
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  return new Date(now.getTime() + deliveryBackoff(attemptsMade + 1, random));
}
