-- Every shard script receives the same ten KEYS, in this order, all inside the hash tag {queue:shard}
-- so that a script touches exactly one Redis Cluster slot. The Java side builds them in ShardKeys.
local DUE = { KEYS[1], KEYS[2], KEYS[3] }   -- due sets by priority level 0 (normal), 1, 2 (highest)
local INFLIGHT = KEYS[4]                   -- ZSET id -> lease expiry ms (the fencing token)
local TASKS = KEYS[5]                      -- prefix of the record hashes TASKS:<b>, b = bucket of the id
                                           -- (record_key in common.lua); the key named TASKS itself is never written
local ATTEMPTS = KEYS[6]                   -- HASH id -> attempts that ended without an ack (retry, lease
                                           -- expiry, dead-lettering); a claim hands out that + 1, an ack deletes it
local ERRORS = KEYS[7]                     -- HASH id -> last error text
local DEAD = KEYS[8]                       -- ZSET id -> time it died
local MARKER = KEYS[9]                     -- ZSET wake-up marker: member "next", score = earliest new due time
local RATE = KEYS[10]                      -- HASH token bucket (tokens, at) for the optional rate limit

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
