-- Protocol 2's tasks on a protocol-3 shard (docs/protocol3.md, "Protocol 2's tasks"): what a seed producer's bare
-- `ZADD dq:{<queue>:<shard>}:due <ms> <id>` writes, and whatever a queue upgraded in place still holds in protocol
-- 2's keys (its due sets `due`, `due:p1`, `due:p2`, its grouped tasks `due:g`, records `tasks:<b>`, `attempts`,
-- `errors`, `inflight`, and the dead letters protocol 2 left in `dead` without a `dv` entry). A waiting one is adopted
-- into its bucket, with its record, level, attempts and last error (a grouped one into its group's): by a call by
-- id that asks for it and by claims (up to LEGACY_MOST of each set a claim, earliest first); a dead one by a call by id and by the reclaim sweep; one protocol 2 holds in flight finishes
-- there (its ack, retry, extension and progress run protocol 2's scripts, io.delayq.queue.QueueProtocol routes them)
-- unless its lease expires, when the reclaim sweep adopts it as its next attempt. An id the shard already holds makes
-- the protocol-2 entry a duplicate, dropped (the first task is kept); an id or a score no task can carry is
-- dead-lettered with protocol 2's reason (include/malformed.lua). A shard upgraded in place carries P..'legacy'
-- until it holds nothing of protocol 2 (upgrade.lua); a call by id pays one EXISTS while neither it nor a bare due
-- set exists. Needs buckets.lua, crc32.lua, dedup.lua, dead.lua, malformed.lua, record_hash.lua, group_name.lua and
-- shard_flags.lua before it.
local LEGACY_MOST = 1000
local LEGACY_DUE = { [0] = 'due', 'due:p1', 'due:p2' }
-- every grouped task protocol 2 keeps waiting (include/groups.lua: also in `group:<g>`, its group's turn in `groups`)
local LEGACY_GROUPED = 'due:g'

local function legacy_record_key(P, id)
  return P .. 'tasks:' .. record_bucket(id)
end

-- takes a task's record, attempts and last error out of protocol 2's keys
local function legacy_parts(P, id)
  local rkey = legacy_record_key(P, id)
  local record = redis.call('HGET', rkey, id)
  local attempts = tonumber(redis.call('HGET', P .. 'attempts', id)) or 0
  local err = redis.call('HGET', P .. 'errors', id)
  if record then redis.call('HDEL', rkey, id) end
  if attempts > 0 then redis.call('HDEL', P .. 'attempts', id) end
  if err then redis.call('HDEL', P .. 'errors', id) end
  return record or '', attempts, err
end

-- one waiting task of protocol 2's due set of `level` (or its grouped set), scored `score` (`text`: as Redis wrote it)
local function adopt_waiting(P, id, h, level, score, text, now, grouped)
  redis.call('ZREM', P .. (grouped and LEGACY_GROUPED or LEGACY_DUE[level]), id)
  local record, attempts, err = legacy_parts(P, id)
  local group = grouped and group_of(record)
  local due = math.floor(score)
  local problem = id_problem(id) or score_problem(due, text)
  if problem then
    if redis.call('HEXISTS', P .. 'ix:' .. h, id) == 0 then dead_letter(P, id, h, record, problem, now, attempts) end
  elseif redis.call('HSETNX', P .. 'ix:' .. h, id, b36(due)) == 1 then
    place(P, id, due, now, attempts + 1, record, group and 0 or level, group)
    if err then redis.call('HSET', P .. 'err', id, err) end
  end
end

-- one grouped task of protocol 2: into its group's bucket (a record naming no valid group: level 0 ungrouped). It
-- leaves its group's set of protocol 2 (a record naming none: the sets of the groups with a turn, a hand-written
-- producer's rare mistake); the group's turn in `groups` is shared by both protocols and stays.
local function adopt_grouped(P, id, h, score, text, now)
  local record = redis.call('HGET', legacy_record_key(P, id), id)
  local ok, decoded = pcall(cjson.decode, record or '')
  local g = ok and type(decoded) == 'table' and decoded['group']
  if type(g) == 'string' then
    redis.call('ZREM', P .. 'group:' .. g, id)
  else
    for _, turn in ipairs(redis.call('ZRANGE', P .. 'groups', 0, LEGACY_MOST - 1)) do redis.call('ZREM', P .. 'group:' .. turn, id) end
  end
  adopt_waiting(P, id, h, 0, score, text, now, true)
end

-- one dead letter protocol 2 left (in `dead`, without `dv`): its record and attempts into `dv`, its id into the index
local function adopt_dead(P, id, h)
  if redis.call('HEXISTS', P .. 'dv', id) == 1 then return end
  local record, attempts, err = legacy_parts(P, id)
  redis.call('HSET', P .. 'dv', id, attempts .. '|' .. record)
  redis.call('HSET', P .. 'ix:' .. h, id, '~')
  if err then redis.call('HSET', P .. 'err', id, err) end
end

-- the id a call by id is about, wherever protocol 2 keeps it waiting or dead
local function adopt_id(P, id, h, now)
  if legacy_seen == nil then legacy_seen = redis.call('EXISTS', unpack(legacy_keys(P))) > 0 end
  if not legacy_seen then return end
  for level = 0, 2 do
    local score = redis.call('ZSCORE', P .. LEGACY_DUE[level], id)
    if score then
      adopt_waiting(P, id, h, level, tonumber(score), score, now)
      write_placed(P) -- listed at once: the call that adopted it looks for it next (find_waiting)
      return
    end
  end
  local grouped = redis.call('ZSCORE', P .. LEGACY_GROUPED, id)
  if grouped then
    adopt_grouped(P, id, h, tonumber(grouped), grouped, now)
    write_placed(P)
    return
  end
  if redis.call('ZSCORE', P .. 'dead', id) then adopt_dead(P, id, h) end
end

-- up to `most` of protocol 2's waiting tasks of each of its waiting sets, earliest first; answers how many
local function adopt_waiting_page(P, most, now)
  local adopted = 0
  for level = 0, 2 do
    local waiting = redis.call('ZRANGE', P .. LEGACY_DUE[level], 0, most - 1, 'WITHSCORES')
    for j = 1, #waiting, 2 do
      adopt_waiting(P, waiting[j], crc32(waiting[j]) % IXB, level, tonumber(waiting[j + 1]), waiting[j + 1], now)
    end
    adopted = adopted + #waiting / 2
  end
  local grouped = redis.call('ZRANGE', P .. LEGACY_GROUPED, 0, most - 1, 'WITHSCORES')
  for j = 1, #grouped, 2 do
    adopt_grouped(P, grouped[j], crc32(grouped[j]) % IXB, tonumber(grouped[j + 1]), grouped[j + 1], now)
  end
  write_placed(P) -- the adopted tasks' buckets listed once, before the caller looks for them
  return adopted + #grouped / 2
end

-- up to LEGACY_MOST waiting tasks of each of protocol 2's waiting sets, earliest first (a claim's first step: one
-- EXISTS while there are none)
local function adopt_waiting_tasks(P, now)
  local sets = {}
  for _, k in ipairs(LEGACY_WAITING) do sets[#sets + 1] = P .. k end
  if redis.call('EXISTS', unpack(sets)) == 0 then return end
  adopt_waiting_page(P, LEGACY_MOST, now)
end
