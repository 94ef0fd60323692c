import { costBudgetFunctionLua } from '../cost/budget.lua';
import { slidingWindowLua } from '../ratelimit/sliding-window.lua';
import { currentVersionLua } from '../read-cache/data-version';
import { recordUsageLua } from '../usage/usage.lua';

/**
 * What both admission scripts do once the request is admitted, each step only when asked: read the
 * store's data version (README "Read cache") and charge the query-cost budget (README "Query limits
 * and cost"). `first` is the ARGV index of the version's two arguments; the budget's five follow.
 * Their keys follow the script's own: the version's key, then the budget's two.
 */
const afterAdmission = (first: number, keyIndex: number) => `
local version = ''
local budget = {-1, 0, 0}
local function after_admission()
  local k = ${keyIndex}
  if ARGV[${first}] ~= '' then
    version = current_version(KEYS[k], ARGV[${first}], ARGV[${first + 1}])
    k = k + 1
  end
  if ARGV[${first + 2}] ~= '' then
    budget = cost_budget(KEYS[k], KEYS[k + 1], tonumber(ARGV[${first + 2}]), tonumber(ARGV[${first + 3}]),
      tonumber(ARGV[${first + 4}]), ARGV[${first + 5}], tonumber(ARGV[${first + 6}]))
  end
end
`;

/**
 * Admission of one API-key request, in one atomic script and one round trip: the sliding window
 * (docs/design.md "Rate limit"); then, only for a request the window allowed, the usage count and
 * limit (docs/design.md "API keys", usage); then, only for a request both allowed, the store's data version and
 * the cost budget's charge, each when asked. Each step's rules are the Lua function of its own module.
 *
 * KEYS[1] rate-limit sorted set; KEYS[2..4] usage total, pending hash, dirty set; then the store's
 *         data version (when asked), then the budget's two keys (when asked)
 * ARGV    now ms, window ms, max, window member, requests (n), key id, stored usage count, usage limit
 *         ('' = none), UTC day, usage total TTL s, a fresh version token ('' = not asked), version
 *         TTL s, then the budget's now ms ('' = no charge), window ms, points, member, cost
 * Returns { allowed 0|1, count, oldest ('' when none), usage allowed 0|1 (-1: not counted),
 *           usage total (-1: not counted), version ('' when not read), budget allowed 0|1 (-1: not
 *           charged), budget remaining, budget free at ms }
 */
export const admissionLua = `${slidingWindowLua}${recordUsageLua}${currentVersionLua}${costBudgetFunctionLua}${afterAdmission(11, 5)}
local n = tonumber(ARGV[5])
local allowed, count, oldest = sliding_window(KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], n)
local usage_allowed, used = -1, -1
if allowed == 1 then
  usage_allowed, used = record_usage(KEYS[2], KEYS[3], KEYS[4], ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[1], ARGV[10], n)
  if usage_allowed == 1 then after_admission() end
end
return { allowed, count, oldest, usage_allowed, used, version, budget[1], budget[2], budget[3] }
`;

/**
 * Admission of one dashboard-session request (README "Authentication"): the same sliding window, per
 * staff member, then — each when asked — the store's data version and the cost budget's charge;
 * sessions count in no key's usage.
 *
 * KEYS[1] rate-limit sorted set; then the store's data version, then the budget's two keys (when asked)
 * ARGV    now ms, window ms, max, window member, requests (n), a fresh version token ('' = not
 *         asked), version TTL s, then the budget's now ms ('' = no charge), window ms, points, member, cost
 * Returns { allowed 0|1, count, oldest ('' when none), version ('' when not read), budget allowed 0|1
 *           (-1: not charged), budget remaining, budget free at ms }
 */
export const sessionAdmissionLua = `${slidingWindowLua}${currentVersionLua}${costBudgetFunctionLua}${afterAdmission(6, 2)}
local allowed, count, oldest = sliding_window(KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5]))
if allowed == 1 then after_admission() end
return { allowed, count, oldest, version, budget[1], budget[2], budget[3] }
`;
