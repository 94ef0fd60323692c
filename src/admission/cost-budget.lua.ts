/**
 * One principal's query-cost window (README "Query limits and cost", the budget), atomic in Redis.
 * KEYS[1] a sorted set: score = the request's time (ms), member = "<ms>:<process>:<seq>:<cost>"
 * KEYS[2] the points the set's entries hold, kept beside it so a charge reads one number and only
 *         the entries leaving the window (summing the whole set was a walk of every request of the
 *         window, per request)
 * ARGV    now ms, window ms, budget points, member, cost
 * Answers {1, remaining after, 0} when the cost fits (and records it), else {0, remaining, the time
 * (ms) when enough of the window's points will have left for it}. The rate limit bounds the set's
 * size (one entry per request of the window).
 */
export const costBudgetLua = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local budget = tonumber(ARGV[3])
local cost = tonumber(ARGV[5])
local function cost_of(member) return tonumber(string.match(member, ':(%d+)$')) end
local spent = tonumber(redis.call('GET', KEYS[2]) or '0')
local leaving = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - window)
if #leaving > 0 then
  for i = 1, #leaving do spent = spent - cost_of(leaving[i]) end
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
end
if spent < 0 or redis.call('ZCARD', KEYS[1]) == 0 then spent = 0 end
if spent + cost > budget then
  if #leaving > 0 then redis.call('SET', KEYS[2], spent, 'PX', window) end
  local need = spent + cost - budget
  local freed = 0
  local at = now + window
  local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  for i = 1, #entries, 2 do
    freed = freed + cost_of(entries[i])
    if freed >= need then
      at = tonumber(entries[i + 1]) + window
      break
    end
  end
  return {0, budget - spent, at}
end
if cost > 0 then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  redis.call('SET', KEYS[2], spent + cost, 'PX', window)
elseif #leaving > 0 then
  redis.call('SET', KEYS[2], spent, 'PX', window)
end
return {1, budget - spent - cost, 0}
`;
