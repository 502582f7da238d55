-- claim: move up to `batch` due tasks, highest priority level first, into the in-flight set
-- under a lease. Nothing that is not yet due is handed out, except the tasks claimed ahead: when ARGV[7]
-- and ARGV[8] ask for it and the due tasks did not fill the batch, tasks due within the next ARGV[7] ms (at
-- most ARGV[8], beyond the batch) follow the due ones, never on a rate-limited shard or one where groups wait;
-- the worker holds them until the server clock reads their due time (a lease, a token and a reclaim like any
-- task in flight).
-- The attempt handed out is the
-- attempts that ended without an ack (ATTEMPTS, counted by retry.lua, reclaim.lua and the dead
-- paths) + 1: the claim only reads them, so a task that succeeds at once never writes an attempt
-- count (a task dead-lettered here as malformed has its attempt stored).
-- KEYS[1..10]: the shard keys (see include/shard_keys.lua)
-- KEYS[11]: this claim's request key, dq:{queue:shard}:claim:<request id>. A claim that Lettuce
--           re-sends after a reconnect finds it and answers the same tasks again instead of
--           stranding the first batch in flight until its lease expires.
-- KEYS[12]: dq:{queue:shard}:paused, optional: while its field `at` is set the claim hands out nothing and
--           answers next due -1, so that workers sleep until resumed (shard_pause.lua wakes them)
-- ARGV[1]: batch (maximum tasks), ARGV[2]: lease ms,
-- ARGV[3]: rate limit for this shard in tasks per second (0 = none), ARGV[4]: burst
-- ARGV[5]: rate limit of each group on this shard in tasks per second (0 or absent = none), ARGV[6]: its burst
--          (include/groups.lua: while groups wait, ungrouped tasks and the due groups are served round robin)
-- ARGV[7]: claim ahead: also take tasks due within this many ms from now (0 or absent = none), ARGV[8]: at most
--          this many of them, beyond the batch (the worker's room for held tasks, which take no handler slot)
-- ARGV[9]: group weights, "g=3,h=2" (absent or empty: every group weighs 1): in the round robin a group gets a
--          share of the claim in proportion to its weight (include/group_claim.lua)
-- ARGV[10]: groups capped at N running fleet-wide: "*" (every group), "g,h" (these), absent or empty (none): a
--           capped group's tasks are handed out only against permits the worker took (group_permits.lua)
-- ARGV[11]: the permits the worker holds for this claim, "g=2,h=1": at most that many due tasks of each group,
--           before any turn (a permit left over goes back)
-- Returns: {now, next_due (-1 when nothing waits), token, n, then per task:
--           id, due time, attempt (1 = first; > 1: the task has ATTEMPTS and ERRORS entries, which
--           its ack names so that ack.lua deletes them), record (nil for a task written by a bare ZADD),
--           then r, then per task dead-lettered here as malformed (include/malformed.lua):
--           id as hex (its first 128 bytes), id length in bytes, reason, then, when ARGV[7] is given, 1 if the
--           claim looked ahead (0: the rate limit or the groups kept it to due tasks), then, when ARGV[10] is given,
--           w and w pairs (group, tasks): the capped groups that had tasks due but no permit, and how many tasks
--           each would have got}; a replayed answer has none of these
--@include record_hash.lua
--@include shard_keys.lua
--@include group_name.lua
--@include groups.lua
--@include common.lua
--@include dedup.lua
--@include dead.lua
--@include malformed.lua
--@include group_round.lua
--@include group_claim.lua

local batch = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
local rate = tonumber(ARGV[3])
local burst = tonumber(ARGV[4])
local now = server_now()

local function answer(token, ids, dues)
  local out = { now, earliest_due() or -1, token, 0 }
  if #ids == 0 then return out end
  -- batched reads: one ZMSCORE and one HMGET for the batch, then the record of each task
  local scores = redis.call('ZMSCORE', INFLIGHT, unpack(ids))
  local stored = redis.call('HMGET', ATTEMPTS, unpack(ids))
  local n = 0
  for i = 1, #ids do
    local id = ids[i]
    local score = scores[i]
    if score and tonumber(score) == token then
      n = n + 1
      out[#out + 1] = id
      out[#out + 1] = tonumber(dues[i]) -- saved as Redis wrote the score (older replays: numbers)
      out[#out + 1] = (tonumber(stored[i]) or 0) + 1
      out[#out + 1] = redis.call('HGET', record_key(id), id)
    end
  end
  out[4] = n
  return out
end

-- One EXISTS for the replay key, the priority sets 1 and 2 and the groups: on most claims none of them
-- exists, and one call answers what would take three (each redis.call costs ~0.3-0.5 µs beyond its own work).
local present = redis.call('EXISTS', KEYS[11], DUE[2], DUE[3], GROUPS)
if present > 0 then
  local replay = redis.call('GET', KEYS[11])
  if replay then
    local saved = cjson.decode(replay)
    return answer(saved[1], saved[2], saved[3])
  end
end

if KEYS[12] and redis.call('HGET', KEYS[12], 'at') then
  return { now, -1, 0, 0 }
end

local allowed = batch
local tokens, bucket_at
if rate > 0 then
  local bucket = redis.call('HMGET', RATE, 'tokens', 'at')
  tokens = tonumber(bucket[1]) or burst
  bucket_at = tonumber(bucket[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - bucket_at) * rate / 1000)
  allowed = math.min(batch, math.floor(tokens))
end

local token = now + lease
local ids, dues, texts = {}, {}, {}
local levels, grouped = { 1 }, false
if present > 0 then
  -- no replay key: what EXISTS counted are the groups and the priority sets (as active_levels, one call fewer)
  grouped = redis.call('EXISTS', GROUPS) == 1
  local priority_sets = present - (grouped and 1 or 0)
  if priority_sets == 2 then
    levels = ALL_LEVELS
  elseif priority_sets == 1 then
    levels = redis.call('EXISTS', DUE[3]) == 1 and { 3, 1 } or { 2, 1 }
  end
end
-- >>> malformed tasks: each task taken is checked (include/malformed.lua), and the tasks leave
-- their due sets only after every read: a script's writes stay when a later call fails on a key of the
-- wrong type, so reading first is what keeps a failed claim from moving anything
local n, bad = 0, 0
local reasons, groups = {}, {} -- reasons[i]: why task i is dead-lettered; groups: {level, first, last}
local function take(level, found)
  local first = n + 1
  -- one C-level scan of the whole answer (ids and their ASCII scores) instead of a pattern match per id:
  -- a match per id costs ~0.4 µs, a tenth of the claim; only an answer holding a non-ASCII byte checks each id
  local wide = string.find(table.concat(found), NOT_ASCII) ~= nil
  for i = 1, #found, 2 do
    n = n + 1
    local id, text = found[i], found[i + 1]
    local due = tonumber(text)
    ids[n], dues[n], texts[n] = id, due, text
    local len = #id
    local reason
    if len == 0 or len > MAX_ID_BYTES or (wide and string.find(id, NOT_ASCII)) then reason = id_problem(id) end
    if not reason and (due < EARLIEST_DUE or due > LATEST_DUE) then reason = score_problem(due, text) end
    if reason then reasons[n], bad = reason, bad + 1 end
  end
  if n >= first then groups[#groups + 1] = { level, first, n } end
end
-- >>> groups: while grouped tasks wait, the priority levels 2 and 1 come first, as without groups, then the
-- plain due set and the due groups share what is left (include/group_claim.lua)
local group_rate, group_burst = tonumber(ARGV[5]) or 0, tonumber(ARGV[6]) or 0
local G = grouped and group_claim() -- include/group_claim.lua, made only when groups wait
local first_levels = levels
if grouped then
  first_levels = {}
  for _, level in ipairs(levels) do
    if level ~= 1 then first_levels[#first_levels + 1] = level end
  end
end
-- <<< groups
for _, level in ipairs(first_levels) do
  local room = allowed - n
  if room <= 0 then break end
  take(level, redis.call('ZRANGEBYSCORE', DUE[level], '-inf', now, 'WITHSCORES', 'LIMIT', 0, room))
end
-- >>> groups
if grouped then
  for _, t in ipairs(G.fair_takes(allowed - n, now, group_rate, group_burst, ARGV[9], ARGV[10], ARGV[11])) do take(t[1], t[2]) end
end
-- <<< groups
-- scores past any epoch ms (inf, 1e300) never come due: a claim that found nothing due picks them up to
-- dead-letter them. Not every claim: the look costs ~1.5-2 µs per level, a tenth of a claim of one task; such a
-- task harms nothing while it waits (a claim whose next due time is one of them answers now as the next due
-- time, so the worker's next claim finds nothing due and takes it).
if n == 0 then
  for _, level in ipairs(levels) do
    local room = allowed - n
    if room <= 0 then break end
    take(level, redis.call('ZRANGEBYSCORE', DUE[level], '(' .. LATEST_DUE_TEXT, '+inf', 'WITHSCORES', 'LIMIT', 0, room))
  end
  if grouped then -- >>> groups <<<
    for _, t in ipairs(G.far_group_takes(allowed - n, LATEST_DUE_TEXT)) do take(t[1], t[2]) end
  end
end

-- >>> claim ahead: a trickling shard's tasks are ms apart, and a claim per task costs Redis ~35 µs of
-- script and socket work each; what is due in the next ARGV[7] ms comes along with the due ones. Not where a
-- token bucket would be spent early, nor where groups wait (their turns and buckets are decided at due time).
local ahead, ahead_max = tonumber(ARGV[7]) or 0, tonumber(ARGV[8]) or 0
local looked_ahead = ahead > 0 and ahead_max > 0 and rate <= 0 and not grouped
-- a batch filled by due tasks: the worker claims again at once, and that claim looks ahead
if looked_ahead and n < allowed then
  local horizon, taken = now + ahead, 0
  for _, level in ipairs(levels) do
    local room = ahead_max - taken
    if room <= 0 then break end
    local was = n
    take(level, redis.call('ZRANGEBYSCORE', DUE[level], '(' .. now, horizon, 'WITHSCORES', 'LIMIT', 0, room))
    taken = taken + n - was
  end
end
-- <<< claim ahead

-- read before the first write (a wrong-type ATTEMPTS fails the claim here, with nothing moved)
local before = n == 0 and {} or redis.call('HMGET', ATTEMPTS, unpack(ids))
local records, attempts = {}, {}
for g = 1, #groups do
  local level, first, last = groups[g][1], groups[g][2], groups[g][3]
  local digit = 47 + level -- a compact record of this level starts with this byte
  for i = first, last do
    local id = ids[i]
    local reason = reasons[i]
    local record = nil -- nil: not known (an over-long id is not hashed); false: none (a bare ZADD)
    if #id <= MAX_ID_BYTES then
      local key = record_key(id)
      record = redis.pcall('HGET', key, id)
      if type(record) == 'table' then
        record = nil
        reason = reason or bucket_problem(key)
      elseif level > 3 then -- >>> groups: a group's set <<<
        reason = reason or G.group_problem(record, level)
      elseif not reason and not (record and byte(record, 1) == digit) then
        reason = priority_problem(record, level - 1)
      end
    end
    local counted = tonumber(before[i])
    if before[i] and not counted then reason = reason or attempts_problem(before[i]) end
    attempts[i] = (counted or 0) + 1
    records[i] = record
    if reason and not reasons[i] then reasons[i], bad = reason, bad + 1 end
  end
end
if bad > 0 then
  -- the dead-letter keys are written only for these: find a wrong type before the tasks move
  for key, want in pairs({ [DEAD] = 'zset', [ERRORS] = 'hash' }) do
    local t = redis.call('TYPE', key)['ok']
    if t ~= 'none' and t ~= want then
      return redis.error_reply('WRONGTYPE ' .. key .. ' is a ' .. t .. ', not a ' .. want)
    end
  end
end
local pairs_, p = {}, 0
for i = 1, n do
  if not reasons[i] then
    pairs_[p + 1], pairs_[p + 2], p = token, ids[i], p + 2
  end
end
if p > 0 then redis.call('ZADD', INFLIGHT, unpack(pairs_)) end
local from_groups = {} -- >>> groups: the ids taken from group sets leave GROUP_ALL too <<<
for g = 1, #groups do
  redis.call('ZREM', DUE[groups[g][1]], unpack(ids, groups[g][2], groups[g][3]))
  if groups[g][1] > 3 then
    for i = groups[g][2], groups[g][3] do from_groups[#from_groups + 1] = ids[i] end
  end
end
local out = { now, -1, token, 0 }
local rejected, kept_ids, kept_dues, counted = {}, {}, {}, {}
local o, k = 4, 0
for g = 1, #groups do
  local level = groups[g][1]
  for i = groups[g][2], groups[g][3] do
    local id = ids[i]
    if records[i] == false then
      -- a bare ZADD task: give it an empty record so that every task in flight or dead has one
      redis.call('HSET', record_key(id), id, '{}')
    end
    if reasons[i] then
      -- its attempt ends here: stored like one that failed, so the dead-letter list shows it
      counted[#counted + 1] = id
      counted[#counted + 1] = attempts[i]
      kill(id, now, reasons[i])
      rejected[#rejected + 1] = id_hex(id)
      rejected[#rejected + 1] = #id
      rejected[#rejected + 1] = reasons[i]
    else
      k = k + 1
      -- the replay keeps each due time as the text Redis wrote: cjson formats a number far slower than it copies a string
      kept_ids[k], kept_dues[k] = id, texts[i]
      out[o + 1], out[o + 2], out[o + 3], out[o + 4], o = id, dues[i], attempts[i], records[i], o + 4
    end
  end
end
if #counted > 0 then
  redis.call('HSET', ATTEMPTS, unpack(counted))
end
out[4] = k
ids, dues = kept_ids, kept_dues
-- <<< malformed tasks
if grouped then G.groups_after_claim(from_groups, now, group_rate) end -- >>> groups: next turns, token buckets <<<
if rate > 0 then
  tokens = tokens - #ids
  redis.call('HSET', RATE, 'tokens', tokens, 'at', now)
end
if #ids > 0 then
  redis.call('SET', KEYS[11], cjson.encode({ token, ids, dues }), 'PX', lease)
end

local next_due = earliest_due(levels, not grouped)
if next_due and rate > 0 and #ids >= allowed and allowed < batch and next_due <= now then
  -- rate limited: the next claim can succeed once a whole token has refilled
  next_due = now + math.ceil((1 - (tokens - math.floor(tokens))) * 1000 / rate)
end
out[2] = next_due or -1
-- >>> malformed tasks: a score outside epoch ms must not become the worker's wake-up time,
-- and the tasks dead-lettered here are reported after the claimed ones
if next_due and (next_due < 0 or next_due > LATEST_DUE) then out[2] = now end
out[#out + 1] = #rejected / 3
for i = 1, #rejected do out[#out + 1] = rejected[i] end
-- <<< malformed tasks
if ARGV[7] then out[#out + 1] = looked_ahead and 1 or 0 end -- >>> claim ahead <<<
if ARGV[10] then -- >>> groups capped at N running: who waits for permits <<<
  local wanted = grouped and G.wanted() or {}
  out[#out + 1] = #wanted / 2
  for i = 1, #wanted do out[#out + 1] = wanted[i] end
end
return out
