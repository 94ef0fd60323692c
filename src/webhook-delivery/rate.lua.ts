/**
 * An endpoint's rate in Redis (src/webhook-delivery/rate.ts), in microseconds of Redis's own clock
 * (TIME), so workers whose clocks differ share one timeline. The endpoint's sorted set holds one
 * member per attempt: while the attempt is in flight its score is its deadline (start + hold), so it
 * always counts; once its response is in, the score becomes that moment. An attempt is admitted when
 * fewer than `max` members score after now - window: so no request can reach the receiver within
 * 1 s of `max` others, whatever the delays between our start and its arrival.
 */

/**
 * KEYS[1]  the endpoint's sorted set; KEYS[2]  when the next waiting attempt is to try again (µs)
 * ARGV     max, window (µs), member, hold (µs: longer than the attempt's deadline)
 * Returns  {1, now} when admitted; {0, now, wait}: µs until this attempt is to try again. That is when
 *          the window should have room (a slot still in flight has no known end: one slot's share of
 *          the window, window / max), but no sooner than one slot after the attempt refused before it,
 *          so a backlog wakes at the endpoint's rate rather than all at once.
 */
export const endpointRateAdmitLua = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local hold = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < max then
  redis.call('ZADD', KEYS[1], now + hold, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil((hold + window) / 1000))
  return {1, now}
end
local leaving = tonumber(redis.call('ZRANGE', KEYS[1], count - max, count - max, 'WITHSCORES')[2])
local slot = math.ceil(window / max)
local retry = now + slot
if leaving <= now then retry = leaving + window end
local queued = tonumber(redis.call('GET', KEYS[2]) or '0')
if queued > retry then retry = queued end
redis.call('SET', KEYS[2], retry + slot, 'PX', math.ceil((retry + slot - now + window) / 1000))
return {0, now, retry - now}
`;

/**
 * KEYS[1]  the endpoint's sorted set
 * ARGV     member, window (µs)
 * The attempt's response is in: its slot counts from now for one window (unless it already left).
 */
export const endpointRateFinishLua = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local changed = redis.call('ZADD', KEYS[1], 'XX', 'CH', now, ARGV[1])
if changed == 1 then
  local ttl = redis.call('PTTL', KEYS[1])
  local needed = math.ceil(tonumber(ARGV[2]) / 1000)
  if ttl < needed then redis.call('PEXPIRE', KEYS[1], needed) end
end
return changed
`;
