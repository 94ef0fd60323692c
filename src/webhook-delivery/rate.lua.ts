/**
 * One admission to an endpoint's rate (src/webhook-delivery/rate.ts): an exact sliding window of 1 s
 * over the delivery attempts the endpoint's workers started, in microseconds of Redis's own clock
 * (TIME), so that workers whose clocks differ still share one timeline. An attempt is admitted when
 * fewer than `max` attempts were admitted in (now - window, now].
 *
 * KEYS[1]  the endpoint's sorted set of admissions (member unique per attempt, score = µs)
 * ARGV     max, window (µs), member
 * Returns  {1, now} when admitted; {0, now, wait} otherwise: µs until the window has room, at this
 *          max (a lowered rate may leave more than max admissions in the window).
 */
export const endpointRateLua = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < max then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000))
  return {1, now}
end
local leaving = tonumber(redis.call('ZRANGE', KEYS[1], count - max, count - max, 'WITHSCORES')[2])
return {0, now, leaving + window - now}
`;
