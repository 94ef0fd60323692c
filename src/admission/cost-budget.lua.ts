/**
 * One principal's query-cost window (README "Query limits and cost", the budget), atomic in Redis.
 * KEYS[1] a sorted set: score = the request's time (ms), member = "<ms>:<process>:<seq>:<cost>"
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
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local spent = 0
for i = 1, #entries, 2 do
  spent = spent + tonumber(string.match(entries[i], ':(%d+)$'))
end
if spent + cost > budget then
  local need = spent + cost - budget
  local freed = 0
  local at = now + window
  for i = 1, #entries, 2 do
    freed = freed + tonumber(string.match(entries[i], ':(%d+)$'))
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
end
return {1, budget - spent - cost, 0}
`;
