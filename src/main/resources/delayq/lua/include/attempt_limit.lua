-- A task's own attempt limit (the per-task option maxAttempts), read from its record on the rare paths that must
-- judge it without the worker (an expired lease): protocol 2's reclaim.lua and protocol 3's p3/reclaim.lua.
-- The limit a JSON record names when valid (1..1000; the compact form carries no options), else `default`.
local function attempt_limit_of(record, default)
  if type(record) ~= 'string' or string.byte(record, 1) ~= 123 or not string.find(record, '"maxAttempts"', 1, true) then
    return default
  end
  local ok, decoded = pcall(cjson.decode, record)
  local n = ok and type(decoded) == 'table' and tonumber(decoded.maxAttempts)
  if n and n >= 1 and n <= 1000 then return math.floor(n) end
  return default
end
