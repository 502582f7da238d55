-- claim (protocol 3): take whole due buckets into flight, at most `batch` tasks, priority level 2 first, then 1,
-- then 0 (within a level, oldest window first). A bucket is renamed into flight
-- in one step (O(1) a bucket), so a claim costs per bucket, not per task; the first bucket is split when it alone
-- is larger than the batch. Windows starting within `ahead` ms are taken too: the worker holds such tasks until
-- their due time. Coarse buckets whose minute starts within the look-ahead are split into windows first (the
-- reclaim sweep does that 10 minutes ahead; this covers a fleet that has not swept).
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1]: batch (most tasks), ARGV[2]: lease ms, ARGV[3]: now (ms; 0 = the server's clock), ARGV[4]: ahead ms,
-- ARGV[5]: the claim's request id ('' = none): a claim sent again with the same id (its answer was lost on the way)
--          answers what the first one took and still holds, instead of leaving it to wait out its lease
-- ARGV[6]: rate limit for this shard in tasks per second (0 or absent = none), ARGV[7]: its burst: protocol 2's
--          token bucket (P..'rate', fields tokens and at); a rate-limited claim takes at most the whole tokens, looks
--          no further ahead than now, and answers as next start the time a whole token has refilled
-- ARGV[8], ARGV[9]: rate limit of each group on this shard in tasks per second (0 or absent = none) and its burst;
-- ARGV[10]: group weights "g=3,h=2", ARGV[11]: groups capped at N running ("*", "g,h" or ''), ARGV[12]: the permits
--          the worker holds for them, "g=2,h=1" (protocol 2's claim.lua ARGV[5], [6], [9], [10], [11]): while grouped
--          tasks wait, levels 2 and 1 come first, then the ungrouped tasks of level 0 and the due groups share the rest
--          (include/group_round.lua); nothing is taken ahead then (turns are decided at due time), and a group's windows
--          are taken from its index P..'gx:'..group
-- ARGV[13]: room for tasks held ahead (protocol 2's claim.lua ARGV[8]): given, the batch takes only windows that have
--          begun, and up to this many more tasks (0: none) come from the windows starting after now within `ahead`
--          (none of them due yet, so the worker holds them outside its slots), also when the batch is full; absent,
--          windows starting within `ahead` count toward the batch
-- Returns: { lease expiry, the server's clock, the start of the earliest window (or minute) still waiting, or the
--          earliest group's turn (-1: none), then per bucket taken: its in-flight name, its fields and values (HGETALL),
--          then, where groups wait or ARGV[11] names capped groups, '#' and { 1 if the claim looked ahead else 0, then pairs
--          (group, tasks): the capped groups that had tasks due but no permit, and how many tasks each would have got } };
--          a value is decoded against the name (the part before the last '@'): include/buckets.lua's decode. A paused
--          shard (P..'paused', field 'at') answers { expiry, now, -1 } and nothing else.
--@include buckets.lua
--@include promote.lua
--@include crc32.lua
--@include dedup.lua
--@include dead.lua
--@include malformed.lua
--@include record_hash.lua
--@include group_name.lua
--@include shard_flags.lua
--@include legacy.lua
--@include group_round.lua

local P = KEYS[1]
local batch, lease, ahead = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4])
local now = tonumber(ARGV[3])
if now == 0 then now = server_now() end
local expiry = now + lease
local out = { expiry, now, -1 }
-- what the worker's wake-up timer is seeded with: the earliest window or minute still waiting after this claim
-- (levels 1 and 2 only when the shard holds any; the minutes' head as read before taking, when nothing promoted since)
local leveled, grouped = true, true
local coarse_head
local function next_start()
  local soonest = -1
  for _, ix in ipairs(leveled and { 'idx', 'idx1', 'idx2', 'cidx' } or { 'idx', 'cidx' }) do
    local head = (ix == 'cidx' and coarse_head) or redis.call('ZRANGE', P .. ix, 0, 0, 'WITHSCORES')
    local at = tonumber(head[2])
    if at and (soonest < 0 or at < soonest) then soonest = at end
  end
  if grouped then
    local turn = tonumber(redis.call('ZRANGE', P .. 'groups', 0, 0, 'WITHSCORES')[2])
    if turn and (soonest < 0 or turn < soonest) then soonest = turn end
  end
  return soonest
end
local replay = ARGV[5] ~= nil and ARGV[5] ~= '' and P .. 'claim:' .. ARGV[5] or nil
if replay then
  local prior = redis.call('GET', replay)
  if prior then
    local first = true
    for word in string.gmatch(prior, '%S+') do
      if first then out[1] = tonumber(word); first = false
      else
        local held = redis.call('HGETALL', P .. 'f:' .. word)
        if #held > 0 then out[#out + 1] = word; out[#out + 1] = held end
      end
    end
    out[3] = next_start()
    return out
  end
end

-- A paused shard (protocol 2's flag, shard_pause.lua) hands out nothing and answers no next window, so that workers
-- sleep until resumed (the resume writes the marker). The pause flag, protocol 2's due sets (include/legacy.lua),
-- the levels' indexes and the groups' turns are rarely there: one EXISTS answers for all of them, and only a shard
-- holding any of them asks which.
local rare = redis.call('EXISTS', P .. 'paused', P .. 'due', P .. 'due:p1', P .. 'due:p2', P .. 'due:g', P .. 'idx2', P .. 'idx1',
  P .. 'groups', P .. 'gidx') > 0
if rare and redis.call('HGET', P .. 'paused', 'at') then return out end

local rate, burst = tonumber(ARGV[6]) or 0, tonumber(ARGV[7]) or 0
local tokens
local asked = batch
if rate > 0 then
  local bucket = redis.call('HMGET', P .. 'rate', 'tokens', 'at')
  tokens = tonumber(bucket[1]) or burst
  tokens = math.min(burst, tokens + math.max(0, now - (tonumber(bucket[2]) or now)) * rate / 1000)
  batch = math.min(batch, math.floor(tokens))
  ahead = 0
end
-- when the next whole token has refilled: a rate-limited shard's next start while due tasks wait
local function next_token()
  return now + math.ceil((1 - (tokens - math.floor(tokens))) * 1000 / rate)
end

if rare then adopt_waiting_tasks(P, now) end
coarse_head = redis.call('ZRANGE', P .. 'cidx', 0, 0, 'WITHSCORES')
local promoted = 0
if coarse_head[2] and tonumber(coarse_head[2]) <= now + ahead then
  promoted = promote(P, now, now + ahead, 100)
  coarse_head = redis.call('ZRANGE', P .. 'cidx', 0, 0, 'WITHSCORES')
end

-- (adopting protocol 2's tasks, or promoting minutes, may have listed buckets of levels 1 and 2 or of groups)
local mixed = rare or promoted > 0
leveled = mixed and redis.call('EXISTS', P .. 'idx2', P .. 'idx1') > 0
grouped = mixed and redis.call('EXISTS', P .. 'groups', P .. 'gidx') > 0
if grouped then
  -- a group with a window due and no turn (protocol 2's scripts, which know only its own sets, took it out of the
  -- rotation: a worker or producer not switched yet during an upgrade in place) gets one back, one group a claim
  local head = redis.call('ZRANGEBYSCORE', P .. 'gidx', '-inf', now, 'WITHSCORES', 'LIMIT', 0, 1)
  local g = head[1] and select(5, parse_name(head[1]))
  if g then redis.call('ZADD', P .. 'groups', 'NX', head[2], g) end
end
local looked_ahead = ahead > 0
if grouped then ahead = 0 end
local took, leases = 0, {}
-- with room ahead, the batch's pass looks at windows that have begun only, and the room's pass at those starting after
-- now
local room = (not grouped) and ahead > 0 and tonumber(ARGV[13]) or nil
local batch_upto = room and now or now + ahead
-- the tag that makes in-flight names unique, one a claim: its takes name different buckets, except a group round's,
-- which takes from one index twice (a share, then what is left) and may take the rest of a bucket its share split,
-- so each of those takes a tag of its own
local claim_tag
local function tag_for(exact)
  if exact or not claim_tag then
    local tag = '@' .. b36(redis.call('INCR', P .. 'seq'))
    if exact then return tag end
    claim_tag = tag
  end
  return claim_tag
end
-- takes up to `most` tasks of the buckets of index `ix` whose window starts in [since, upto] (ZRANGEBYSCORE bounds),
-- whole buckets, the first one split when it alone is larger; `exact`: also the last one split, to take `most` exactly
-- (a group's share). A group's index (`group`) lists its buckets in P..'gidx' too. Answers how many it took.
local function take(ix, most, since, upto, group, exact)
  local due = redis.call('ZRANGEBYSCORE', P .. ix, since, upto, 'LIMIT', 0, most)
  if #due == 0 then return 0 end
  local tag = tag_for(exact)
  local taken, bases = {}, {}
  local n = 0
  for _, name in ipairs(due) do
    local bkey = P .. 'b:' .. name
    local size = redis.call('HLEN', bkey)
    local fname = name .. tag
    local fkey = P .. 'f:' .. fname
    if n + size > most then
      if n > 0 and not exact then break end
      local part = redis.call('HRANDFIELD', bkey, most - n, 'WITHVALUES')
      local ids = {}
      for j = 1, #part, 2 do ids[#ids + 1] = part[j] end
      redis.call('HDEL', bkey, unpack(ids))
      redis.call('HSET', fkey, unpack(part))
      out[#out + 1] = fname
      out[#out + 1] = part
      leases[#leases + 1] = expiry
      leases[#leases + 1] = fname
      n = most
      break
    end
    redis.call('RENAME', bkey, fkey)
    taken[#taken + 1] = name
    bases[#bases + 1] = string.match(name, '^(.*):%d+$')
    leases[#leases + 1] = expiry
    leases[#leases + 1] = fname
    out[#out + 1] = fname
    out[#out + 1] = redis.call('HGETALL', fkey)
    n = n + size
    if n >= most then break end
  end
  if #taken > 0 then
    redis.call('ZREM', P .. ix, unpack(taken))
    redis.call('HDEL', P .. 'open', unpack(bases))
    if group then redis.call('ZREM', P .. 'gidx', unpack(taken)) end
  end
  took = took + n
  return n
end
local round
if batch > 0 then
  if leveled then
    take('idx2', batch, '-inf', batch_upto)
    if took < batch then take('idx1', batch - took, '-inf', batch_upto) end
  end
  if not grouped then
    if took < batch then take('idx', batch - took, '-inf', batch_upto) end
    -- the room ahead: windows starting after now only, so none of their tasks is due yet and none needs a free slot
    if room and room > 0 then
      local before = took
      for _, ix in ipairs(leveled and { 'idx2', 'idx1', 'idx' } or { 'idx' }) do
        if took - before < room then take(ix, room - (took - before), '(' .. now, now + ahead) end
      end
    end
  else
    -- the ungrouped tasks of level 0 and the due groups share the rest (include/group_round.lua); a bucket taken
    -- leaves its index at once, so `skip` is never needed
    round = group_round(P .. 'groups', P .. 'grate', {
      plain_due = function()
        return redis.call('ZRANGEBYSCORE', P .. 'idx', '-inf', now, 'LIMIT', 0, 1)[1] ~= nil
      end,
      take = function(g, _, want)
        if g then return take('gx:' .. g, want, '-inf', now, g, true) end
        return take('idx', want, '-inf', now, nil, true)
      end,
      head = function(g)
        return tonumber(redis.call('ZRANGE', P .. 'gx:' .. g, 0, 0, 'WITHSCORES')[2])
      end,
    })
    round.fair(batch - took, now, tonumber(ARGV[8]) or 0, tonumber(ARGV[9]) or 0, ARGV[10], ARGV[11], ARGV[12])
  end
end
if round then round.after(now, tonumber(ARGV[8]) or 0) end
-- where groups wait (or capped groups were named): whether the claim looked ahead, and the capped groups that wanted
-- permits
local function add_trailer()
  if not grouped and (ARGV[11] or '') == '' then return end
  local trailer = { (looked_ahead and not grouped) and 1 or 0 }
  for _, v in ipairs(round and round.wanted() or {}) do trailer[#trailer + 1] = v end
  out[#out + 1] = '#'
  out[#out + 1] = trailer
end
local function limited_start()
  local start = next_start()
  if rate > 0 and batch < asked and took >= batch and start >= 0 and start <= now then return next_token() end
  return start
end
if rate > 0 then
  tokens = tokens - took
  redis.call('HSET', P .. 'rate', 'tokens', tokens, 'at', now)
end
if #leases == 0 then
  out[3] = limited_start()
  add_trailer()
  return out  -- (nothing to replay either: a re-sent empty claim claims afresh)
end
redis.call('ZADD', P .. 'lease', unpack(leases))
waiting_delta = waiting_delta - took
write_placed(P)
out[3] = limited_start()
add_trailer()
if replay then
  local names = {}
  for j = 2, #leases, 2 do names[#names + 1] = leases[j] end
  redis.call('SET', replay, expiry .. ' ' .. table.concat(names, ' '), 'PX', lease)
end
return out
