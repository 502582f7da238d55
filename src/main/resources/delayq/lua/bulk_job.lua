-- bulk_job: writes a bulk job's record and its retention in one call (docs/protocol.md, "Bulk actions"). A job that
-- ended (done, or stopped) is kept for a while and then expires; a running one never expires, so a job that is
-- resumed loses the expiry its stop gave it in the same call that marks it running.
-- KEYS[1]: the job, dq:{q}:bulk:<job> (HASH)
-- KEYS[2]: the queue's jobs, dq:{q}:bulk (ZSET id -> creation ms)
-- ARGV[1]: 'create' (a new job: written and listed) | 'update' (written only while the job is still there)
-- ARGV[2]: how long the record is kept from now, in ms (> 0), or 'running' (kept until it ends), or 'keep' (as it is)
-- ARGV[3]: job id; ARGV[4]: creation ms (create; else ignored)
-- ARGV[5..]: field, value, field, value ...
-- Returns 1, or 0 when an update found no job (it expired or was deleted): nothing written, so an expired job is
-- never brought back as a fragment
local mode, keep = ARGV[1], ARGV[2]
if mode ~= 'create' and mode ~= 'update' then return redis.error_reply('ERR bulk_job: mode must be create or update') end
if #ARGV < 6 or #ARGV % 2 ~= 0 then return redis.error_reply('ERR bulk_job: fields must come in pairs') end
local ttl = tonumber(keep)
if keep ~= 'running' and keep ~= 'keep' and not (ttl and ttl > 0 and ttl == math.floor(ttl)) then
  return redis.error_reply('ERR bulk_job: retention must be ms > 0, running or keep')
end
if mode == 'update' and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
if mode == 'create' then redis.call('ZADD', KEYS[2], tonumber(ARGV[4]), ARGV[3]) end
if ttl then
  redis.call('PEXPIRE', KEYS[1], ttl)
elseif keep == 'running' then
  redis.call('PERSIST', KEYS[1])
end
return 1
