// Lua run inside Redis: each script is one atomic step, so every instance on the same Redis sees one
// fake (docs/explanation/design.md section 6). Numbers cross the boundary as strings: Redis truncates Lua numbers.

/**
 * Admission of one request: the clock offset, the revocation, the ban, both quota windows and the
 * rejection tally that bans, in one step; then, if the request is admitted, its record step: the only
 * place the Redis store reads or writes records. The same rules as `AccessControl.check`, held to one
 * table of cases with it (test/redis/admission-cases.test.ts). The caller read the fault rules from its cache and found none that
 * applies; if they changed since (the version differs), nothing happens and the answer is 'stale'.
 *
 * Every request pays for each argument twice (the client encodes it, Redis builds ARGV from it) and for
 * each number Redis or Lua formats (printf's %g): so the script names its keys from the prefix instead
 * of taking them as KEYS (the fake runs on one Redis, never a cluster: design section 6), takes the
 * request's fields in one argument and the limits in another, formats its numbers as integers, and
 * answers one string. Newlines separate fields: none holds one (keys are token68, JSON escapes them).
 * ARGV[1]: the prefix.
 * ARGV[2]: the request's fields: system now (ms), key ('' without a valid one), client address, the
 *   cached rules' version ('*': do not check), the step ('' none, listCategories, createCategory,
 *   findPet, listOrders), its argument (the new category's JSON without its id, or the pet's id), the
 *   categories' version (for listCategories the one whose list the caller holds, '' none; for
 *   createCategory the new one).
 * ARGV[3]: the limits, space-separated: the key's perMinute and perDay (0 without a key), free
 *   perMinute and perDay, ban threshold, ban length (ms), address bucket lifetime (ms).
 * ARGV[4]: 'step' to take the step alone, without admission (the reply: 'step', offset, the step's result).
 * Returns 'stale', or the fields: kind 'banned' + offset + until; or 'key' / 'revoked' / 'anonymous' +
 * offset + exhausted window (-1 none), minute start, minute count, day start, day count, then for an
 * admitted request the step's result: records' JSON ('' for a pet that does not exist); a category
 * list starts with the categories' version and '=' (the caller's list is current, no records follow) or
 * '+' (the records follow).
 */
export const ADMIT = `
local p = ARGV[1]
local systemNow, key, address, rulesVersion, stepKind, stepArgument, categoriesVersion = string.match(ARGV[2],
  '^([^\\n]*)\\n([^\\n]*)\\n([^\\n]*)\\n([^\\n]*)\\n([^\\n]*)\\n([^\\n]*)\\n([^\\n]*)$')
local keyPerMinute, keyPerDay, freePerMinute, freePerDay, banThreshold, banMs, bucketMs = string.match(ARGV[3],
  '^([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+)$')
-- The single values this step may read, in one call.
local read = redis.call('MGET', p .. 'faults:version', p .. 'clock', p .. 'ban:' .. key, p .. 'categories:version')
if rulesVersion ~= '*' and (read[1] or '') ~= rulesVersion then return 'stale' end
local function int(n)
  return string.format('%d', n)
end
local offset = read[2] or '0'
local now = tonumber(systemNow) + tonumber(offset)
local minuteStart = int(math.floor(now / 60000) * 60)
local dayStart = int(math.floor(now / 86400000) * 86400)
local function consume(bucket, perMinute, perDay)
  local q = redis.call('HMGET', bucket, 'ms', 'mc', 'ds', 'dc')
  local mc = 0
  local dc = 0
  if q[1] == minuteStart then mc = tonumber(q[2]) end
  if q[3] == dayStart then dc = tonumber(q[4]) end
  local exhausted = '-1'
  if mc >= tonumber(perMinute) then exhausted = '0' end
  if dc >= tonumber(perDay) then exhausted = '1' end
  if exhausted == '-1' then
    mc = mc + 1
    dc = dc + 1
  end
  local minuteCount = int(mc)
  local dayCount = int(dc)
  redis.call('HSET', bucket, 'ms', minuteStart, 'mc', minuteCount, 'ds', dayStart, 'dc', dayCount)
  return { offset, exhausted, minuteStart, minuteCount, dayStart, dayCount }
end
local function joined(kind, fields)
  return kind .. '\\n' .. table.concat(fields, '\\n')
end
local function step(fields)
  if stepKind == 'listCategories' then
    local version = read[4] or ''
    fields[#fields + 1] = version
    if version ~= '' and version == categoriesVersion then
      fields[#fields + 1] = '='
      return fields
    end
    fields[#fields + 1] = '+'
    local values = redis.call('HVALS', p .. 'categories')
    for i = 1, #values do fields[#fields + 1] = values[i] end
  elseif stepKind == 'listOrders' then
    local values = redis.call('HVALS', p .. 'orders')
    for i = 1, #values do fields[#fields + 1] = values[i] end
  elseif stepKind == 'findPet' then
    fields[#fields + 1] = redis.call('HGET', p .. 'pets', stepArgument) or ''
  elseif stepKind == 'createCategory' then
    local id = int(redis.call('INCR', p .. 'category:seq'))
    local json = '{"id":' .. id .. ',' .. stepArgument
    redis.call('HSET', p .. 'categories', id, json)
    redis.call('SET', p .. 'categories:version', categoriesVersion)
    fields[#fields + 1] = json
  end
  return fields
end
-- A step on its own (ARGV[4] 'step': a request an override changed, or one a fault delayed): no admission.
if ARGV[4] == 'step' then return joined('step', step({ offset })) end
local kind = 'anonymous'
if key ~= '' then
  if redis.call('SISMEMBER', p .. 'revoked', key) == 1 then
    kind = 'revoked'
  else
    if read[3] and tonumber(read[3]) > now then return joined('banned', { offset, read[3] }) end
    local r = consume(p .. 'quota:key:' .. key, keyPerMinute, keyPerDay)
    if r[2] == '-1' then return joined('key', step(r)) end
    local rejections = p .. 'rejections:' .. key
    local windowStart = int(math.floor(now / 60000) * 60000)
    local t = redis.call('HMGET', rejections, 'start', 'count')
    local count = 1
    if t[1] == windowStart then count = tonumber(t[2]) + 1 end
    if count > tonumber(banThreshold) then
      redis.call('DEL', rejections)
      local untilMs = int(now + tonumber(banMs))
      redis.call('SET', p .. 'ban:' .. key, untilMs)
      return joined('banned', { offset, untilMs })
    end
    redis.call('HSET', rejections, 'start', windowStart, 'count', int(count))
    return joined('key', r)
  end
end
local bucket = p .. 'quota:address:' .. address
local r = consume(bucket, freePerMinute, freePerDay)
redis.call('PEXPIRE', bucket, bucketMs)
return joined(kind, r)
`;

/**
 * Counts one firing of a fault rule, unless it is gone or used up: a rule read by several requests at
 * once still fires exactly `times` times. The last firing removes it and sets a new rules' version.
 * KEYS: rules, order, fired, draws, version. ARGV: id, times ('' for always), the new version.
 * Returns the firing's number, or -1.
 */
export const FIRE_FAULT = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return -1 end
local fired = redis.call('HINCRBY', KEYS[3], ARGV[1], 1)
if ARGV[2] ~= '' and fired >= tonumber(ARGV[2]) then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('LREM', KEYS[2], 0, ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
  redis.call('HDEL', KEYS[4], ARGV[1])
  redis.call('SET', KEYS[5], ARGV[3])
end
return fired
`;

/**
 * Loads the seed unless the prefix already holds a fake (a restart keeps everything; two instances
 * starting together seed once). KEYS: seeded marker, categories, pets, orders, category sequence,
 * categories' version. ARGV: the categories' new version, triples (collection letter C/P/O, id, JSON),
 * then 'S', the sequence's start.
 * Returns 1 when it seeded, 0 when the state was already there.
 */
export const SEED_IF_EMPTY = `
if redis.call('SETNX', KEYS[1], '1') == 0 then return 0 end
redis.call('SET', KEYS[6], ARGV[1])
local collections = { C = KEYS[2], P = KEYS[3], O = KEYS[4] }
local i = 2
while i <= #ARGV do
  if ARGV[i] == 'S' then
    redis.call('SET', KEYS[5], ARGV[i + 1])
    i = i + 2
  else
    redis.call('HSET', collections[ARGV[i]], ARGV[i + 1], ARGV[i + 2])
    i = i + 3
  end
end
return 1
`;
