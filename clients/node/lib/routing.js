'use strict';
// Sends id-addressed operations to the shard that holds the id, whichever layout that is (docs/protocol.md, "Layouts
// and resharding"), as core's IdRouting does: during a migration the old shard first, acting only if the id is there,
// then the new one; a "LAYOUT" refusal re-reads the meta hash and tries again; a "moving" answer waits a few
// milliseconds for the mover to deliver the task. Nothing is written by a refused or "moving" call, so trying again is
// always safe. The per-shard calls are those of the protocol the queue's meta records (shard-calls.js).
const protocol = require('./protocol');
const { Layout, checkMeta, protocolOf, isLayoutRefusal } = require('./layout');
const { callsOf } = require('./shard-calls');
const { PROTOCOL_3 } = require('./protocol3');
const { LayoutChangedException } = require('./errors');

/** How long an operation follows layout changes and waits for a task in the mover's hands (core: 10 s). */
const PATIENCE_MS = 10000;
/** The wait between two tries (core: 5 ms). */
const PAUSE_MS = 5;

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

class Routing {
  /**
   * run(name, keys, args) runs one script and resolves its reply; enqueue(shard, batch, {script, keys, args}) runs one
   * enqueue call (the client's replica-ack path, or run). A script's error reply rejects. newQueueProtocol: the
   * protocol a queue this client creates is recorded with (2 or 3; the client's protocolForNewQueues).
   */
  constructor(queue, configuredShards, run, enqueue, newQueueProtocol = PROTOCOL_3) {
    Object.assign(this, { queue, configuredShards, run, enqueueCall: enqueue, newQueueProtocol });
    this.layout = Layout.initial(configuredShards);
    /**
     * The shard calls of the protocol the meta records (as last read); until the meta answers, those of the protocol a
     * new queue gets.
     */
    this.calls = callsOf(newQueueProtocol);
  }

  metaArgs() {
    // a new queue is recorded with newQueueProtocol; an existing one keeps what its meta records
    return [[protocol.metaKey(this.queue)], [String(this.configuredShards), String(this.newQueueProtocol)]];
  }

  async verifyMeta() {
    const reply = await this.run('meta', ...this.metaArgs());
    this.layout = checkMeta(reply, this.queue, this.configuredShards, this.newQueueProtocol);
    // the recorded protocol decides: on a queue just created it is newQueueProtocol, so the first enqueue already goes
    // through that protocol's scripts
    this.calls = callsOf(protocolOf(reply));
  }

  /**
   * Re-reads the layout; a queue upgraded in place to protocol 3 is spoken to as such from then on, as core's client
   * does on its next layout answer (a protocol this library does not speak changes nothing).
   */
  async refresh() {
    const reply = await this.run('meta', ...this.metaArgs());
    this.layout = Layout.fromMeta(reply);
    this.calls = callsOf(protocolOf(reply)) || this.calls;
  }

  /**
   * A cancel, reschedule or inspect: resolves {reply, shard} of the first shard in the layout's lookup order that
   * holds the id; when none does, the id's own shard's "unknown" reply. rest: the call's arguments after the id.
   */
  async byId(id, name, rest) {
    const deadline = Date.now() + PATIENCE_MS;
    for (;;) {
      const { layout, calls } = this;
      const status = calls.statusOf[name];
      let own = null;
      let answer = null;
      let refused = false;
      for (const shard of layout.lookupOrder(id)) {
        let reply;
        try {
          const { script, keys, args } = calls.byId(this.queue, shard, name, id, rest, layout.epoch);
          reply = await this.run(script, keys, args);
        } catch (e) {
          if (!isLayoutRefusal(e)) throw e;
          refused = true;
          break;
        }
        answer = { reply, shard };
        if (shard === layout.shardOf(id)) own = answer;
        if (status(reply) !== 'unknown') break;
      }
      if (refused) {
        await this.later(deadline, `the layout of queue '${this.queue}' kept changing`);
        await this.refresh();
        continue;
      }
      const kind = status(answer.reply);
      if (kind === 'moving') {
        await this.later(deadline, this.movingMessage(id));
        continue;
      }
      return kind === 'unknown' && own ? own : answer;
    }
  }

  /** Enqueues prepared tasks where their ids live; resolves the results in input order. */
  async enqueue(prepared, policy, enqueuedAt) {
    const results = new Array(prepared.length);
    let pending = prepared.map((_, i) => i);
    const deadline = Date.now() + PATIENCE_MS;
    while (pending.length) {
      const { layout, calls } = this;
      const again = [];
      let refused = false;
      const send = async (indexes, shardOfIndex, presentOnly) => {
        const absent = [];
        await Promise.all(protocol.group(indexes, shardOfIndex).map(async ([shard, chunk]) => {
          const batch = chunk.map((i) => prepared[i]);
          let reply;
          try {
            reply = await this.enqueueCall(shard, batch, calls.enqueue(this.queue, shard, policy, batch, enqueuedAt, layout.epoch, presentOnly));
          } catch (e) {
            if (!isLayoutRefusal(e)) throw e;
            refused = true;
            again.push(...chunk);
            return;
          }
          protocol.placed(reply, batch).forEach((p, j) => {
            if (p.wire === 'absent') absent.push(chunk[j]);
            else if (p.wire === 'moving') again.push(chunk[j]);
            else results[chunk[j]] = protocol.enqueueResult(p);
          });
        }));
        return absent;
      };
      // during a migration an id whose old shard differs is tried there first ("present" only), then on its new shard
      const moved = pending.filter((i) => layout.oldShardOf(prepared[i].id) >= 0);
      const direct = pending.filter((i) => layout.oldShardOf(prepared[i].id) < 0);
      const onNew = (i) => layout.shardOf(prepared[i].id);
      await Promise.all([
        send(direct, onNew, false),
        send(moved, (i) => layout.oldShardOf(prepared[i].id), true).then((absent) => send(absent, onNew, false)),
      ]);
      if (!again.length) break;
      await this.later(deadline, refused ? `the layout of queue '${this.queue}' kept changing` : this.movingMessage(prepared[again[0]].id));
      if (refused) await this.refresh();
      pending = again.sort((a, b) => a - b);
    }
    return results;
  }

  async later(deadline, giveUp) {
    if (Date.now() > deadline) throw new LayoutChangedException(giveUp);
    await sleep(PAUSE_MS);
  }

  movingMessage(id) {
    return `task '${id}' of queue '${this.queue}' stayed in a shard's \`moving\` hash for ${PATIENCE_MS / 1000} s: a reshard is `
      + `running but its mover seems stopped; resume it (delayq reshard ${this.queue} --to ${this.layout.shards})`;
  }
}

module.exports = { Routing, PATIENCE_MS, PAUSE_MS };
