-- Protocol 3's buckets (docs/protocol3.md, "Layout"). KEYS[1] of every script is the shard's prefix P
-- ("dq:{<queue>:<shard>}:"): every key below starts with it, so a call touches one Cluster slot.
--   P..'b:'..name   HASH id -> value: a waiting bucket. name = base ':' k, base = 'w' (due window of W ms) or 'c'
--                   (coarse minute) then the window's start in base 36, then '.n<attempt>' for attempts beyond the
--                   first, and '.p<level>' before it for priority levels 1 and 2, then '#<group>' last for a task of a
--                   group (a group key cannot hold '#', so the parts before it parse alike). value = the due time's offset
--                   from the start (FW or CW base-36 digits) then the record.
--   P..'idx'        ZSET name -> window start: every waiting 'w' bucket of level 0 without a group; 'idx1', 'idx2': levels
--                   1 and 2 (a claim takes level 2, then 1, then 0). P..'cidx': every 'c' bucket, whatever its level or group.
--   P..'gidx'       ZSET name -> window start: every waiting 'w' bucket of a group (what browse, stats, the mover and the
--                   calls by id walk), and P..'gx:'..group the same for one group (what a claim takes from);
--                   P..'groups' ZSET group -> turn, protocol 2's rotation (include/groups.lua, include/group_round.lua):
--                   the group's earliest window start, or after it was served the claim's now
--   P..'open'       HASH base -> places handed out in that base; only a hint for filling buckets to CAP: resetting
--                   it is always safe (a place lands in a waiting bucket of the same base and attempt, or a new one).
--   P..'f:'..name..'@'..tag  HASH: a bucket in flight, renamed there whole by a claim; the name is the fence.
--   P..'lease'      ZSET in-flight name -> lease expiry (ms).
--   P..'ix:'..h     HASH id -> the task's due time (base 36), or '~' for a dead letter: the id index (h: the
--                   caller's ix bucket of the id, crc32(id) % IXB, so that no script pays the hash per task).
--   P..'waiting'    STRING: how many tasks wait in buckets, kept by every script that places or takes one (stats:
--                   the total, of which the due part is counted from the due buckets themselves).
local W, COARSE, HORIZON, CAP, IXB = 100, 60000, 600000, 250, 2039
local FW, CW = 2, 4
local DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'
local byte = string.byte
-- protocol 2's dedup windows (include/dedup.lua), in the same key: P..'dedup'
local DEDUP = KEYS[1] .. 'dedup'

local function b36(x, width)
  local out = ''
  repeat
    local d = x % 36
    out = string.sub(DIGITS, d + 1, d + 1) .. out
    x = (x - d) / 36
  until x == 0
  if width and #out < width then out = string.rep('0', width - #out) .. out end
  return out
end

local function server_now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- a bucket name's (or in-flight name's) window start, attempt, kind, priority level and group (nil: none). A group key
-- may hold ':' and '@': the group is what lies between '#' and the last ':<k>'.
local function parse_name(name)
  local kind, start = string.match(name, '^([wc])(%w+)')
  local head, group = name, nil
  local cut = string.find(name, '#', 1, true)
  if cut then
    head = string.sub(name, 1, cut - 1)
    group = string.match(name, '^#(.*):%d+', cut)
  end
  return tonumber(start, 36), tonumber(string.match(head, '%.n(%d+)')) or 1, kind == 'c',
    tonumber(string.match(head, '%.p(%d)')) or 0, group
end

local function base_of(start, coarse, attempt, level, group)
  local base = (coarse and 'c' or 'w') .. b36(start)
  if level > 0 then base = base .. '.p' .. level end
  if attempt > 1 then base = base .. '.n' .. attempt end
  if group then base = base .. '#' .. group end
  return base
end

local WINDOW_INDEXES = { [0] = 'idx', 'idx1', 'idx2' }
-- every index of waiting buckets: what browse, stats, the forecast and the calls by id walk
local WAITING_INDEXES = { 'idx', 'idx1', 'idx2', 'gidx', 'cidx' }
-- protocol 2's sets of waiting tasks that a protocol-3 shard may hold (include/legacy.lua): a seed producer's bare
-- ZADDs, and what an upgrade in place has not converted yet
local LEGACY_WAITING = { 'due', 'due:p1', 'due:p2', 'due:g' }
-- whether a task waits on the shard (in a bucket or in protocol 2's sets) or any of the shard's keys named in `also`
-- exists: one EXISTS, all that an empty shard's backlog gauges pay
local function holds_any(P, also)
  local keys = {}
  for _, ix in ipairs(WAITING_INDEXES) do keys[#keys + 1] = P .. ix end
  for _, k in ipairs(LEGACY_WAITING) do keys[#keys + 1] = P .. k end
  for _, k in ipairs(also) do keys[#keys + 1] = P .. k end
  return redis.call('EXISTS', unpack(keys)) > 0
end
local function index_of(coarse, level, group)
  return coarse and 'cidx' or (group and 'gidx') or WINDOW_INDEXES[level]
end

-- names of buckets placed by this call, listed in their index once at the end (write_placed), and the change of the
-- waiting count
local placed_seen, placed_ix = {}, {}
local waiting_delta = 0
-- group -> the earliest window start this call listed for it (its turn follows in write_placed)
local listed_groups = {}
local function list_in(ix, start, name)
  local e = placed_ix[ix]
  if e == nil then e = {}; placed_ix[ix] = e end
  e[#e + 1] = start
  e[#e + 1] = name
end
local function list_bucket(name, start, coarse, level, group)
  if not placed_seen[name] then
    placed_seen[name] = true
    list_in(index_of(coarse, level, group), start, name)
    if group and not coarse then
      list_in('gx:' .. group, start, name)
      local first = listed_groups[group]
      if first == nil or start < first then listed_groups[group] = start end
    end
  end
end

-- A group whose head changed other than by a claim: its turn follows the head as protocol 2's group_settle
-- (include/groups.lua) keeps it; a group with no window waiting leaves the rotation (its minutes rejoin it when
-- promoted).
local function group_settle(P, g, now)
  local head = tonumber(redis.call('ZRANGE', P .. 'gx:' .. g, 0, 0, 'WITHSCORES')[2])
  if not head then
    redis.call('ZREM', P .. 'groups', g)
    return
  end
  local turn = tonumber(redis.call('ZSCORE', P .. 'groups', g))
  if not turn or head > now or turn > now then redis.call('ZADD', P .. 'groups', head, g) end
end

-- how many buckets this call newly listed, per index: an enqueue's wake-up reads an index's head only when it listed
-- a new bucket there (include/wake.lua)
local newly_listed = {}

-- lists the buckets placed so far in their indexes and stores the waiting count's change: every script that places
-- or takes a waiting task calls it before it returns
local function write_placed(P)
  for ix, e in pairs(placed_ix) do
    newly_listed[ix] = (newly_listed[ix] or 0) + redis.call('ZADD', P .. ix, 'NX', unpack(e))
  end
  placed_ix, placed_seen = {}, {}
  if next(listed_groups) then
    -- as protocol 2's group_add: a group already due keeps its place in the rotation, one not due yet takes the new
    -- head as its turn when that is sooner
    local now = server_now()
    for g, start in pairs(listed_groups) do
      local turn = tonumber(redis.call('ZSCORE', P .. 'groups', g))
      if not turn or (start < turn and turn > now) then redis.call('ZADD', P .. 'groups', start, g) end
    end
    listed_groups = {}
  end
  if waiting_delta ~= 0 then
    -- a drained shard keeps no count
    if redis.call('INCRBY', P .. 'waiting', waiting_delta) == 0 then redis.call('DEL', P .. 'waiting') end
    waiting_delta = 0
  end
end

-- the bucket of `base` that `count` more tasks go to
local function bucket_for(P, base, count)
  local cnt = redis.call('HINCRBY', P .. 'open', base, count)
  return base .. ':' .. math.floor((cnt - count) / CAP)
end

-- places one task of priority `level` (or of `group`, nil for none) due at `due` waiting as `attempt`; returns the
-- bucket name
local function place(P, id, due, now, attempt, record, level, group)
  local coarse = due - now >= HORIZON
  local start = due - due % (coarse and COARSE or W)
  local name = bucket_for(P, base_of(start, coarse, attempt, level, group), 1)
  redis.call('HSET', P .. 'b:' .. name, id, b36(due - start, coarse and CW or FW) .. record)
  list_bucket(name, start, coarse, level, group)
  waiting_delta = waiting_delta + 1
  return name
end

-- a record's priority level (TaskRecord: the compact form's first digit, or JSON's "priority"), for the paths that
-- have no bucket name to read it from (dead letters)
local function level_of_record(record)
  return tonumber(string.match(record, '^([0-2])%w*:')) or tonumber(string.match(record, '^{.*"priority":%s*([0-2])')) or 0
end

-- a task's due time and record from its bucket's name and its value
local function decode(name, value)
  local start, _, coarse = parse_name(name)
  local width = coarse and CW or FW
  return start + tonumber(string.sub(value, 1, width), 36), string.sub(value, width + 1)
end

-- where a task waits: the bucket name, or nil when it is in flight, dead or unknown. The id index holds its due
-- time, so only the buckets listed at that window's (and minute's) start are looked at.
local function find_waiting(P, id, due)
  for _, ix in ipairs(WAITING_INDEXES) do
    local start = due - due % (ix == 'cidx' and COARSE or W)
    local names = redis.call('ZRANGEBYSCORE', P .. ix, start, start)
    for _, name in ipairs(names) do
      if redis.call('HEXISTS', P .. 'b:' .. name, id) == 1 then return name end
    end
  end
  return nil
end

-- where a task not waiting runs: its in-flight name and lease expiry, or nil. The lease set holds one entry per
-- bucket in flight (not per task), and only the names of the task's window or minute are looked into; for the
-- calls by id (inspect, reschedule), not the hot path.
local function find_flight(P, id, due)
  local leases = redis.call('ZRANGE', P .. 'lease', 0, -1, 'WITHSCORES')
  for j = 1, #leases, 2 do
    local name = leases[j]
    local start, _, coarse = parse_name(name)
    if start == due - due % (coarse and COARSE or W) and redis.call('HEXISTS', P .. 'f:' .. name, id) == 1 then
      return name, tonumber(leases[j + 1])
    end
  end
  return nil
end

-- moves a whole bucket (source key, `size` tasks not waiting until now: an in-flight bucket) into the waiting
-- bucket of `base`, starting at `start`
local function move_bucket(P, source, size, base, start, coarse, level, group)
  local name = bucket_for(P, base, size)
  local target = P .. 'b:' .. name
  if redis.call('EXISTS', target) == 1 then
    redis.call('HSET', target, unpack(redis.call('HGETALL', source)))
    redis.call('DEL', source)
  else
    redis.call('RENAME', source, target)
  end
  list_bucket(name, start, coarse, level, group)
  waiting_delta = waiting_delta + size
  return name
end

-- takes one waiting task out of its bucket `name` (cancelled, or about to be placed again); a bucket left empty is
-- unlisted, and its base's fill count forgotten (a group's window: its turn follows its new head)
local function unwait(P, name, id)
  redis.call('HDEL', P .. 'b:' .. name, id)
  waiting_delta = waiting_delta - 1
  if redis.call('EXISTS', P .. 'b:' .. name) == 0 then
    local _, _, coarse, level, group = parse_name(name)
    redis.call('ZREM', P .. index_of(coarse, level, group), name)
    redis.call('HDEL', P .. 'open', string.match(name, '^(.*):%d+$'))
    if group and not coarse then
      redis.call('ZREM', P .. 'gx:' .. group, name)
      group_settle(P, group, server_now())
    end
  end
end
