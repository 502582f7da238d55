-- Every shard script receives the same ten KEYS, in this order, all inside the hash tag {queue:shard}
-- so that a script touches exactly one Redis Cluster slot. The Java side builds them in ShardKeys.
local DUE = { KEYS[1], KEYS[2], KEYS[3] }   -- due sets by priority level 0 (normal), 1, 2 (highest)
local INFLIGHT = KEYS[4]                   -- ZSET id -> lease expiry ms (the fencing token)
local TASKS = KEYS[5]                      -- HASH id -> JSON record
local ATTEMPTS = KEYS[6]                   -- HASH id -> attempts so far (counted at claim)
local ERRORS = KEYS[7]                     -- HASH id -> last error text
local DEAD = KEYS[8]                       -- ZSET id -> time it died
local MARKER = KEYS[9]                     -- ZSET wake-up marker: member "next", score = earliest new due time
local RATE = KEYS[10]                      -- HASH token bucket (tokens, at) for the optional rate limit
