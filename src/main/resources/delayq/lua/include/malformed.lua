-- What a hand-written producer can get wrong that only a script can handle: ids and scores (the
-- claim must address a task by its exact bytes, and the worker's client decodes replies as UTF-8,
-- so an id that is not UTF-8 could never be acked or dead-lettered from Java), a record bucket or an
-- attempts field of the wrong type, and a record whose priority disagrees with its due set. The
-- claim dead-letters such a task where it finds it, with the reason, and reports it to the worker
-- (docs/protocol.md, "What the worker refuses"); malformed records are the worker's to judge.
local EARLIEST_DUE = 946684800000    -- 2000-01-01T00:00:00Z: a smaller score is almost surely seconds
local LATEST_DUE = 253402300799999   -- 9999-12-31T23:59:59.999Z, as io.delayq.task.Schedule.MAX_EPOCH_MILLIS
local LATEST_DUE_TEXT = '253402300799999' -- for commands: Lua would write the number as 2.534023008e+14
local MAX_ID_BYTES = 256             -- as io.delayq.task.TaskId.MAX_BYTES
local NOT_ASCII = '[\128-\255]'
local REPORTED_ID_BYTES = 128        -- how much of an id the claim hands back for the worker's log line

-- RFC 3629 UTF-8, as strict as Java's decoder (no overlong forms, no surrogates, nothing past
-- U+10FFFF): nil when valid, else what is wrong. ASCII ids, nearly all of them, take one C-level find.
local function utf8_problem(s)
  if not string.find(s, NOT_ASCII) then return nil end
  local i, n = 1, #s
  while i <= n do
    local c = byte(s, i)
    if c < 128 then
      i = i + 1
    else
      local len, lo, hi
      if c >= 194 and c <= 223 then len, lo, hi = 2, 128, 191
      elseif c == 224 then len, lo, hi = 3, 160, 191
      elseif c == 237 then len, lo, hi = 3, 128, 159
      elseif c >= 225 and c <= 239 then len, lo, hi = 3, 128, 191
      elseif c == 240 then len, lo, hi = 4, 144, 191
      elseif c >= 241 and c <= 243 then len, lo, hi = 4, 128, 191
      elseif c == 244 then len, lo, hi = 4, 128, 143
      else return string.format('byte 0x%02x at offset %d', c, i - 1) end
      if i + len - 1 > n then return 'truncated sequence at offset ' .. (i - 1) end
      for k = i + 1, i + len - 1 do
        local ck = byte(s, k)
        if ck < lo or ck > hi then return string.format('byte 0x%02x at offset %d', ck, k - 1) end
        lo, hi = 128, 191
      end
      i = i + len
    end
  end
  return nil
end

local function id_problem(id)
  local n = #id
  if n == 0 then return 'task id is empty (ids are 1 to 256 bytes of UTF-8)' end
  if n > MAX_ID_BYTES then return 'task id is ' .. n .. ' bytes long (ids are at most 256 bytes of UTF-8)' end
  local bad = utf8_problem(id)
  if bad then return 'task id is not valid UTF-8 (' .. bad .. ')' end
  return nil
end

-- `text` is the score as Redis wrote it (ZRANGEBYSCORE ... WITHSCORES), so the reason shows what the producer wrote.
local function score_problem(score, text)
  if score < EARLIEST_DUE then
    return 'due score ' .. text .. ' is not epoch milliseconds (before 2000-01-01; seconds instead of ms?)'
  end
  if score > LATEST_DUE then
    return 'due score ' .. text .. ' is not epoch milliseconds (after 9999-12-31)'
  end
  return nil
end

-- The record's priority must name the due set the task was found in (level 0..2). A value that is
-- not 0, 1 or 2, or a record that does not parse, is left to the worker, which names the field.
local function priority_problem(record, level)
  local p = 0
  if record and record ~= '' then
    local first = byte(record, 1)
    if first ~= 123 then -- compact: the level digit leads
      p = first - 48
      if p < 0 or p > 2 then return nil end
    elseif string.find(record, 'priority', 1, true) then
      local ok, decoded = pcall(cjson.decode, record)
      if not ok or type(decoded) ~= 'table' then return nil end
      local v = decoded['priority']
      if v ~= nil and v ~= cjson.null then
        p = tonumber(v)
        if p ~= 0 and p ~= 1 and p ~= 2 then return nil end
      end
    end
  end
  if p == level then return nil end
  return 'record priority ' .. p .. ' does not match the set the task was in (' .. DUE[level + 1] .. ', priority ' .. level .. ')'
end

-- A record bucket that exists with another type makes HGET fail: what to say instead.
local function bucket_problem(key)
  return 'record bucket ' .. key .. ' is a ' .. redis.call('TYPE', key)['ok'] .. ', not a hash'
end

local function attempts_problem(value)
  return 'attempts field in ' .. ATTEMPTS .. ' holds ' .. string.format('%q', string.sub(value, 1, 40)) .. ', not a number'
end

-- The id as lower-case hex (at most REPORTED_ID_BYTES of it): the only form that survives a reply
-- decoded as UTF-8 byte for byte.
local function id_hex(id)
  local n = math.min(#id, REPORTED_ID_BYTES)
  if n == 0 then return '' end
  return string.format(string.rep('%02x', n), byte(id, 1, n))
end
