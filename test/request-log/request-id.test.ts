import { newRequestId } from '../../src/http/request-state';

/**
 * README "Request log": a request id the service makes is `req_` and 32 hex digits, the first 12
 * the time in ms, so ids made later sort later (the log's request id index grows at its right edge)
 * and two made in the same millisecond still differ.
 */
it('makes ids that sort in the order they were made, and never the same twice', async () => {
  const first = newRequestId();
  await new Promise((resolve) => setTimeout(resolve, 3));
  const later = Array.from({ length: 1000 }, () => newRequestId());
  for (const id of [first, ...later]) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
  expect(later.every((id) => id > first)).toBe(true);
  expect(new Set(later).size).toBe(later.length);
  const ms = Number.parseInt(first.slice(4, 16), 16);
  expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
});
