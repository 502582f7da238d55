-- worker_beat: one worker says it is alive: its entry in the queue's presence registry is written
-- with Redis' time as its heartbeat (its start time kept from the first beat), and entries whose TTL
-- has run out (workers killed without leaving) are removed. Readers (console, CLI) show an entry only
-- while heartbeat + ttl is ahead of Redis' time. A worker that stops cleanly HDELs its own fields.
-- KEYS[1]: dq:{queue}:workers       HASH worker id -> "<startedAt ms>|<heartbeat ms>|<ttl ms>|<JSON>"
--          (JSON: {"id","shardFrom","shardTo","version","host","held","delivered"}; the queue's own hash tag, like its meta)
-- KEYS[2]: dq:{queue}:workers:held  HASH worker id -> JSON [[task id, lease token], …]: the leases it held at
--          this heartbeat (at most a few hundred; the token is the in-flight score, so a reader can tell a
--          lease still held from one that expired and was claimed again)
-- ARGV[1]: worker id; ARGV[2]: the JSON; ARGV[3]: ttl in ms; ARGV[4]: the held leases' JSON ("" for none)
-- Returns: {heartbeat ms, entries removed as expired}
--@include record_hash.lua
--@include shard_keys.lua

local now = server_now()
local started = now
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  started = tonumber(string.sub(old, 1, string.find(old, '|', 1, true) - 1)) or now
end
local removed = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if all[i] ~= ARGV[1] then
    local a = string.find(all[i + 1], '|', 1, true)
    local b = a and string.find(all[i + 1], '|', a + 1, true)
    local c = b and string.find(all[i + 1], '|', b + 1, true)
    local beat = c and tonumber(string.sub(all[i + 1], a + 1, b - 1))
    local ttl = c and tonumber(string.sub(all[i + 1], b + 1, c - 1))
    if not beat or not ttl or beat + ttl < now then
      redis.call('HDEL', KEYS[1], all[i])
      redis.call('HDEL', KEYS[2], all[i])
      removed = removed + 1
    end
  end
end
redis.call('HSET', KEYS[1], ARGV[1], string.format('%d|%d|%d|', started, now, tonumber(ARGV[3])) .. ARGV[2])
if ARGV[4] == '' then
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
end
return { now, removed }
