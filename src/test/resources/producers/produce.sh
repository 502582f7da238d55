#!/usr/bin/env bash
# A delayq producer with nothing but bash, gzip and redis-cli, following docs/protocol.md.
# usage: produce.sh PORT QUEUE SHARDS < tasks
# Each input line: id <TAB> due time in epoch ms <TAB> priority level (0..2) <TAB> JSON record
# An empty record means "store only the id": a bare ZADD into the shard's due set.
# Prints one line per task: "added", "duplicate" or "bare".
set -euo pipefail
port=$1 queue=$2 shards=$3

# CRC-32/IEEE of the id's bytes: the gzip trailer holds it (little-endian) in its first 4 bytes.
crc32() { printf '%s' "$1" | gzip -c | tail -c 8 | od -An -N4 -tu4 | tr -d ' \n'; }

# The record hash of the id within its shard (protocol 2): h = (h * 31 + byte) mod 2^24 over the
# id's UTF-8 bytes, bucket = h mod 2039.
bucket() {
  local h=0 b
  for b in $(printf '%s' "$1" | od -An -v -tu1); do h=$(( (h * 31 + b) % 16777216 )); done
  echo $(( h % 2039 ))
}

recorded=$(redis-cli -p "$port" HGET "dq:{$queue}:meta" shards)
if [ "$recorded" != "$shards" ]; then
  echo "queue $queue has '$recorded' shards in Redis, not $shards" >&2
  exit 2
fi
protocol=$(redis-cli -p "$port" HGET "dq:{$queue}:meta" protocol)
if [ "$protocol" != 2 ]; then
  echo "queue $queue speaks delayq protocol '$protocol', this producer writes protocol 2" >&2
  exit 2
fi

# The enqueue script of docs/protocol.md: refuses an existing id, else record + due time + marker, atomically.
enqueue="if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 or redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[4], 'LT', ARGV[3], 'next')
return 1"

while IFS=$'\t' read -r id due level record; do
  shard=$(( $(crc32 "$id") % shards ))
  k="dq:{$queue:$shard}"
  due_key="$k:due"
  if [ "$level" != 0 ]; then due_key="$k:due:p$level"; fi
  if [ -z "$record" ]; then
    redis-cli -p "$port" ZADD "$k:due" "$due" "$id" >/dev/null
    echo bare
  else
    added=$(redis-cli -p "$port" EVAL "$enqueue" 4 "$k:tasks:$(bucket "$id")" "$k:due" "$due_key" "$k:marker" "$id" "$record" "$due")
    if [ "$added" = 1 ]; then echo added; else echo duplicate; fi
  fi
done
