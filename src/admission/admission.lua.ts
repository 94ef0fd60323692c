import { slidingWindowLua } from '../ratelimit/sliding-window.lua';
import { currentVersionLua } from '../read-cache/data-version';
import { recordUsageLua } from '../usage/usage.lua';

/**
 * Admission of one API-key request, in one atomic script and one round trip: the sliding window
 * (DESIGN "Rate limit"); then, only for a request the window allowed, the usage count and limit
 * (DESIGN "API keys", usage); then, only for a request both allowed and only when asked, the store's
 * data version (README "Read cache"). Each step's rules are the Lua function of its own module.
 *
 * KEYS[1] rate-limit sorted set; KEYS[2..4] usage total, pending hash, dirty set;
 * KEYS[5]  the store's data version, when asked for (numkeys 5 instead of 4)
 * ARGV     now ms, window ms, max, window member, requests (n), key id, stored usage count, usage limit
 *          ('' = none), UTC day, usage total TTL s, then with KEYS[5] only: a fresh version token, version TTL s
 * Returns { allowed 0|1, count, oldest ('' when none), usage allowed 0|1 (-1: not counted),
 *           usage total (-1: not counted), version ('' when not read) }
 */
export const admissionLua = `${slidingWindowLua}${recordUsageLua}${currentVersionLua}
local n = tonumber(ARGV[5])
local allowed, count, oldest = sliding_window(KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], n)
local usage_allowed, used = -1, -1
local version = ''
if allowed == 1 then
  usage_allowed, used = record_usage(KEYS[2], KEYS[3], KEYS[4], ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[1], ARGV[10], n)
  if usage_allowed == 1 and #KEYS == 5 then
    version = current_version(KEYS[5], ARGV[11], ARGV[12])
  end
end
return { allowed, count, oldest, usage_allowed, used, version }
`;

/**
 * Admission of one dashboard-session request (README "Authentication"): the same sliding window, per
 * staff member, and — when asked — the store's data version; sessions count in no key's usage.
 *
 * KEYS[1] rate-limit sorted set; KEYS[2] the store's data version, when asked for (numkeys 2)
 * ARGV    now ms, window ms, max, window member, requests (n), then with KEYS[2] only: a fresh version
 *         token, version TTL s
 * Returns { allowed 0|1, count, oldest ('' when none), version ('' when not read) }
 */
export const sessionAdmissionLua = `${slidingWindowLua}${currentVersionLua}
local allowed, count, oldest = sliding_window(KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5]))
local version = ''
if allowed == 1 and #KEYS == 2 then
  version = current_version(KEYS[2], ARGV[6], ARGV[7])
end
return { allowed, count, oldest, version }
`;
