/**
 * The usage scripts (DESIGN "API keys", usage). Per key: `total:<id>` is the running total the usage
 * limit is enforced on; `pending:<id>` is a hash of what the next flush moves to PostgreSQL
 * (`d:<YYYY-MM-DD>` → count per UTC day, `last` → latest use in ms); `dirty` is the set of key ids
 * with something pending.
 */

/**
 * Counts one request unless the limit is reached, in one atomic step.
 * KEYS[1] total, KEYS[2] pending, KEYS[3] dirty
 * ARGV    key id, usage count in PostgreSQL, limit ('' = none), UTC day, now ms, total TTL seconds
 * Returns { allowed 0|1, total }
 *
 * The total is seeded from the caller's PostgreSQL value by the first process to see the key, and
 * raised to it should it ever be behind (PostgreSQL only holds counted requests, so that is always
 * safe: it happens when requests counted in process memory during a Redis outage were flushed).
 */
export const recordUsageLua = `
local total = tonumber(redis.call('GET', KEYS[1]) or '-1')
if total < tonumber(ARGV[2]) then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[6])
  total = tonumber(ARGV[2])
end
local limit = tonumber(ARGV[3])
if limit ~= nil and total >= limit then
  return { 0, total }
end
total = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('HINCRBY', KEYS[2], 'd:' .. ARGV[4], 1)
local last = tonumber(redis.call('HGET', KEYS[2], 'last') or '0')
if tonumber(ARGV[5]) > last then
  redis.call('HSET', KEYS[2], 'last', ARGV[5])
end
redis.call('SADD', KEYS[3], ARGV[1])
return { 1, total }
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
