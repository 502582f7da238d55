'use strict';
// The script calls a producer makes on one shard, for each protocol a queue's meta may record: which script, its KEYS
// and ARGV ({script, keys, args}), and how a by-id answer's status reads. Both protocols answer in protocol 2's shapes,
// so routing.js and protocol.js's parsers serve both; core routes the same way (QueueProtocol, TaskAdmin and
// StatsReader send a queue recorded as protocol 3 through BucketQueue).
const protocol = require('./protocol');
const p3 = require('./protocol3');

/** Protocol 2: every script takes the shard's ten keys; the id-addressed ones also the caller's layout epoch. */
const PROTOCOL_2_CALLS = Object.freeze({
  version: protocol.PROTOCOL_VERSION,
  /** presentOnly: act only on ids the shard holds (the old shard during a migration). */
  enqueue: (queue, shard, policy, batch, enqueuedAt, epoch, presentOnly) => ({
    script: 'enqueue', keys: protocol.shardKeys(queue, shard), args: protocol.enqueueArgs(policy, batch, enqueuedAt, epoch, presentOnly),
  }),
  /** name: cancel, reschedule or inspect; rest: its arguments after the id. */
  byId: (queue, shard, name, id, rest, epoch) => ({ script: name, keys: protocol.shardKeys(queue, shard), args: [id, ...rest, String(epoch)] }),
  stats: (queue, shard) => ({ script: 'stats', keys: protocol.shardKeys(queue, shard), args: [] }),
  statusOf: protocol.statusOf,
});

/**
 * Protocol 3: the p3/ scripts on the shard's key prefix, given each id's index bucket; the caller's layout epoch (and
 * "present" on an old shard during a migration) as protocol 2's, whose answers LAYOUT, absent and moving they share.
 */
const PROTOCOL_3_CALLS = Object.freeze({
  version: p3.PROTOCOL_3,
  enqueue: (queue, shard, policy, batch, enqueuedAt, epoch, presentOnly) => ({
    script: p3.enqueueScript(policy), keys: [p3.prefix(queue, shard)], args: p3.enqueueArgs(policy, batch, enqueuedAt, epoch, presentOnly),
  }),
  byId: (queue, shard, name, id, rest, epoch) => ({
    script: `p3/${name}`, keys: [p3.prefix(queue, shard)], args: p3.byIdArgs(id, rest, epoch),
  }),
  stats: (queue, shard) => ({ script: 'p3/stats', keys: [p3.prefix(queue, shard)], args: [String(p3.COUNTED_BUCKETS)] }),
  statusOf: p3.statusOf,
});

const BY_VERSION = new Map([PROTOCOL_2_CALLS, PROTOCOL_3_CALLS].map((calls) => [calls.version, calls]));

/** The calls of a protocol this library speaks, or undefined. */
const callsOf = (version) => BY_VERSION.get(version);

/**
 * The protocols this library speaks on a queue whose meta records them; new queues are recorded as protocol 3 unless
 * asked for 2 (the client's protocolForNewQueues, or DELAYQ_PROTOCOL).
 */
const SPOKEN = Object.freeze([...BY_VERSION.keys()]);

module.exports = { PROTOCOL_2_CALLS, PROTOCOL_3_CALLS, callsOf, SPOKEN };
