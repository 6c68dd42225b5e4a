// Lua run inside Redis: each script is one atomic step, so every instance on the same Redis sees one
// fake (docs/explanation/design.md section 6). Numbers cross the boundary as strings: Redis truncates Lua numbers.

/**
 * Admission of one request: the clock offset, the revocation, the ban, both quota windows and the
 * rejection tally that bans, in one step; then, if the request is admitted, its record step. The same
 * rules as `AccessControl.check`. The caller read the fault rules from its cache and found none that
 * applies; if they changed since (the version differs), nothing happens and the answer is 'stale'.
 * KEYS: clock, revoked, ban, rejections, key quota, address quota, fault rules' version, categories,
 * pets, orders, category sequence, categories' version.
 * ARGV: system now (ms), key ('' without a valid one), perMinute, perDay, free perMinute, free perDay,
 * ban threshold, ban length (ms), address bucket lifetime (ms), the cached rules' version ('*': do not
 * check), the step ('' none, listCategories, createCategory, findPet, listOrders), its argument (the
 * new category's JSON without its id, or the pet's id), the categories' version (for listCategories the
 * one whose list the caller holds, '' none; for createCategory the new one).
 * Returns { 'stale' }, or { kind, offset, ... }: kind 'banned' + until; or 'key' / 'revoked' /
 * 'anonymous' + exhausted window (-1 none), minute start, minute count, day start, day count, then for
 * an admitted request the step's result: records' JSON ('' for a pet that does not exist); a category
 * list starts with the categories' version and '=' (the caller's list is current, no records follow) or
 * '+' (the records follow).
 */
export const ADMIT = `
if ARGV[10] ~= '*' and (redis.call('GET', KEYS[7]) or '') ~= ARGV[10] then return { 'stale' } end
local offset = tonumber(redis.call('GET', KEYS[1]) or '0')
local now = tonumber(ARGV[1]) + offset
local function consume(bucket, perMinute, perDay)
  local mstart = math.floor(now / 60000) * 60
  local dstart = math.floor(now / 86400000) * 86400
  local q = redis.call('HMGET', bucket, 'ms', 'mc', 'ds', 'dc')
  local mc = 0
  local dc = 0
  if tonumber(q[1]) == mstart then mc = tonumber(q[2]) end
  if tonumber(q[3]) == dstart then dc = tonumber(q[4]) end
  local exhausted = -1
  if mc >= perMinute then exhausted = 0 end
  if dc >= perDay then exhausted = 1 end
  if exhausted == -1 then
    mc = mc + 1
    dc = dc + 1
  end
  redis.call('HSET', bucket, 'ms', mstart, 'mc', mc, 'ds', dstart, 'dc', dc)
  return { tostring(exhausted), tostring(mstart), tostring(mc), tostring(dstart), tostring(dc) }
end
local function answer(kind, r)
  return { kind, tostring(offset), r[1], r[2], r[3], r[4], r[5] }
end
local function step(reply)
  local kind = ARGV[11]
  if kind == 'listCategories' then
    local version = redis.call('GET', KEYS[12]) or ''
    reply[#reply + 1] = version
    if version ~= '' and version == ARGV[13] then
      reply[#reply + 1] = '='
      return reply
    end
    reply[#reply + 1] = '+'
    local values = redis.call('HVALS', KEYS[8])
    for i = 1, #values do reply[#reply + 1] = values[i] end
  elseif kind == 'listOrders' then
    local values = redis.call('HVALS', KEYS[10])
    for i = 1, #values do reply[#reply + 1] = values[i] end
  elseif kind == 'findPet' then
    reply[#reply + 1] = redis.call('HGET', KEYS[9], ARGV[12]) or ''
  elseif kind == 'createCategory' then
    local id = redis.call('INCR', KEYS[11])
    local json = '{"id":' .. id .. ',' .. ARGV[12]
    redis.call('HSET', KEYS[8], id, json)
    redis.call('SET', KEYS[12], ARGV[13])
    reply[#reply + 1] = json
  end
  return reply
end
local key = ARGV[2]
local kind = 'anonymous'
if key ~= '' then
  if redis.call('SISMEMBER', KEYS[2], key) == 1 then
    kind = 'revoked'
  else
    local bannedUntil = tonumber(redis.call('GET', KEYS[3]) or '0')
    if bannedUntil > now then return { 'banned', tostring(offset), tostring(bannedUntil) } end
    local r = consume(KEYS[5], tonumber(ARGV[3]), tonumber(ARGV[4]))
    if r[1] ~= '-1' then
      local windowStart = math.floor(now / 60000) * 60000
      local t = redis.call('HMGET', KEYS[4], 'start', 'count')
      local count = 1
      if tonumber(t[1]) == windowStart then count = tonumber(t[2]) + 1 end
      if count > tonumber(ARGV[7]) then
        redis.call('DEL', KEYS[4])
        local untilMs = now + tonumber(ARGV[8])
        redis.call('SET', KEYS[3], tostring(untilMs))
        return { 'banned', tostring(offset), tostring(untilMs) }
      end
      redis.call('HSET', KEYS[4], 'start', windowStart, 'count', count)
      return answer('key', r)
    end
    return step(answer('key', r))
  end
end
local r = consume(KEYS[6], tonumber(ARGV[5]), tonumber(ARGV[6]))
redis.call('PEXPIRE', KEYS[6], ARGV[9])
return answer(kind, r)
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
