-- upgrade_step (protocol 3): one bounded step of upgrading a shard of protocol 2 in place (docs/protocol3.md,
-- "Upgrade in place"), run again until it answers done; safe to run again after a kill at any point, and while
-- producers and workers of either protocol go on: every move is one script, so a task is either still protocol 2's
-- or adopted, never both. The first step marks the shard (P..'legacy': calls by id then look in protocol 2's keys
-- too); each moves up to `most` waiting tasks of each of protocol 2's due sets and up to `most` of its dead letters
-- (include/legacy.lua); the one that finds nothing of protocol 2 left (no waiting task, none in flight, every dead
-- letter adopted) drops the mark and the orphaned attempt counts and errors.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: most (per due set, and of dead letters, this step)
-- Returns: { waiting tasks adopted, dead letters adopted, tasks protocol 2 holds in flight, done (1: nothing is left),
--          1 when the walk over the dead letters reached their end }
--@include buckets.lua
--@include crc32.lua
--@include dedup.lua
--@include dead.lua
--@include malformed.lua
--@include record_hash.lua
--@include group_name.lua
--@include shard_flags.lua
--@include legacy.lua

local P = KEYS[1]
local most = tonumber(ARGV[1])
local now = server_now()
local LEGACY = P .. 'legacy'
if redis.call('HSETNX', LEGACY, 'since', now) == 1 then legacy_seen = true end

local waiting = adopt_waiting_page(P, most, now)

-- dead letters by rank after the last one looked at (kept in the mark): protocol 3 adds its own with `dv`, which are
-- skipped, and trims the oldest, which moves ranks down: the walk restarts from the last id's rank
local from = 0
local last = redis.call('HGET', LEGACY, 'dead')
if last then
  local rank = redis.call('ZRANK', P .. 'dead', last)
  if rank then from = rank + 1 else from = 0 end
end
local dead = 0
local page = redis.call('ZRANGE', P .. 'dead', from, from + most - 1)
for _, id in ipairs(page) do
  if redis.call('HEXISTS', P .. 'dv', id) == 0 then
    adopt_dead(P, id, crc32(id) % IXB)
    dead = dead + 1
  end
end
if #page > 0 then redis.call('HSET', LEGACY, 'dead', page[#page]) end

local inflight = redis.call('ZCARD', P .. 'inflight')
local left = redis.call('EXISTS', P .. 'due', P .. 'due:p1', P .. 'due:p2', P .. LEGACY_GROUPED, P .. 'inflight')
local done = 0
if left == 0 and #page < most then
  redis.call('DEL', LEGACY, P .. 'attempts', P .. 'errors')
  done = 1
end
return { waiting, dead, inflight, done, #page < most and 1 or 0 }
