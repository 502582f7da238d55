-- Bare tasks (docs/protocol.md, "Store only the id"): a producer with nothing but ZADD writes
-- `ZADD dq:{<queue>:<shard>}:due <ms> <id>` (P..'due', protocol 2's due set) and no record. Protocol 3 adopts such an
-- id into its window's bucket as a task without a record (attempt 1, level 0): a call by id adopts the id it is asked
-- about, and a claim adopts up to BARE_MOST a call, earliest first; stats and the forecast count the set as it
-- stands. An id the shard already holds makes the bare write a duplicate, dropped (protocol 2 keeps the first task
-- too); an id or a score a task cannot carry is dead-lettered with the reason (include/malformed.lua).
-- Needs buckets.lua, crc32.lua, dead.lua and malformed.lua before it.
local BARE_MOST = 1000

local function adopt_one(P, id, h, score, text, now)
  redis.call('ZREM', P .. 'due', id)
  local due = math.floor(score)
  local problem = id_problem(id) or score_problem(due, text)
  if problem then
    if redis.call('HEXISTS', P .. 'ix:' .. h, id) == 0 then dead_letter(P, id, h, '', problem, now, 0) end
  elseif redis.call('HSETNX', P .. 'ix:' .. h, id, b36(due)) == 1 then
    place(P, id, due, now, 1, '', 0)
    write_placed(P) -- listed at once: the call that adopted it may look for it next (find_waiting)
  end
end

-- the id a call by id is about, when a bare write holds it (one EXISTS a call while the shard has no bare task)
local bare_seen
local function adopt_id(P, id, h, now)
  if bare_seen == nil then bare_seen = redis.call('EXISTS', P .. 'due') == 1 end
  if not bare_seen then return end
  local score = redis.call('ZSCORE', P .. 'due', id)
  if score then adopt_one(P, id, h, tonumber(score), score, now) end
end

-- up to BARE_MOST bare tasks, earliest first (a claim's first step)
local function adopt_bare(P, now)
  if redis.call('EXISTS', P .. 'due') == 0 then return end
  local bare = redis.call('ZRANGE', P .. 'due', 0, BARE_MOST - 1, 'WITHSCORES')
  for j = 1, #bare, 2 do adopt_one(P, bare[j], crc32(bare[j]) % IXB, tonumber(bare[j + 1]), bare[j + 1], now) end
end
