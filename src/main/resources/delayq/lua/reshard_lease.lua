-- reshard_lease: take, renew or give back the queue's mover lease, so that one mover at a time drives a
-- migration (or checks the layout) and another one (a second `delayq reshard`, another operator replica) takes
-- over only once the holder stopped renewing: a crashed mover is resumed by the next one.
-- The lease is the meta field `mover` = "<expires at, server ms> <holder>", judged on Redis's clock (TIME), so
-- clock skew between the movers' machines cannot shorten or stretch it; a meta field rather than a key with a
-- TTL, so that the ACL users that already write the meta hash (HGET, HSET, HDEL) can hold it.
-- KEYS[1]: dq:{queue}:meta
-- ARGV[1]: "take" (free, run out, or already the caller's), "renew" (only while the field still names the caller:
--          a mover taken over, even by one that has finished and given the lease back, must learn that it lost it)
--          or "give-back"; ARGV[2]: holder (non-empty, no newline); ARGV[3]: lease ms (> 0 for take and renew)
-- Returns: {1, holder, ms left} when the caller holds it now (give-back: {1, holder, 0}),
--          {0, holder, ms left} when another holder has it (for renew: {0, "", 0} when nobody has it); nothing
--          is written then, and giving back someone else's lease changes nothing either
local mode, holder, ms = ARGV[1], ARGV[2], tonumber(ARGV[3])
if (mode ~= 'take' and mode ~= 'renew' and mode ~= 'give-back') or holder == '' or string.find(holder, '\n')
    or (mode ~= 'give-back' and (ms == nil or ms <= 0)) then
  return redis.error_reply('RESHARD lease: mode must be take, renew or give-back, holder non-empty text without newlines, ' ..
    'and the lease ms > 0; got ' .. tostring(mode) .. ', "' .. holder .. '", ' .. tostring(ARGV[3]))
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local current = redis.call('HGET', KEYS[1], 'mover')
local expires, who = 0, nil
if current then
  local e, w = string.match(current, '^(%d+) (.*)$')
  expires, who = tonumber(e) or 0, w
end
if mode == 'give-back' then
  if who == holder then redis.call('HDEL', KEYS[1], 'mover') end
  return { 1, holder, 0 }
end
if mode == 'renew' and who ~= holder then
  return { 0, who or '', math.max(0, expires - now) }
end
if who ~= nil and who ~= holder and expires > now then
  return { 0, who, expires - now }
end
redis.call('HSET', KEYS[1], 'mover', string.format('%d', now + ms) .. ' ' .. holder)
return { 1, holder, ms }
