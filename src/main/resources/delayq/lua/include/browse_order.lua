-- Browsing in (score, id) order, for protocol 2's browse.lua and protocol 3's p3/browse.lua alike. Needs `byte`
-- (string.byte).

-- Byte order of two ids, as Redis sorts equal scores (Lua's < on strings follows the locale).
local function id_less(a, b)
  local n = math.min(#a, #b)
  local i = 1
  while i <= n do
    local x, y = byte(a, i), byte(b, i)
    if x ~= y then return x < y end
    i = i + 1
  end
  return #a < #b
end

local function pos_less(s1, id1, s2, id2)
  if s1 ~= s2 then return s1 < s2 end
  return id_less(id1, id2)
end

-- First rank of `key` after the position: O(log n) ZCOUNTs, plus a binary search over the ids that
-- share the position's score (a million tasks due in the same millisecond costs ~20 ZRANGEs).
local function rank_after(key, score, id)
  local before = redis.call('ZCOUNT', key, '-inf', '(' .. score)
  local same = redis.call('ZCOUNT', key, score, score)
  if same == 0 then return before end
  local s = redis.call('ZSCORE', key, id)
  if s and tonumber(s) == score then return redis.call('ZRANK', key, id) + 1 end
  local a, b = before, before + same
  while a < b do
    local mid = math.floor((a + b) / 2)
    local m = redis.call('ZRANGE', key, mid, mid)[1]
    if id_less(id, m) then b = mid else a = mid + 1 end
  end
  return a
end

-- The first `max` bytes of s, backed off so that no UTF-8 character is cut (continuation bytes are 10xxxxxx).
local function utf8_prefix(s, max)
  if #s <= max then return s end
  local cut = max
  while cut > 0 and cut > max - 3 and byte(s, cut + 1) >= 0x80 and byte(s, cut + 1) < 0xC0 do cut = cut - 1 end
  return string.sub(s, 1, cut)
end

-- The arguments both browse scripts take (ARGV[1..9], browse.lua's header), read against the server's `now`: the
-- state, the position, the window (narrowed to the future for 'scheduled', to the past for 'due'), the id prefix,
-- the limit, the scan budget (capped at max_read) and the preview's bytes.
local function browse_args(now, max_read)
  local a = {
    state = ARGV[1], after_score = tonumber(ARGV[2]), after_id = ARGV[3],
    lo = tonumber(ARGV[4]) or -math.huge, hi = tonumber(ARGV[5]) or math.huge,
    prefix = ARGV[6], limit = tonumber(ARGV[7]), budget = math.min(tonumber(ARGV[8]), max_read), preview = tonumber(ARGV[9]),
  }
  if a.state == 'scheduled' then a.lo = math.max(a.lo, now + 1) elseif a.state == 'due' then a.hi = math.min(a.hi, now) end
  return a
end
