-- promotion: coarse buckets whose minute starts by `horizon` are split into the due windows of their tasks;
-- index entries hold due times, which do not change, so nothing per task is written but the task itself.
-- Returns the tasks moved.
local function promote(P, now, horizon, most)
  local coarse = redis.call('ZRANGEBYSCORE', P .. 'cidx', '-inf', horizon, 'LIMIT', 0, most)
  local moved = 0
  for _, name in ipairs(coarse) do
    local bkey = P .. 'b:' .. name
    local _, attempt, _, level, group = parse_name(name)
    local flat = redis.call('HGETALL', bkey)
    local windows = {}
    for j = 1, #flat, 2 do
      local due, record = decode(name, flat[j + 1])
      local start = due - due % W
      local g = windows[start]
      if g == nil then g = {}; windows[start] = g end
      g[#g + 1] = flat[j]
      g[#g + 1] = b36(due - start, FW) .. record
    end
    for start, g in pairs(windows) do
      local target = bucket_for(P, base_of(start, false, attempt, level, group), #g / 2)
      redis.call('HSET', P .. 'b:' .. target, unpack(g))
      list_bucket(target, start, false, level, group)
      moved = moved + #g / 2
    end
    redis.call('DEL', bkey)
    redis.call('HDEL', P .. 'open', string.match(name, '^(.*):%d+$'))
  end
  if #coarse > 0 then redis.call('ZREM', P .. 'cidx', unpack(coarse)) end
  write_placed(P)
  return moved
end
