'use strict';
// Protocol 3 (docs/protocol3.md: waiting tasks in buckets of one due window) as pure functions: the shard's key
// prefix, the id index's bucket, and the argument layouts of the p3/ scripts a producer calls. No I/O. Mirrors core's
// io.delayq.bucket.BucketLayout and BucketQueue. Their answers have protocol 2's shapes, read by protocol.js.
const protocol = require('./protocol');

const PROTOCOL_3 = 3;
/** Buckets of the id index per shard (`ix:<h>`): core's BucketLayout.ID_INDEX_BUCKETS. */
const ID_INDEX_BUCKETS = 2039;
/** Buckets a stats call reads at most; the rest count at the read ones' average fill (core's BucketQueue.COUNTED_BUCKETS). */
const COUNTED_BUCKETS = 10000;

/** The prefix every key of the shard starts with: KEYS[1] of every protocol-3 script. */
function prefix(queue, shard) {
  return `dq:{${queue}:${shard}}:`;
}

/** The id's bucket of the shard's id index, crc32(id) % 2039: the scripts take it from the caller. */
function indexBucket(id) {
  return protocol.crc32(Buffer.from(id, 'utf8')) % ID_INDEX_BUCKETS;
}

/** The reject policy has a short path of its own (p3/enqueue.lua); every other policy is p3/enqueue_policy.lua's. */
function enqueueScript(policy) {
  return policy === protocol.DuplicatePolicy.REJECT ? 'p3/enqueue' : 'p3/enqueue_policy';
}

/**
 * The enqueue's ARGV: the policy (not for reject), n, then per task id, ix bucket, timing, millis, record, level; then
 * the caller's layout epoch and where ("present": act only on ids the shard holds, the old shard during a migration).
 * A grouped task's record (the JSON form) names its group, which the scripts read from it (include/group_name.lua):
 * it waits in its group's buckets, with no argument of its own.
 */
function enqueueArgs(policy, tasks, enqueuedAt, epoch = 0, presentOnly = false) {
  const args = policy === protocol.DuplicatePolicy.REJECT ? [] : [policy];
  args.push(String(tasks.length));
  for (const t of tasks) {
    args.push(t.id, String(indexBucket(t.id)), t.timing, String(t.ms), protocol.encodeRecord(t.payload, enqueuedAt, t.priority, t.options),
      String(t.priority));
  }
  args.push(String(epoch), presentOnly ? 'present' : '');
  return args;
}

/**
 * The ARGV of cancel, reschedule and inspect: the id and its ix bucket, then the call's own (reschedule: timing, ms),
 * then the caller's layout epoch.
 */
function byIdArgs(id, rest, epoch = 0) {
  return [id, String(indexBucket(id)), ...rest, String(epoch)];
}

/**
 * The wire status of each by-id answer in protocol 2's words, which routing.js reads: p3/cancel.lua answers "absent"
 * where protocol 2's answers "unknown" (the next shard of the lookup order is tried).
 */
const statusOf = {
  ...protocol.statusOf,
  cancel: (reply) => (reply === 'absent' ? 'unknown' : reply),
};

module.exports = {
  PROTOCOL_3, ID_INDEX_BUCKETS, COUNTED_BUCKETS, prefix, indexBucket, enqueueScript, enqueueArgs, byIdArgs, statusOf,
};
