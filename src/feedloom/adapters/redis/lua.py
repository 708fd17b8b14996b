"""Server-side Lua for timelines and counters: each call is one atomic step in Redis.

Timeline encoding (see docs/REDIS.md): a Redis list of 8-byte big-endian post IDs,
newest first. Redis packs a short list into one listpack, 10 bytes per ID, so a full
500-ID timeline costs about 5.3 KB (`MEMORY USAGE`), against about 59 KB for a default
sorted set. IDs are compared as two 32-bit halves: Lua numbers are doubles, exact only
to 2^53, and Lua's string `<` follows the server's locale (strcoll), not byte order.

Two shapes keep the state honest:
- an empty timeline that exists (a rebuild found nothing) holds one EMPTY marker, the
  all-zero ID, because Redis deletes an empty list;
- positions at and past `cap` are dead: a list may run up to `cap + slack` entries before
  it is trimmed, so the common insert (a new post, newer than the head) costs one LPUSH
  and no trim. Reads stop at `cap` and a removal trims first, so dead entries never show.
"""

from __future__ import annotations

PRELUDE = r"""
local EMPTY = '\0\0\0\0\0\0\0\0'
local id_halves = struct.unpack

local function newer(a, b)
  local ah, al = id_halves('>I4I4', a)
  local bh, bl = id_halves('>I4I4', b)
  return ah > bh or (ah == bh and al > bl)
end

-- Insert one ID into an existing timeline whose first entry is `head`.
local function insert(key, head, id, cap, limit)
  if head == EMPTY then
    redis.call('LSET', key, 0, id)
    return
  end
  if head == id then return end
  local n
  if newer(id, head) then
    n = redis.call('LPUSH', key, id)
  else
    -- A late or repeated event: binary search the live part for its place.
    n = redis.call('LLEN', key)
    local lo, hi = 1, math.min(n, cap)
    while lo < hi do
      local mid = math.floor((lo + hi) / 2)
      if newer(redis.call('LINDEX', key, mid), id) then lo = mid + 1 else hi = mid end
    end
    if lo >= cap then return end  -- older than a full timeline keeps
    if lo < n then
      local at = redis.call('LINDEX', key, lo)
      if at == id then return end  -- delivered twice
      n = redis.call('LINSERT', key, 'BEFORE', at, id)
    else
      n = redis.call('RPUSH', key, id)
    end
  end
  if n > limit then redis.call('LTRIM', key, 0, cap - 1) end
end
"""

# KEYS: timelines. ARGV: cap, slack, id. Inserts into the timelines that exist and
# returns how many exist (inactive users have none and are skipped, no round trip).
INSERT = (
    PRELUDE
    + r"""
local cap = tonumber(ARGV[1])
local limit = cap + tonumber(ARGV[2])
local id = ARGV[3]
local present = 0
for i = 1, #KEYS do
  local head = redis.call('LINDEX', KEYS[i], 0)
  if head then
    present = present + 1
    insert(KEYS[i], head, id, cap, limit)
  end
end
return present
"""
)

# KEYS[1]: a timeline. ARGV: cap, then IDs newest first without duplicates. Merges them
# in one pass and rewrites the list, keeping its TTL; a missing timeline stays missing.
MERGE = (
    PRELUDE
    + r"""
local key = KEYS[1]
local cap = tonumber(ARGV[1])
local head = redis.call('LINDEX', key, 0)
if not head then return 0 end
local old = {}
if head ~= EMPTY then old = redis.call('LRANGE', key, 0, cap - 1) end
local merged, added, i, j = {}, 0, 1, 2
while #merged < cap and (i <= #old or j <= #ARGV) do
  local a, b = old[i], ARGV[j]
  if b == nil or (a ~= nil and (a == b or newer(a, b))) then
    if a == b then j = j + 1 end
    merged[#merged + 1] = a
    i = i + 1
  else
    merged[#merged + 1] = b
    added = added + 1
    j = j + 1
  end
end
if added == 0 then return 0 end
local ttl = redis.call('PTTL', key)
redis.call('DEL', key)
for first = 1, #merged, 1000 do
  redis.call('RPUSH', key, unpack(merged, first, math.min(first + 999, #merged)))
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
local head = redis.call('LINDEX', key, 0)
if not head or head == EMPTY then return 0 end
redis.call('LTRIM', key, 0, cap - 1)  -- dead entries must not move up into view
local ttl = redis.call('PTTL', key)
local removed = 0
for i = 2, #ARGV do removed = removed + redis.call('LREM', key, 1, ARGV[i]) end
if redis.call('EXISTS', key) == 0 then
  redis.call('RPUSH', key, EMPTY)
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
end
return removed
"""
)

# KEYS: counter hashes. ARGV: likes delta, comments delta for each key in turn. Only
# counters already cached change; absent ones are recounted from the truth on read.
# Counts never go below zero (a late unlike after a recount).
INCREMENT_COUNTERS = r"""
for i = 1, #KEYS do
  local key = KEYS[i]
  if redis.call('EXISTS', key) == 1 then
    for f, field in ipairs({'l', 'c'}) do
      local delta = tonumber(ARGV[(i - 1) * 2 + f])
      if delta ~= 0 and redis.call('HINCRBY', key, field, delta) < 0 then
        redis.call('HSET', key, field, 0)
      end
    end
  end
end
return 0
"""

# KEYS[1]: a timeline. ARGV: TTL in ms (0: none), then IDs newest first, capped. A
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
