/**
 * The usage scripts (docs/design.md "API keys", usage). Per key: `total:<id>` is the running total the usage
 * limit is enforced on; `pending:<id>` is a hash of what the next flush moves to PostgreSQL
 * (`d:<YYYY-MM-DD>` → count per UTC day, `last` → latest use in ms); `dirty` is the set of key ids
 * with something pending.
 */

/**
 * Counts a request (as n: an MCP batch of n calls) unless that would pass the limit, in one atomic step: a Lua function for the
 * admission script (src/admission/admission.lua.ts), which calls it only for requests the rate limit
 * admitted.
 * total_key, pending_key, dirty_key   the key's total and pending hash, and the dirty set
 * key_id, stored (usage count in PostgreSQL), limit ('' = none), day (UTC), now (ms), ttl (seconds), n
 * Returns allowed 0|1, the total after
 *
 * The total is seeded from the caller's PostgreSQL value by the first process to see the key, and
 * raised to it should it ever be behind (PostgreSQL only holds counted requests, so that is always
 * safe: it happens when requests counted in process memory during a Redis outage were flushed).
 */
export const recordUsageLua = `
local function record_usage(total_key, pending_key, dirty_key, key_id, stored, limit, day, now, ttl, n)
  local total = tonumber(redis.call('GET', total_key) or '-1')
  if total < tonumber(stored) then
    redis.call('SET', total_key, stored, 'EX', ttl)
    total = tonumber(stored)
  end
  limit = tonumber(limit)
  if limit ~= nil and total + n > limit then
    return 0, total
  end
  total = redis.call('INCRBY', total_key, n)
  redis.call('EXPIRE', total_key, ttl)
  redis.call('HINCRBY', pending_key, 'd:' .. day, n)
  local last = tonumber(redis.call('HGET', pending_key, 'last') or '0')
  if tonumber(now) > last then
    redis.call('HSET', pending_key, 'last', now)
  end
  redis.call('SADD', dirty_key, key_id)
  return 1, total
end
`;

/**
 * Reads and clears the pending usage of several keys at once.
 * KEYS[1] dirty, KEYS[2..n] pending hashes; ARGV[1..n-1] the matching key ids
 * Returns one flat HGETALL array per key (empty when nothing was pending)
 */
export const claimUsageLua = `
local claimed = {}
for i = 2, #KEYS do
  claimed[i - 1] = redis.call('HGETALL', KEYS[i])
  redis.call('DEL', KEYS[i])
  redis.call('SREM', KEYS[1], ARGV[i - 1])
end
return claimed
`;

/**
 * Puts claimed usage back when writing it to PostgreSQL failed.
 * KEYS[1] dirty, KEYS[2] pending; ARGV key id, then field/value pairs as claimed
 */
export const restoreUsageLua = `
for i = 2, #ARGV, 2 do
  if ARGV[i] == 'last' then
    local last = tonumber(redis.call('HGET', KEYS[2], 'last') or '0')
    if tonumber(ARGV[i + 1]) > last then
      redis.call('HSET', KEYS[2], 'last', ARGV[i + 1])
    end
  else
    redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1])
  end
end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
`;
