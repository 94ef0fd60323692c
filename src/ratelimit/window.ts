/** What one step of a sliding window answers, whichever store keeps it. */
export interface WindowResult {
  allowed: boolean;
  /** Requests counted in the window after this one. */
  count: number;
  /** Time (ms) of the oldest counted request, null when none is counted. */
  oldestMs: number | null;
}
