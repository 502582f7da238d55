'use strict';
// The errors delayq raises on purpose. Names and messages are those of the Java client
// (io.delayq.*Exception), so that logs and runbooks read the same in every language.

class DelayQueueException extends Error {
  constructor(message) {
    super(message);
    this.name = this.constructor.name;
  }
}

/** Bad input, named by the field and the rule it broke; nothing was written to Redis. */
class InvalidInputException extends DelayQueueException {
  constructor(field, rule) {
    super(`${field}: ${rule}`);
    this.field = field;
    this.rule = rule;
  }
}

/**
 * The client is configured with a shard count the queue in Redis never had: writing would put tasks where no
 * worker looks. A count the queue had before a reshard is not refused (the client follows the layout in Redis),
 * so the message names the current count and the one way the count changes.
 */
class ShardCountMismatchException extends DelayQueueException {
  constructor(queue, configured, recorded) {
    super(`shards: queue '${queue}' has ${recorded} shards in Redis (dq:{${queue}}:meta) and never had ${configured}, `
      + `the count this client is configured with; use ${recorded} (or a count the queue had before a reshard): `
      + "the client reads the queue's layout from Redis and follows it, and the count changes only through a "
      + `reshard (delayq reshard ${queue} --to N)`);
    Object.assign(this, { queue, configured, recorded });
  }
}

/** The queue in Redis was written by a delayq of another protocol version. */
class ProtocolVersionMismatchException extends DelayQueueException {
  constructor(queue, supported, recorded) {
    super(`protocol: queue '${queue}' uses delayq protocol version ${recorded} in Redis, this client speaks version ${supported}; `
      + 'the key layout and record format differ between versions, so every producer and worker of a queue must speak the same one');
    Object.assign(this, { queue, supported, recorded });
  }
}

/** An enqueue reached the primary, but fewer replicas than required confirmed it in time; retrying is safe. */
class ReplicaAckException extends DelayQueueException {
  constructor(shard, results, required, acknowledged, timeoutMs) {
    super(`enqueue of ${results.length} task(s) on shard ${shard} reached the primary, but only ${acknowledged} of the ${required} `
      + `required replica(s) acknowledged it within ${timeoutMs} ms (replicaAcks): it may be lost if the primary fails now; `
      + 'retrying is safe, ids are deduplicated');
    Object.assign(this, { shard, results, required, acknowledged });
  }
}

/**
 * An id-addressed operation could not settle on a layout in time: the layout kept changing, or a task stayed "moving"
 * (a migration whose mover is not running). Safe to retry: nothing was written.
 */
class LayoutChangedException extends DelayQueueException {}

/** A stored record that does not follow the protocol (a worker dead-letters such a task). */
class MalformedRecordException extends DelayQueueException {}

module.exports = {
  DelayQueueException,
  InvalidInputException,
  ShardCountMismatchException,
  ProtocolVersionMismatchException,
  ReplicaAckException,
  MalformedRecordException,
  LayoutChangedException,
};
