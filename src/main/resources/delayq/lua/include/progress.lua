-- A handler's progress report (protocol.md, "Progress"), for protocol 2's progress.lua and protocol 3's
-- p3/progress.lua alike: "<server ms>|<percent>|<note>", or an error reply naming the argument out of bounds.
-- Needs server_now.
local function progress_value(percent_text, note)
  local percent = tonumber(percent_text)
  if not percent or percent ~= percent or percent < 0 or percent > 100 then
    return nil, redis.error_reply('ERR progress percent: must be a number from 0 to 100, was ' .. tostring(percent_text))
  end
  if #note > 200 then
    return nil, redis.error_reply('ERR progress note: must be at most 200 bytes of UTF-8, was ' .. #note .. ' bytes')
  end
  return server_now() .. '|' .. percent_text .. '|' .. note
end
