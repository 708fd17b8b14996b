"""Server-side Lua for timelines and counters: each call is one atomic step in Redis.

Timeline encoding (docs/REDIS.md): a Redis list of 8-byte big-endian post IDs, oldest
first, so the common insert (a new post, newer than every ID held) appends at the tail:
one LINDEX and one RPUSH, no memmove of the whole list. Redis packs a short list into
one listpack, 10 bytes per ID: a full 500-ID timeline costs about 5.3 KB by `MEMORY
USAGE`, against about 50-59 KB for a default sorted set. IDs are compared as two 32-bit
halves: Lua numbers are doubles, exact only to 2^53, and Lua's string `<` follows the
server's locale (strcoll), not byte order.

Two shapes keep the state honest:
- an empty timeline that exists (a rebuild found nothing) holds one EMPTY marker, the
  all-zero ID, because Redis deletes an empty list;
- only the last `cap` entries are live. Older ones are dead: a list may run up to
  `cap + slack` entries before one LTRIM, so a full timeline is not trimmed on every
  insert. Reads take the last `cap` only and a removal trims first: dead entries never
  show, and never come back.
"""

from __future__ import annotations

PRELUDE = r"""
local EMPTY = '\0\0\0\0\0\0\0\0'
-- The tail's index as a string: redis.call formats a Lua number argument into a string
-- on every call, ~15 % of an append's server time (measured on 20,000 lists).
local TAIL = '-1'
local halves = struct.unpack

local function older(a, b)
  local ah, al = halves('>I4I4', a)
  local bh, bl = halves('>I4I4', b)
  return ah < bh or (ah == bh and al < bl)
end

-- A late ID, deeper than WALK entries from the tail: binary search the live part, the
-- last `cap` entries, for the first entry not older than `id`.
local function insert_deep(key, id, n, cap, limit)
  local first = math.max(0, n - cap)
  local lo, hi = first, n - 1
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if older(redis.call('LINDEX', key, mid), id) then lo = mid + 1 else hi = mid end
  end
  local at = redis.call('LINDEX', key, lo)
  if at == id then return end  -- delivered twice
  if lo == first and n >= cap then return end  -- older than a full timeline keeps
  if redis.call('LINSERT', key, 'BEFORE', at, id) > limit then
    redis.call('LTRIM', key, -cap, -1)
  end
end

-- A late or repeated ID (not newer than the tail, and not the tail). Batches handled
-- concurrently finish out of order, so a late ID is nearly always a step or two behind
-- the tail: walk back from it (a LINDEX from the end is cheap, one from the middle of
-- a listpack walks half of it), then pop the few newer entries and push them back
-- behind the ID, instead of LINSERT's scan from the head for its pivot; one step
-- behind, the ID overwrites the tail, which is pushed again. The walk needs the
-- length only past WALK: LINDEX beyond the head answers nil.
local WALK = 8
local BACK = {}  -- the steps back as strings, for the same reason as TAIL
for back = 2, WALK do BACK[back] = tostring(-back) end

local function insert_late(key, tail, id, cap, limit)
  local reach = math.min(cap, WALK)  -- only the last `cap` entries are live
  for back = 2, reach do
    local at = redis.call('LINDEX', key, BACK[back])
    if not at then  -- back - 1 entries (fewer than cap), all newer: the ID is the oldest
      redis.call('LPUSH', key, id)
      return
    end
    if at == id then return end  -- delivered twice
    if older(at, id) then
      local length
      if back == 2 then  -- right behind the tail, as most are: the ID takes its place
        redis.call('LSET', key, TAIL, id)
        length = redis.call('RPUSH', key, tail)
      else  -- pop the newer entries, push the ID and them
        local newer = redis.call('RPOP', key, back - 1)  -- newest first
        local push = {id}
        for i = #newer, 1, -1 do push[#push + 1] = newer[i] end
        length = redis.call('RPUSH', key, unpack(push))
      end
      if length > limit then redis.call('LTRIM', key, -cap, -1) end
      return
    end
  end
  if reach == cap then return end  -- every live entry is newer: older than a full timeline keeps
  local n = redis.call('LLEN', key)
  if math.min(n, cap) > WALK then return insert_deep(key, id, n, cap, limit) end
  -- Every live entry (n = WALK < cap) is newer than the ID.
  redis.call('LPUSH', key, id)
end

local function insert(key, tail, id, hi, lo, cap, limit)
  if tail == EMPTY then
    redis.call('LSET', key, 0, id)
    return
  end
  local h, l = halves('>I4I4', tail)
  if hi > h or (hi == h and lo > l) then
    if redis.call('RPUSH', key, id) > limit then redis.call('LTRIM', key, -cap, -1) end
  elseif tail ~= id then
    insert_late(key, tail, id, cap, limit)
  end
end

-- One ID into each timeline of keys[first .. first + count - 1] that exists; returns
-- how many exist.
local function insert_run(keys, first, count, id, cap, limit)
  local hi, lo = halves('>I4I4', id)
  local present = 0
  for i = first, first + count - 1 do
    local key = keys[i]
    local tail = redis.call('LINDEX', key, TAIL)
    if tail then
      present = present + 1
      insert(key, tail, id, hi, lo, cap, limit)
    end
  end
  return present
end

-- Late IDs argv[first .. last] (ascending, distinct, all older than the tail) into
-- `key`. Concurrent batches finish out of order, so a timeline that gets several posts
-- of a batch often gets them a few entries behind the tail: those within its newest
-- WINDOW live entries are merged there at once (one LRANGE, one RPOP of the entries
-- they go between, one RPUSH), where one at a time would walk back for each; an ID
-- older than the window goes in alone.
local WINDOW = 32

local function insert_late_group(key, argv, first, last, cap, limit)
  local span = math.min(cap, WINDOW)
  local window = redis.call('LRANGE', key, -span, -1)
  local n = #window
  local from = first
  if n == span then  -- there may be older entries: an ID older than the window goes alone
    while from <= last and older(argv[from], window[1]) do
      local id = argv[from]
      insert_deep(key, id, redis.call('LLEN', key), cap, limit)
      from = from + 1
    end
  end
  if from > last then return end
  local p = n  -- the first window entry not older than the oldest ID to merge
  while p > 1 and not older(window[p - 1], argv[from]) do p = p - 1 end
  local merged, added, i, j = {}, 0, p, from
  while i <= n or j <= last do
    local a, b = window[i], nil
    if j <= last then b = argv[j] end  -- argv goes on with the next timeline's group
    if b == nil or (a ~= nil and older(a, b)) then
      merged[#merged + 1] = a
      i = i + 1
    elseif a == b then  -- delivered twice
      merged[#merged + 1] = a
      i, j = i + 1, j + 1
    else
      merged[#merged + 1] = b
      added, j = added + 1, j + 1
    end
  end
  if added == 0 then return end
  redis.call('RPOP', key, n - p + 1)
  if redis.call('RPUSH', key, unpack(merged)) > limit then redis.call('LTRIM', key, -cap, -1) end
end

-- argv[first .. last], IDs ascending and distinct, into the timeline `key` if it exists;
-- returns how many IDs it got (0: no timeline). Those newer than the tail, nearly all of
-- them, go in with one RPUSH, after the late ones (behind the tail, from a batch that
-- finished out of order), which leave the tail where it is.
local function insert_group(key, argv, first, last, cap, limit)
  local tail = redis.call('LINDEX', key, TAIL)
  if not tail then return 0 end
  local fresh = first
  if tail == EMPTY then
    redis.call('LSET', key, 0, argv[first])
    fresh = first + 1
  else
    local h, l = halves('>I4I4', tail)
    while fresh <= last do
      local hi, lo = halves('>I4I4', argv[fresh])
      if hi > h or (hi == h and lo > l) then break end
      fresh = fresh + 1
    end
    local late = fresh - 1
    if late >= first and argv[late] == tail then late = late - 1 end  -- delivered twice
    if late == first then
      insert_late(key, tail, argv[first], cap, limit)
    elseif late > first then
      insert_late_group(key, argv, first, late, cap, limit)
    end
  end
  local length = 0
  for at = fresh, last, 1000 do  -- unpack's limit: a group may be long, rarely
    length = redis.call('RPUSH', key, unpack(argv, at, math.min(at + 999, last)))
  end
  if length > limit then redis.call('LTRIM', key, -cap, -1) end
  return last - first + 1
end
"""

# KEYS: timelines. ARGV: cap, slack, id. Inserts into the timelines that exist and
# returns how many exist (inactive users have none and are skipped, no round trip).
INSERT = (
    PRELUDE
    + r"""
local cap = tonumber(ARGV[1])
return insert_run(KEYS, 1, #KEYS, ARGV[3], cap, cap + tonumber(ARGV[2]))
"""
)

# KEYS: timelines, each once. ARGV: cap, slack, then per key in KEYS order a count and
# that many IDs, ascending and distinct. A batch fan-out, grouped by timeline: each
# timeline is touched once per call, however many of the batch's posts it gets (a key's
# first touch, not the insert, is most of Redis' cost: docs/REDIS.md). Returns how many
# (timeline, ID) inserts found their timeline.
INSERT_GROUPS = (
    PRELUDE
    + r"""
local cap = tonumber(ARGV[1])
local limit = cap + tonumber(ARGV[2])
local present, at = 0, 3
for i = 1, #KEYS do
  local count = tonumber(ARGV[at])
  present = present + insert_group(KEYS[i], ARGV, at + 1, at + count, cap, limit)
  at = at + count + 1
end
return present
"""
)

# The same on a cluster node, for keys of many slots that node serves (one call per
# node instead of one per slot): the keys travel in ARGV, since declared keys must share
# a slot. ARGV: cap, slack, n, then n timelines, then their groups as above. The flag
# lets one script touch many slots; Redis still refuses a key the node does not serve
# (a stale slot map), and the caller then sends the call's inserts again per slot
# (inserts are idempotent, so the ones done before the refusal land once).
INSERT_GROUPS_ON_NODE = (
    "#!lua flags=allow-cross-slot-keys\n"
    + PRELUDE
    + r"""
local cap = tonumber(ARGV[1])
local limit = cap + tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local present, at = 0, n + 4  -- the keys are ARGV[4 .. n + 3]
for i = 4, n + 3 do
  local count = tonumber(ARGV[at])
  present = present + insert_group(ARGV[i], ARGV, at + 1, at + count, cap, limit)
  at = at + count + 1
end
return present
"""
)

# KEYS[1]: a timeline. ARGV: TTL in ms. A rebuild starts: a missing timeline is made
# (empty, so incomplete) for fan-outs to land in while the rebuild reads.
HOLD = r"""
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('RPUSH', KEYS[1], '\0\0\0\0\0\0\0\0')
  local ttl = tonumber(ARGV[1])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
end
return 1
"""

# KEYS[1]: a timeline. ARGV: TTL in ms (0: none), cap, the end-of-feed marker, then the
# rebuilt IDs oldest first. Stores them merged with the live IDs the timeline holds now
# (what fan-outs added while the rebuild read), old markers dropped, newest `cap` kept.
REBUILD = (
    PRELUDE
    + r"""
local key = KEYS[1]
local cap = tonumber(ARGV[2])
local marker = ARGV[3]
local ids = {}
for i = 4, #ARGV do ids[#ids + 1] = ARGV[i] end
for _, id in ipairs(redis.call('LRANGE', key, -cap, -1)) do
  if id ~= EMPTY and id ~= marker then ids[#ids + 1] = id end
end
table.sort(ids, older)
local merged = {}
for _, id in ipairs(ids) do
  if merged[#merged] ~= id then merged[#merged + 1] = id end
end
local first = math.max(1, #merged - cap + 1)
redis.call('DEL', key)
if #merged == 0 then
  redis.call('RPUSH', key, EMPTY)
else
  for at = first, #merged, 1000 do
    redis.call('RPUSH', key, unpack(merged, at, math.min(at + 999, #merged)))
  end
end
local ttl = tonumber(ARGV[1])
if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
return 1
"""
)

# KEYS[1]: a timeline. ARGV: cap, then IDs oldest first without duplicates. Merges them
# in one pass and rewrites the list, keeping its TTL; a missing timeline stays missing.
MERGE = (
    PRELUDE
    + r"""
local key = KEYS[1]
local cap = tonumber(ARGV[1])
local tail = redis.call('LINDEX', key, -1)
if not tail then return 0 end
local old = {}
if tail ~= EMPTY then old = redis.call('LRANGE', key, -cap, -1) end
local merged, fresh, i, j = {}, {}, 1, 2
while i <= #old or j <= #ARGV do
  local a, b = old[i], ARGV[j]
  if b == nil or (a ~= nil and (a == b or older(a, b))) then
    if a == b then j = j + 1 end
    merged[#merged + 1] = a
    i = i + 1
  else
    merged[#merged + 1] = b
    fresh[#merged] = true
    j = j + 1
  end
end
local first = math.max(1, #merged - cap + 1)  -- keep the newest `cap`
local added = 0
for k = first, #merged do
  if fresh[k] then added = added + 1 end
end
if added == 0 then return 0 end
local ttl = redis.call('PTTL', key)
redis.call('DEL', key)
for at = first, #merged, 1000 do
  redis.call('RPUSH', key, unpack(merged, at, math.min(at + 999, #merged)))
end
if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
return added
"""
)

# KEYS[1]: a timeline. ARGV: cap, then IDs. Removes them; a timeline emptied this way
# still exists (EMPTY marker, same TTL). Returns how many were removed.
REMOVE = (
    PRELUDE
    + r"""
local key = KEYS[1]
local cap = tonumber(ARGV[1])
local tail = redis.call('LINDEX', key, -1)
if not tail or tail == EMPTY then return 0 end
redis.call('LTRIM', key, -cap, -1)  -- dead entries must not move up into view
local ttl = redis.call('PTTL', key)
local removed = 0
for i = 2, #ARGV do removed = removed + redis.call('LREM', key, -1, ARGV[i]) end
if redis.call('EXISTS', key) == 0 then
  redis.call('RPUSH', key, EMPTY)
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
end
return removed
"""
)

# KEYS[1]: a timeline. ARGV: TTL in ms (0: none), then IDs oldest first, capped. A
# rebuild: the list is replaced whole, and an empty rebuild still leaves a timeline.
REPLACE = (
    PRELUDE
    + r"""
local key = KEYS[1]
redis.call('DEL', key)
if #ARGV < 2 then
  redis.call('RPUSH', key, EMPTY)
else
  for first = 2, #ARGV, 1000 do
    redis.call('RPUSH', key, unpack(ARGV, first, math.min(first + 999, #ARGV)))
  end
end
local ttl = tonumber(ARGV[1])
if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
return 1
"""
)

# KEYS: counter hashes. ARGV: the TTL in ms, then for each key in turn its likes
# delta, comments delta and sub-counters: N > 0 marks the counter sharded into N
# sub-counters (and keeps it from expiring while hot), -1 unmarks it, 0 leaves it. Only
# counters already cached change; absent ones are recounted from the truth on read.
# Counts never go below zero (a late unlike after a recount).
INCREMENT_COUNTERS = r"""
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do
  local key = KEYS[i]
  if redis.call('EXISTS', key) == 1 then
    for f, field in ipairs({'l', 'c'}) do
      local delta = tonumber(ARGV[(i - 1) * 3 + f + 1])
      if delta ~= 0 and redis.call('HINCRBY', key, field, delta) < 0 then
        redis.call('HSET', key, field, 0)
      end
    end
    local shards = tonumber(ARGV[(i - 1) * 3 + 4])
    if shards > 0 then
      redis.call('HSET', key, 'n', shards)
      redis.call('PEXPIRE', key, ttl)
    elseif shards < 0 then
      redis.call('HDEL', key, 'n')
    end
  end
end
return 0
"""

# KEYS: sub-counters of hot posts (one slot each: they spread over a cluster).
# ARGV: the TTL in ms, then likes and comments deltas per key. A sub-counter may go
# negative (unlikes): only the sum is clamped, on read.
INCREMENT_SHARDS = r"""
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do
  redis.call('HINCRBY', KEYS[i], 'l', tonumber(ARGV[(i - 1) * 2 + 2]))
  redis.call('HINCRBY', KEYS[i], 'c', tonumber(ARGV[(i - 1) * 2 + 3]))
  redis.call('PEXPIRE', KEYS[i], ttl)
end
return 0
"""

# Generation-guarded records (ports.RecordCache). KEYS[1] the record, KEYS[2] its
# generation (same hash tag, so one slot). A filler stores only if no writer bumped the
# generation since the filler read it.
PUT_RECORD = r"""
local current = tonumber(redis.call('GET', KEYS[2]) or '0')
if current ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
-- The generation must outlive the record; touched only when it would not, since an
-- expiry set is a change the near cache hears (the fill would drop its own copy).
if current ~= 0 and redis.call('PTTL', KEYS[2]) < tonumber(ARGV[3]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return 1
"""

APPEND_RECORD = r"""
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('APPEND', KEYS[1], ARGV[1])
  return 1
end
return 0
"""

# Displayed counts of many posts in one reply (one array parsed at once, not one reply
# KEYS: counter hashes. Likes and comments of each, key after key (false: absent); a
# sharded counter (field n) adds up its sub-counters, named from its key (keys.py
# `counter_shard`). Standalone Redis only: a cluster refuses keys a script computes.
READ_COUNTERS = r"""
local out = {}
for i = 1, #KEYS do
  local values = redis.call('HMGET', KEYS[i], 'l', 'c', 'n')
  local likes, comments, n = values[1], values[2], tonumber(values[3] or '0')
  if likes and n > 0 then
    likes, comments = tonumber(likes), tonumber(comments or '0')
    local stem = string.sub(KEYS[i], 1, -2)
    for s = 0, n - 1 do
      local part = redis.call('HMGET', stem .. '.' .. s .. '}', 'l', 'c')
      likes = likes + tonumber(part[1] or '0')
      comments = comments + tonumber(part[2] or '0')
    end
    likes, comments = math.max(likes, 0), math.max(comments, 0)
  end
  out[#out + 1] = likes or false
  out[#out + 1] = comments or false
end
return out
"""

# A page served to one reader: count the reader among each post's distinct viewers and
# read every post's estimate, in one reply (a pipeline of PFADD/EXPIRE/PFCOUNT per post
# costs its client 60 parsed replies a page). KEYS: the posts' HyperLogLogs.
# ARGV: viewer, TTL seconds, then one flag per key: "1" to add the viewer, "0" when this
# process added them lately (redis/sketches.py); an estimate of 0 means the sketch was
# lost, and the viewer is added again anyway. Returns the estimates in KEYS order.
# Standalone Redis only: on a cluster the keys of a page live in many slots.
SERVED = r"""
local out = {}
for i = 1, #KEYS do
  local key = KEYS[i]
  local count = 0
  if ARGV[i + 2] == '0' then count = redis.call('PFCOUNT', key) end
  if count == 0 then
    redis.call('PFADD', key, ARGV[1])
    redis.call('EXPIRE', key, ARGV[2])
    count = redis.call('PFCOUNT', key)
  end
  out[i] = count
end
return out
"""
