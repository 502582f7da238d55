'use strict';
// A queue's shard layout as its meta hash records it, and where an id-addressed operation must look
// (docs/protocol.md, "Layouts and resharding"). Pure: mirrors core's io.delayq.layout.Layout.
const { shardOf } = require('./protocol');
const { PROTOCOL_3 } = require('./protocol3');
const { SPOKEN } = require('./shard-calls');
const { ShardCountMismatchException, ProtocolVersionMismatchException } = require('./errors');

const int = (v) => (v === null || v === undefined || v === '' ? 0 : Number(v));

class Layout {
  /**
   * epoch: 0 for a queue never resharded, +1 when a migration starts, +1 again when it ends; shards: the current count
   * (during a migration already the new one); from: 0 outside a migration, else the count it grows from; history:
   * every count the queue had, oldest first.
   */
  constructor(epoch, shards, from, history) {
    Object.assign(this, { epoch, shards, from, history: Object.freeze([...history]) });
    Object.freeze(this);
  }

  static initial(shards) {
    return new Layout(0, shards, 0, [shards]);
  }

  /** meta.lua's reply: [shards, protocol, layout epoch, layouts ("4,16"), migration ("4 16"), moved, left]. */
  static fromMeta(reply) {
    const shards = int(reply[0]);
    const layouts = reply[3] ? String(reply[3]) : '';
    const migration = reply[4] ? String(reply[4]).trim() : '';
    const history = layouts.split(',').filter((n) => n.trim() !== '').map(Number);
    return new Layout(int(reply[2]), shards, migration ? Number(migration.split(/\s+/)[0]) : 0, history.length ? history : [shards]);
  }

  get migrating() {
    return this.from > 0;
  }

  /** The id's shard in this layout (the new one during a migration). */
  shardOf(id) {
    return shardOf(id, this.shards);
  }

  /** During a migration, the shard an enqueue asks first with "present only"; -1 when there is none. */
  oldShardOf(id) {
    if (!this.migrating) return -1;
    const old = shardOf(id, this.from);
    return old === this.shardOf(id) ? -1 : old;
  }

  /**
   * The shards a cancel, reschedule or inspect tries, in order; the first that holds the id answers. During a
   * migration the old shard, then the new one; always then the id's shard under every earlier count (what a stale
   * hand-written producer, or a task in flight during the move, left behind).
   */
  lookupOrder(id) {
    const counts = [...(this.migrating ? [this.from] : []), this.shards, ...[...this.history].reverse()];
    return [...new Set(counts.map((n) => shardOf(id, n)))];
  }
}

/** The protocol meta.lua answered (its second field). */
const protocolOf = (reply) => int(reply[1]);

/**
 * The layout meta.lua answered; refuses a protocol this library does not speak, or a shard count the queue never had
 * (a count it had before a reshard is followed: the layout is the meta's, as in core's QueueProtocol.verifyMeta). A
 * refused protocol is named against the version new queues are recorded with, in core's words.
 */
function checkMeta(reply, queue, shards, newQueueProtocol = PROTOCOL_3) {
  const layout = Layout.fromMeta(reply);
  if (layout.shards !== shards && !layout.history.includes(shards)) throw new ShardCountMismatchException(queue, shards, layout.shards);
  if (!SPOKEN.includes(protocolOf(reply))) throw new ProtocolVersionMismatchException(queue, newQueueProtocol, protocolOf(reply));
  return layout;
}

/** A script's "LAYOUT <epoch> <shards> <from> ..." answer: the caller's epoch is not the shard's. */
const isLayoutRefusal = (e) => Boolean(e && typeof e.message === 'string' && e.message.startsWith('LAYOUT '));

module.exports = { Layout, checkMeta, protocolOf, isLayoutRefusal };
