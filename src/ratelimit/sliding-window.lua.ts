/**
 * One step of the exact sliding window (docs/design.md "Rate limit"), as a Lua function for the admission
 * script (src/admission/admission.lua.ts): a request is allowed when fewer than `max` requests of the
 * key were allowed in the preceding window, i.e. with scores in (now - window, now]. Time comes from
 * the caller so that tests move a clock. A request that stands for `n` (an MCP batch of n calls) needs
 * room for all n and counts n times, or nothing.
 *
 * key     the key's sorted set of allowed requests (member unique per request, score = ms)
 * now     ms, as the caller's string (it is also the score)
 * member  unique per request (the n entries are member:1 … member:n); n  how many requests it counts as
 * Returns allowed 0|1, the count after, the score of the oldest counted request ('' when none)
 */
export const slidingWindowLua = `
local function sliding_window(key, now, window, max, member, n)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', tonumber(now) - window)
  local count = redis.call('ZCARD', key)
  local allowed = 0
  if count + n <= max then
    for i = 1, n do
      redis.call('ZADD', key, now, member .. ':' .. i)
    end
    count = count + n
    allowed = 1
  end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
  redis.call('PEXPIRE', key, window)
  return allowed, count, oldest or ''
end
`;
