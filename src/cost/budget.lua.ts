/**
 * One principal's query-cost window (README "Query limits and cost", the budget), atomic in Redis:
 * the Lua function `cost_budget(zkey, spentkey, now ms, window ms, budget points, member, cost)`,
 * which the admission scripts call in their round trip and `costBudgetLua` alone, and the refund
 * after execution, `costRefundLua`.
 * zkey     a sorted set: score = the request's time (ms), member = "<ms>:<process>:<seq>:<cost>"
 * spentkey the points the set's entries hold, kept beside it so a charge reads one number and only
 *          the entries leaving the window (summing the whole set was a walk of every request of the
 *          window, per request)
 * Answers {1, remaining after, 0} when the cost fits (and records it), else {0, remaining, the time
 * (ms) when enough of the window's points will have left for it}. The rate limit bounds the set's
 * size (one entry per request of the window).
 */
export const costBudgetFunctionLua = `
local function cost_of(member) return tonumber(string.match(member, ':(%d+)$')) end
local function window_spent(zkey, spentkey, now, window)
  local spent = tonumber(redis.call('GET', spentkey) or '0')
  local leaving = redis.call('ZRANGEBYSCORE', zkey, '-inf', now - window)
  if #leaving > 0 then
    for i = 1, #leaving do spent = spent - cost_of(leaving[i]) end
    redis.call('ZREMRANGEBYSCORE', zkey, '-inf', now - window)
  end
  if spent < 0 or redis.call('ZCARD', zkey) == 0 then spent = 0 end
  return spent, #leaving
end
local function cost_budget(zkey, spentkey, now, window, budget, member, cost)
  local spent, left = window_spent(zkey, spentkey, now, window)
  if spent + cost > budget then
    if left > 0 then redis.call('SET', spentkey, spent, 'PX', window) end
    local need = spent + cost - budget
    local freed = 0
    local at = now + window
    local entries = redis.call('ZRANGE', zkey, 0, -1, 'WITHSCORES')
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
    redis.call('ZADD', zkey, now, member)
    redis.call('PEXPIRE', zkey, window)
    redis.call('SET', spentkey, spent + cost, 'PX', window)
  elseif left > 0 then
    redis.call('SET', spentkey, spent, 'PX', window)
  end
  return {1, budget - spent - cost, 0}
end
`;

/** The budget alone, for a charge that no admission carried: KEYS and ARGV as cost_budget's. */
export const costBudgetLua = `${costBudgetFunctionLua}
return cost_budget(KEYS[1], KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5]))
`;

/**
 * The refund after execution: the charge's entry (its member, as cost_budget recorded it) is
 * rewritten to hold the actual cost instead of the requested one, at the same time in the window,
 * and the spent points go down by the difference (never below zero). An entry no longer in the
 * window (it left, or was never recorded) gives nothing back, and neither does a refund made twice:
 * the member it names is gone once rewritten. KEYS as cost_budget's; ARGV now ms, window ms, budget
 * points, the charge's member, the actual cost. Answers the points remaining after it.
 */
export const costRefundLua = `${costBudgetFunctionLua}
local zkey, spentkey, now, window = KEYS[1], KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2])
local member, actual = ARGV[4], tonumber(ARGV[5])
local spent, left = window_spent(zkey, spentkey, now, window)
local at = redis.call('ZSCORE', zkey, member)
local cost = cost_of(member)
if at and actual < cost then
  -- The new entry first: the set never empties here, so it keeps its expiry
  if actual > 0 then
    redis.call('ZADD', zkey, at, string.match(member, '^(.*:)%d+$') .. string.format('%d', actual))
  end
  redis.call('ZREM', zkey, member)
  spent = math.max(0, spent - (cost - actual))
  left = 1
end
if left > 0 then redis.call('SET', spentkey, spent, 'PX', window) end
return tonumber(ARGV[3]) - spent
`;
