/**
 * One atomic step of the exact sliding window (DESIGN "Rate limit"): a request is allowed when fewer
 * than `max` requests of the key were allowed in the preceding window, i.e. with scores in
 * (now - window, now]. Time comes from the caller so that tests move a clock.
 *
 * KEYS[1] the key's sorted set of allowed requests (member unique per request, score = ms)
 * ARGV    now ms, window ms, max, member
 * Returns { allowed 0|1, count after, score of the oldest counted request ('' when none) }
 */
export const slidingWindowLua = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < max then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
redis.call('PEXPIRE', KEYS[1], window)
return { allowed, count, oldest or '' }
`;
