-- browse (protocol 3): one bounded page of one shard's tasks in one state, in (score, id) order after a position,
-- in protocol 2's arguments and answer (browse.lua; io.delayq.browse.TaskBrowser merges the shards' pages).
-- Waiting tasks are read bucket by bucket in the order of the buckets' starts, merged over the levels' window
-- indexes and the minutes' (a minute spans many windows): once every bucket starting before F is read, every task
-- due before F is known, so the answer is complete up to F. Tasks in flight are read bucket by bucket in the order
-- of their lease (every task of a bucket has its bucket's lease expiry as score), dead letters from `dead`.
-- Protocol 2's waiting tasks (a bare ZADD, an upgrade in place) are adopted first (include/legacy.lua), so they are
-- listed like any task.
-- KEYS[1]: the shard's prefix (include/buckets.lua)
-- ARGV[1..9]: as browse.lua's: state, position score and id, window start and end (inclusive; '' = none), id
--             prefix, limit, scan budget (tasks read, capped at MAX_READ; whole buckets are read, so a call may
--             read up to a bucket more), preview bytes
-- Returns: as browse.lua's; 'in window' counts at most MOST_COUNTED buckets exactly, the rest at the counted ones'
--          average fill
--@include buckets.lua
--@include crc32.lua
--@include dedup.lua
--@include dead.lua
--@include malformed.lua
--@include record_hash.lua
--@include group_name.lua
--@include shard_flags.lua
--@include legacy.lua
--@include browse_order.lua

local P = KEYS[1]
local now = server_now()
local MAX_READ, MOST_COUNTED, LISTED = 5000, 10000, 2000
local args = browse_args(now, MAX_READ)
local state, limit, budget, preview = args.state, args.limit, args.budget, args.preview
local prefix, after_score, after_id, lo, hi = args.prefix, args.after_score, args.after_id, args.lo, args.hi
local plen = #prefix
local INF = math.huge

local function bound(x)
  if x == INF then return '+inf' elseif x == -INF then return '-inf' end
  return x
end

local found = {}       -- { score, id, level, attempts, record }: matches after the position, in the window
local seen = {}        -- { score, id } of every task read after the position, in the window
local in_window = 0
local F = INF          -- every task scored before F has been read
local read_upto        -- { score, id }: every task up to it has been read (a read in rank order knows that exactly)

-- one task read; answers whether it counts against the budget (after the position and in the window: a bucket
-- read again because it spans the position costs nothing, so every call gets on)
local function consider(score, id, level, attempts, record)
  if score < lo or score > hi then return false end
  if after_score and not pos_less(after_score, after_id, score, id) then return false end
  seen[#seen + 1] = { score, id }
  if plen == 0 or string.sub(id, 1, plen) == prefix then found[#found + 1] = { score, id, level, attempts, record } end
  return true
end

if state == 'scheduled' or state == 'due' then
  adopt_waiting_tasks(P, now)
  local from = lo
  if after_score and after_score > from then from = after_score end
  -- the buckets whose span reaches `from` and that start by `hi`, merged over the indexes by start
  local listed = {}
  local truncated_at = INF
  for _, ix in ipairs(WAITING_INDEXES) do
    local width = ix == 'cidx' and COARSE or W
    local first = from == -INF and -INF or from - width + 1
    local page = redis.call('ZRANGEBYSCORE', P .. ix, bound(first), bound(hi), 'WITHSCORES', 'LIMIT', 0, LISTED)
    for j = 1, #page, 2 do listed[#listed + 1] = { tonumber(page[j + 1]), page[j], width } end
    -- an index listed to its limit may hold more buckets from its last start on
    if #page == 2 * LISTED then truncated_at = math.min(truncated_at, tonumber(page[#page])) end
  end
  table.sort(listed, function(a, b) if a[1] ~= b[1] then return a[1] < b[1] end return a[2] < b[2] end)
  local read, counted, held = 0, 0, 0
  local stopped, progressed = false, false
  for k = 1, #listed do
    local start, name, width = listed[k][1], listed[k][2], listed[k][3]
    if start >= truncated_at then F = truncated_at; stopped = true break end
    -- the budget stops the read only between starts, and once a bucket starting after the position was read (the
    -- buckets spanning the position are read again each call), so that every call gets on
    if read >= budget and progressed and start > listed[k - 1][1] then F = start; stopped = true break end
    local flat = redis.call('HGETALL', P .. 'b:' .. name)
    local _, attempt, _, level = parse_name(name)
    if after_score == nil or start > after_score then progressed = true end
    for j = 1, #flat, 2 do
      local due, record = decode(name, flat[j + 1])
      if consider(due, flat[j], level, attempt - 1, record) then read = read + 1 end
    end
    -- stop once `limit` matches are sure: every task before the next bucket's start is read
    local next_start = listed[k + 1] and listed[k + 1][1] or truncated_at
    if #found >= limit then
      local sure = 0
      for _, f in ipairs(found) do if f[1] < next_start then sure = sure + 1 end end
      if sure >= limit then
        F = next_start
        stopped = k < #listed or truncated_at < INF
        if not stopped then F = INF end
        break
      end
    end
  end
  if not stopped and truncated_at < INF then F = truncated_at end
  -- in window: the state's tasks inside [lo, hi] (before the prefix filter), bucket by bucket
  for _, ix in ipairs(WAITING_INDEXES) do
    local width = ix == 'cidx' and COARSE or W
    if lo <= hi then
      local first = lo == -INF and -INF or lo - width + 1
      local names = redis.call('ZRANGEBYSCORE', P .. ix, bound(first), bound(hi), 'WITHSCORES', 'LIMIT', 0,
        math.max(0, MOST_COUNTED - counted))
      for j = 1, #names, 2 do
        local start = tonumber(names[j + 1])
        local key = P .. 'b:' .. names[j]
        if start >= lo and start + width - 1 <= hi then
          local size = redis.call('HLEN', key)
          in_window, held = in_window + size, held + size
        else
          local values = redis.call('HVALS', key)
          held = held + #values
          for _, value in ipairs(values) do
            local due = decode(names[j], value)
            if due >= lo and due <= hi then in_window = in_window + 1 end
          end
        end
      end
      counted = counted + #names / 2
      if counted >= MOST_COUNTED then
        local rest = redis.call('ZCOUNT', P .. ix, bound(first), bound(hi)) - #names / 2
        if rest > 0 then in_window = in_window + math.floor(rest * held / counted + 0.5) end
      end
    end
  end
elseif state == 'inflight' then
  local from = lo
  if after_score and after_score > from then from = after_score end
  local leases = redis.call('ZRANGEBYSCORE', P .. 'lease', bound(from), bound(hi), 'WITHSCORES', 'LIMIT', 0, LISTED)
  local read, progressed = 0, false
  for k = 1, #leases, 2 do
    local fname, expiry = leases[k], tonumber(leases[k + 1])
    -- as above: between leases, once one after the position was read (a claim's buckets share their lease)
    if read >= budget and progressed and expiry > tonumber(leases[k - 1]) then F = expiry break end
    if after_score == nil or expiry > after_score then progressed = true end
    local flat = redis.call('HGETALL', P .. 'f:' .. fname)
    local _, attempt, _, level = parse_name(fname)
    for j = 1, #flat, 2 do
      local _, record = decode(fname, flat[j + 1])
      if consider(expiry, flat[j], level, attempt, record) then read = read + 1 end
    end
  end
  if F == INF and #leases == 2 * LISTED then F = tonumber(leases[#leases]) end
  if lo <= hi then
    for _, fname in ipairs(redis.call('ZRANGEBYSCORE', P .. 'lease', bound(lo), bound(hi), 'LIMIT', 0, MOST_COUNTED)) do
      in_window = in_window + redis.call('HLEN', P .. 'f:' .. fname)
    end
  end
elseif state == 'dead' then
  -- as protocol 2's: by rank after the position (many dead letters can share a millisecond: a reclaim's bucket)
  local key = P .. 'dead'
  if lo <= hi then
    in_window = redis.call('ZCOUNT', key, bound(lo), bound(hi))
    local rank = lo > -INF and redis.call('ZCOUNT', key, '-inf', '(' .. lo) or 0
    if after_score then rank = math.max(rank, rank_after(key, after_score, after_id)) end
    local page = redis.call('ZRANGE', key, rank, rank + budget - 1, 'WITHSCORES')
    for k = 1, #page, 2 do
      local id, died = page[k], tonumber(page[k + 1])
      if died > hi then break end
      local attempts, record = string.match(redis.call('HGET', P .. 'dv', id) or '0|', '^(%d+)|(.*)$')
      consider(died, id, level_of_record(record), tonumber(attempts), record)
    end
    -- read to the budget without passing hi: complete up to the last one read, which rank order makes exact
    if #page == 2 * budget and tonumber(page[#page]) <= hi then
      F = tonumber(page[#page])
      read_upto = { F, page[#page - 1] }
    end
  end
else
  return redis.error_reply('ERR browse: unknown state ' .. tostring(state))
end

table.sort(found, function(x, y) return pos_less(x[1], x[2], y[1], y[2]) end)
-- the answer is complete up to the limit-th match, or else up to the greatest task read before F (every task before
-- F is read; (F - 1, '') when none was)
local complete = F == INF and #found <= limit
local frontier_s, frontier_id
if not complete then
  if #found >= limit and found[limit][1] < F then
    frontier_s, frontier_id = found[limit][1], found[limit][2]
  elseif read_upto then
    frontier_s, frontier_id = read_upto[1], read_upto[2]
    if #found > limit and pos_less(found[limit][1], found[limit][2], frontier_s, frontier_id) then
      frontier_s, frontier_id = found[limit][1], found[limit][2]
    end
  else
    frontier_s, frontier_id = F - 1, ''
    for _, t in ipairs(seen) do
      if t[1] < F and pos_less(frontier_s, frontier_id, t[1], t[2]) then frontier_s, frontier_id = t[1], t[2] end
    end
  end
end

local out = { now, in_window, complete and 1 or 0, complete and -1 or frontier_s, complete and '' or frontier_id, 0 }
local n = 0
for i = 1, #found do
  local f = found[i]
  if n >= limit or (not complete and pos_less(frontier_s, frontier_id, f[1], f[2])) then break end
  local record = f[5]
  n = n + 1
  out[#out + 1] = f[2]
  out[#out + 1] = f[1]
  out[#out + 1] = f[3]
  out[#out + 1] = f[4]
  out[#out + 1] = redis.call('HGET', P .. 'err', f[2])
  out[#out + 1] = record ~= '' and utf8_prefix(record, preview) -- a bare task has no record: false
  out[#out + 1] = record ~= '' and #record or -1
end
out[6] = n
return out
