-- One claim's round over the groups (docs/protocol.md, "Groups"), the same for both protocols: the groups the worker
-- holds permits for first (at most one task a permit), then a round robin over the ungrouped tasks (one more group of
-- weight 1) and the first MAX_GROUPS_PER_CLAIM groups whose turn has come, oldest turn first: each gets a share of the
-- room in proportion to its weight, at least one task, capped by its tokens (a per-group rate limit) and, for a group
-- capped at N running without permits, nothing; then what is left goes, in the same order, to those that filled their
-- share. Afterwards each group served gets its next turn (its head when not due yet, else now: behind the groups still
-- waiting; a blocked group's CAPPED_RETRY_MS on; a group out of tokens when its next token is in) and its token bucket.
-- How a group's tasks are found and taken is the protocol's, given as `io`:
--   io.plain_due()          whether ungrouped tasks of level 0 are due
--   io.take(g, skip, want)  takes up to `want` due tasks of group g (nil: the ungrouped ones); `skip`: how many of them
--                           this claim took already, for a protocol that leaves taken tasks in place until the end
--                           (protocol 2); answers how many it took
--   io.head(g)              group g's earliest waiting score after the claim, or nil when none waits
-- GROUPS: ZSET group -> turn; GROUP_RATE: HASH group -> "<tokens> <at ms>" (include/groups.lua). Pure but for those.
local MAX_GROUPS_PER_CLAIM = 100                 -- groups one claim looks at (it serves the rest on later claims)
-- A group at its cap of running tasks is looked at again by claims without its permits this long after one found it
-- blocked: the worker that was refused permits takes them as soon as one of its own tasks of the group settles, other
-- workers on their next look.
local CAPPED_RETRY_MS = 100

local function group_round(GROUPS, GROUP_RATE, io)
  local joined, order = {}, {}    -- group -> {taken, tokens, unserved, blocked}; the groups in the order they joined
  local wanted = {}               -- group, tasks, ...: the blocked groups and how many tasks each would have got

  local function join(g)
    local s = joined[g]
    if s == nil then
      s = { taken = 0 }
      joined[g] = s
      order[#order + 1] = g
    end
    return s
  end

  -- a token bucket "<tokens> <at>" (absent: full) refilled until now
  local function refill(text, now, rate, burst)
    local tokens, at = string.match(text or '', '^(%S+) (%S+)$')
    tokens, at = tonumber(tokens) or burst, tonumber(at) or now
    return math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
  end

  -- "g=3,h=2" -> {g = 3, h = 2}, and the groups in their order: weights whose value is not 1, or permits
  -- (the worker checked names and bounds)
  local function parse_counts(text)
    local counts, names = {}, {}
    for g, w in string.gmatch(text or '', '([^,=]+)=(%d+)') do
      counts[g] = tonumber(w)
      names[#names + 1] = g
    end
    return counts, names
  end

  -- "*": every group is capped; "g,h": these groups; "" or nil: none (include/group_permits.lua counts them)
  local function parse_capped(text)
    local capped = {}
    if text == '*' then return capped, true end
    for g in string.gmatch(text or '', '[^,]+') do capped[g] = true end
    return capped, false
  end

  -- the groups the worker holds permits for, before any turn: at most one due task per permit (a permit not used here
  -- goes back at once); their turns do not matter, the permits were taken for them
  local function permitted(room, now, rate, burst, permits, names)
    for _, g in ipairs(names) do
      if room <= 0 then break end
      local s = join(g)
      local limit = math.min(permits[g], room)
      if rate > 0 then
        s.tokens = refill(redis.call('HGET', GROUP_RATE, g), now, rate, burst)
        limit = math.min(limit, math.floor(s.tokens))
      end
      if limit > 0 then
        s.taken = io.take(g, 0, limit)
        room = room - s.taken
      end
    end
    return room
  end

  -- rate, burst: the per-group limit for this shard (0 = none); capped_text, permits_text: the groups capped at N
  -- running fleet-wide and the permits the worker holds for them (as protocol 2's claim.lua ARGV[10], ARGV[11])
  local function fair(room, now, rate, burst, weights_text, capped_text, permits_text)
    if room <= 0 then return end
    local weights = parse_counts(weights_text)
    local capped, all_capped = parse_capped(capped_text)
    local permits, permit_names = parse_counts(permits_text)
    room = permitted(room, now, rate, burst, permits, permit_names)
    if room <= 0 then return end
    local parts, caps, weight_of = {}, {}, {}   -- parts[k]: a group, or false for the ungrouped tasks
    if io.plain_due() then parts[1], caps[1], weight_of[1] = false, room, 1 end
    local due_groups = redis.call('ZRANGEBYSCORE', GROUPS, '-inf', now, 'LIMIT', 0, math.min(room, MAX_GROUPS_PER_CLAIM))
    local buckets = {}
    if rate > 0 and #due_groups > 0 then buckets = redis.call('HMGET', GROUP_RATE, unpack(due_groups)) end
    for k, g in ipairs(due_groups) do
      if not permits[g] then
        local s = join(g)
        local cap = room
        if rate > 0 then
          s.tokens = refill(buckets[k], now, rate, burst)
          cap = math.floor(s.tokens)
        end
        if all_capped or capped[g] then
          s.blocked = true
          cap = 0
        end
        parts[#parts + 1], caps[#parts + 1], weight_of[#parts + 1] = g, cap, weights[g] or 1
      end
    end
    if #parts == 0 then return end
    local total = 0
    for k = 1, #parts do total = total + weight_of[k] end
    local share, got = {}, {}
    for k = 1, #parts do share[k] = math.max(1, math.floor(room * weight_of[k] / total)) end
    for k, g in ipairs(parts) do
      local want = math.min(share[k], caps[k], room)
      got[k] = 0
      if g and want == 0 and caps[k] > 0 then joined[g].unserved = true end
      if g and joined[g].blocked and room > 0 then
        wanted[#wanted + 1] = g
        wanted[#wanted + 1] = math.min(share[k], room)
      end
      if want > 0 then
        got[k] = io.take(g or nil, 0, want)
        room = room - got[k]
      end
    end
    for k, g in ipairs(parts) do
      if room <= 0 then break end
      local want = math.min(room, caps[k] - got[k])
      if got[k] == share[k] and want > 0 then
        local more = io.take(g or nil, got[k], want)
        room = room - more
        got[k] = got[k] + more
      end
    end
    for k, g in ipairs(parts) do
      if g then joined[g].taken = got[k] end
    end
  end

  -- every group joined: its next turn and token bucket
  local function after(now, rate)
    local buckets = {}
    for _, g in ipairs(order) do
      local s = joined[g]
      -- a group the claim's room ran out before keeps its turn: first in line next time
      if not s.unserved then
        local head = io.head(g)
        local tokens = s.tokens
        if tokens then
          tokens = tokens - s.taken
          buckets[#buckets + 1] = g
          buckets[#buckets + 1] = tokens .. ' ' .. now
        end
        if not head then
          redis.call('ZREM', GROUPS, g)
        else
          local turn = math.max(head, s.blocked and now + CAPPED_RETRY_MS or now)
          if tokens and tokens < 1 and turn <= now then
            turn = now + math.ceil((1 - tokens) * 1000 / rate)
          end
          redis.call('ZADD', GROUPS, turn, g)
        end
      end
    end
    if #buckets > 0 then redis.call('HSET', GROUP_RATE, unpack(buckets)) end
  end

  return { fair = fair, after = after, join = join, wanted = function() return wanted end }
end
