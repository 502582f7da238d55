-- Protocol 2's record hash of a task id, also for protocol 3, which adopts protocol 2's tasks (p3/include/legacy.lua).
local byte = string.byte
-- Records live in TASK_BUCKETS small hashes per shard, not one big one: Redis keeps a hash of at most
-- hash-max-listpack-entries (512) entries with values of at most hash-max-listpack-value (64) bytes as
-- one compact listpack (~20 B per entry instead of ~70 B of hash-table entry). 2039 buckets hold a
-- shard of 250,000 waiting tasks at ~123 per bucket (fullest ~1.3x that), so a shard can grow to
-- ~700,000 before buckets start turning into hash tables; fewer, fuller buckets would make every
-- listpack lookup (a linear scan) slower. A prime count spreads sequential ids ("order-1", "order-2",
-- ...) evenly: with 2048 the low bits of the id hash repeat and the fullest bucket held ~1.9x the mean.
-- The bucket keys share the shard's hash tag, so they sit in the shard's Cluster slot (Redis 7 lets a
-- script touch undeclared keys of its own slot). Mirrored in Java by io.delayq.shard.RecordBuckets.
local TASK_BUCKETS = 2039

-- The record hash of a task: TASKS:<b>, b = h mod TASK_BUCKETS where h = (h * 31 + byte) mod 2^24
-- over the id's UTF-8 bytes. Every intermediate stays below 2^29, exact in Lua's doubles and cheap
-- to write in any language (producers that write records by hand compute the same key). It runs
-- once or twice per task per script, so it is kept cheap: five bytes per string.byte call (the same
-- h: five steps folded into one, 31^5 = 28629151, every term still below 2^50 and exact), no table
-- per call, and each bucket's key string built once per script call.
local function record_bucket(id)
  local h, n, i = 0, #id, 1
  while i + 4 <= n do
    local a, b, c, d, e = byte(id, i, i + 4)
    h = (h * 28629151 + a * 923521 + b * 29791 + c * 961 + d * 31 + e) % 16777216
    i = i + 5
  end
  while i <= n do
    h = (h * 31 + byte(id, i)) % 16777216
    i = i + 1
  end
  return h % TASK_BUCKETS
end
