-- The rate limiter's batch of hits, judged in order, each as a script of its own would judge it
-- (redis-store.ts, BatchScript: why one string each way).
--
-- KEYS: every sorted set the batch names, once.
-- ARGV[1]: the hits, one comma-separated list: per hit: now, cutoff (= now - window; entries at
--          or before it have expired), window, its number of keys, then per key: its index in
--          KEYS and its limit.
-- ARGV[2]: the batch's member prefix (unique per batch across processes); a hit's member is the
--          prefix and the hit's number in the batch.
-- Returns one comma-separated list: per hit: allowed (1|0), then per key: count, oldest score or
-- nothing, unblock score or nothing.
--
-- Most of a batch's hits share their keys, so the script keeps per key (`seen`) what the reads
-- would return (count, oldest score) and the members it has yet to add (pending, added with one
-- ZADD). It prunes and reads a key again only when its oldest entry has expired for the hit at
-- hand: otherwise the prune would remove nothing, and the kept figures are what the reads would
-- return. A refusal's unblock score needs the stored order, so it adds the pending members first.
-- Every key a hit counted on expires a window (the last such hit's) after the script ran: Redis's
-- clock stands still while a script runs, so one PEXPIRE per key at the end is the same as one
-- per hit.
local hit_list, member_prefix = ARGV[1], ARGV[2]

local reply, expiry, seen = {}, {}, {}

local function add_pending(key, s)
  if #s.pending > 0 then
    redis.call('ZADD', key, unpack(s.pending))
    s.pending = {}
  end
end

local function read(key, s, cutoff_s)
  add_pending(key, s)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', cutoff_s)
  s.count = redis.call('ZCARD', key)
  s.oldest_s, s.oldest = '', nil
  if s.count > 0 then
    s.oldest_s = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
    s.oldest = tonumber(s.oldest_s)
  end
end

local fields = {}
for field in string.gmatch(hit_list, '[^,]+') do fields[#fields + 1] = field end

local at, hit_number = 1, 0
while at <= #fields do
  local now_s, cutoff_s, window, key_count = fields[at], fields[at + 1], fields[at + 2], tonumber(fields[at + 3])
  local now, cutoff = tonumber(now_s), tonumber(cutoff_s)
  hit_number = hit_number + 1
  local member = member_prefix .. hit_number
  local allowed_at = #reply + 1
  reply[allowed_at] = 1
  local hit_keys = {}
  for i = 1, key_count do
    local key_index, limit = tonumber(fields[at + 2 + 2 * i]), tonumber(fields[at + 3 + 2 * i])
    local key = KEYS[key_index]
    hit_keys[i] = key
    local s = seen[key]
    if s == nil then
      s = { pending = {} }
      seen[key] = s
    end
    if s.count == nil or (s.oldest ~= nil and s.oldest <= cutoff) then read(key, s, cutoff_s) end
    local unblock_s = ''
    if s.count >= limit then
      reply[allowed_at] = 0
      add_pending(key, s)
      unblock_s = redis.call('ZRANGE', key, s.count - limit, s.count - limit, 'WITHSCORES')[2]
    end
    table.insert(reply, s.count)
    table.insert(reply, s.oldest_s)
    table.insert(reply, unblock_s)
  end
  if reply[allowed_at] == 1 then
    for _, key in ipairs(hit_keys) do
      local s = seen[key]
      table.insert(s.pending, now_s)
      table.insert(s.pending, member)
      if s.oldest == nil or now < s.oldest then s.oldest_s, s.oldest = now_s, now end
      s.count = s.count + 1
      -- unpack() passes its list on Lua's C stack, which holds a few thousand values.
      if #s.pending >= 1000 then add_pending(key, s) end
      expiry[key] = window
    end
  end
  at = at + 4 + 2 * key_count
end

for key, s in pairs(seen) do add_pending(key, s) end
-- Every entry is at most its hit's now, so all are gone a window from now: let Redis drop the key.
for key, window in pairs(expiry) do
  redis.call('PEXPIRE', key, window)
end
return table.concat(reply, ',')
