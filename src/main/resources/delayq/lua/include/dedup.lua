-- Dedup windows: "refuse this id for a while after its task was settled" (protocol.md, "Dedup windows").
-- DEDUP (include/shard_keys.lua) holds, per id whose task carries a window, minus the window's length while the task
-- exists, and the window's end (ms, server clock) once the task was acked, cancelled or dead-lettered. Settling scripts
-- call dedup_settle with the ids they settled; it also ages out windows that ended, a bounded number per call, so
-- the set stays as large as the windows still running (no sweeper).

-- the longest window (and debounce wait), ms: TaskOptions.MAX_WINDOW_MS
local DEDUP_MAX_MS = 30 * 86400000

-- Starts the windows of settled tasks that carry one. A queue that never used windows pays the ZCARD alone.
-- now: the server clock (nil: read here, only when windows exist).
local function dedup_settle(ids, now)
  if #ids == 0 or redis.call('ZCARD', DEDUP) == 0 then return end
  now = now or server_now()
  -- one id (cancel, dead-lettering): ZSCORE, which the console's ACL user has (docs/security.md); a batch: ZMSCORE
  local scores = #ids == 1 and { redis.call('ZSCORE', DEDUP, ids[1]) } or redis.call('ZMSCORE', DEDUP, unpack(ids))
  local starts = {}
  for i = 1, #ids do
    local s = tonumber(scores[i])
    if s and s < 0 then
      starts[#starts + 1] = now - s
      starts[#starts + 1] = ids[i]
    end
  end
  if #starts > 0 then redis.call('ZADD', DEDUP, unpack(starts)) end
  -- windows that ended (scores 0..now; the pending ones are below 0): at most a few more than this call started
  local ended = redis.call('ZRANGEBYSCORE', DEDUP, 0, now, 'LIMIT', 0, #ids + 8)
  if #ended > 0 then redis.call('ZREM', DEDUP, unpack(ended)) end
end

-- The window length a record carries (JSON field dedupWindowMs, 1 ms .. 30 days), or nil.
local function window_of(record)
  if not record or byte(record, 1) ~= 123 or not string.find(record, '"dedupWindowMs"', 1, true) then return nil end
  local ok, decoded = pcall(cjson.decode, record)
  local w = ok and type(decoded) == 'table' and tonumber(decoded.dedupWindowMs)
  if w and w >= 1 and w <= DEDUP_MAX_MS then return math.floor(w) end
  return nil
end

-- A task just scheduled with this record: its window waits for its settle (a negative score: the length), and a
-- record without one that replaced one that had it (`replacing`: the set holds windows and the id had a task) leaves
-- no window behind. A new task without a window writes nothing (an ended window of its id is aged out later): so a
-- producer's reject-mode enqueue needs no ZREM.
local function note_window(id, record, replacing)
  local w = window_of(record)
  if w then
    redis.call('ZADD', DEDUP, -w, id)
  elseif replacing then
    redis.call('ZREM', DEDUP, id)
  end
end
