-- Debounce (protocol.md, "Dedup windows and debounce"): a burst of enqueues of one id keeps one task, due at the
-- last one's time but no later than the burst's deadline (its first enqueue + the record's debounceMaxWaitMs), written
-- into the stored record. For protocol 2's enqueue.lua and protocol 3's p3/enqueue_policy.lua alike; needs `byte` and
-- include/dedup.lua (DEDUP_MAX_MS).

-- the maximum wait a record carries (JSON debounceMaxWaitMs, 1 ms .. 30 days), or nil
local function max_wait_of(record)
  local w = byte(record, 1) == 123 and tonumber(string.match(record, '"debounceMaxWaitMs":%s*(%d+)[,}%s]'))
  if w and w >= 1 and w <= DEDUP_MAX_MS then return w end
  return nil
end

-- The record with the burst's deadline written in (a JSON object: max_wait_of checked it).
local function with_deadline(record, deadline)
  return '{"debounceDeadline":' .. string.format('%d', deadline) .. ',' .. string.sub(record, 2)
end

-- The deadline a stored record's burst fixed, or nil (a task enqueued in another mode starts a burst now).
local function deadline_of(stored)
  return stored and tonumber(string.match(stored, '^{"debounceDeadline":(%d+),'))
end
