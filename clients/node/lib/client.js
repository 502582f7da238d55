'use strict';
const protocol = require('./protocol');
const p3 = require('./protocol3');
const connection = require('./connection');
const { Routing } = require('./routing');
const calendar = require('./calendar');
const { SCRIPTS } = require('./scripts');
const { DelayQueueException, InvalidInputException, ReplicaAckException } = require('./errors');

/** The environment variable that picks the protocol a new queue is recorded with, as core reads it (2 or 3). */
const PROTOCOL_ENV = 'DELAYQ_PROTOCOL';

/**
 * The protocol a queue is recorded with when this client creates it (its meta hash is absent), as core's
 * QueueProtocol.protocolForNewQueues: the protocolForNewQueues option when given, else the environment variable
 * DELAYQ_PROTOCOL, else 3 (docs/protocol3.md). It decides nothing for a queue that exists: its meta does.
 */
function protocolForNewQueues(asked) {
  if (asked !== undefined && asked !== null) {
    if (asked !== protocol.PROTOCOL_VERSION && asked !== p3.PROTOCOL_3) {
      throw new InvalidInputException('protocolForNewQueues', `must be 2 or 3, got ${typeof asked === 'string' ? `'${asked}'` : String(asked)}`);
    }
    return asked;
  }
  const env = process.env[PROTOCOL_ENV];
  if (env === undefined || env.trim() === '') return p3.PROTOCOL_3;
  if (env.trim() === '2' || env.trim() === '3') return Number(env.trim());
  throw new InvalidInputException(PROTOCOL_ENV, `must be 2 or 3, got '${env}'`);
}

function settings(opts) {
  const o = opts || {};
  const s = {
    queue: protocol.requireQueue(o.queue),
    shards: protocol.requireShards(o.shards),
    maxPayloadBytes: o.maxPayloadBytes === undefined ? protocol.DEFAULT_MAX_PAYLOAD_BYTES : o.maxPayloadBytes,
    timeoutMs: o.timeoutMs === undefined ? 10000 : o.timeoutMs,
    replicaAcks: o.replicaAcks === undefined ? 0 : o.replicaAcks,
    replicaAckTimeoutMs: o.replicaAckTimeoutMs === undefined ? 500 : o.replicaAckTimeoutMs,
  };
  if (!Number.isInteger(s.maxPayloadBytes) || s.maxPayloadBytes < 1 || s.maxPayloadBytes > 512 * 1024 * 1024) {
    throw new InvalidInputException('maxPayloadBytes', `must be between 1 and 536870912, got ${s.maxPayloadBytes}`);
  }
  if (typeof s.timeoutMs !== 'number' || !(s.timeoutMs > 0)) throw new InvalidInputException('timeout', `must be positive (ms), got ${s.timeoutMs}`);
  if (!Number.isInteger(s.replicaAcks) || s.replicaAcks < 0 || s.replicaAcks > 100) {
    throw new InvalidInputException('replicaAcks.replicas', `must be between 1 and 100 (0: off), got ${s.replicaAcks}`);
  }
  if (s.replicaAcks > 0) {
    if (!Number.isInteger(s.replicaAckTimeoutMs) || s.replicaAckTimeoutMs < 1) {
      throw new InvalidInputException('replicaAcks.timeout', `must be at least 1 ms (WAIT 0 would block forever), got ${s.replicaAckTimeoutMs}`);
    }
    if (s.replicaAckTimeoutMs >= s.timeoutMs) {
      throw new InvalidInputException('replicaAcks.timeout',
        `must be shorter than the client's timeout (${s.timeoutMs} ms), got ${s.replicaAckTimeoutMs} ms`);
    }
  }
  s.protocolForNewQueues = protocolForNewQueues(o.protocolForNewQueues);
  return Object.freeze(s);
}

const isNoScript = (e) => e && typeof e.message === 'string' && e.message.startsWith('NOSCRIPT');

/** By SHA; on NOSCRIPT (a restart, a failover, SCRIPT FLUSH) once in full, which caches it again. */
async function run(redis, name, keys, args) {
  const s = SCRIPTS[name];
  try {
    return await redis.evalsha(s.sha, keys.length, ...keys, ...args);
  } catch (e) {
    if (!isNoScript(e)) throw e;
    return redis.eval(s.source, keys.length, ...keys, ...args);
  }
}

/**
 * The producer client of one queue. Create it with `await DelayQueue.connect(url, {queue, shards})`, which
 * checks the queue's shard count and protocol in `dq:{queue}:meta` (recording them on first use: protocol 3,
 * docs/protocol3.md, unless `protocolForNewQueues: 2` or the environment variable DELAYQ_PROTOCOL=2 asks for protocol 2;
 * the option wins) and rejects with ShardCountMismatchException or ProtocolVersionMismatchException when Redis holds
 * others. An existing queue is spoken to in the protocol its meta records (2 or 3), with the same answers.
 */
class DelayQueue {
  constructor(redis, s, owns) {
    this.redis = redis;
    this.settings = s;
    this.owns = owns;
    this.routing = new Routing(s.queue, s.shards, (name, keys, args) => run(this.redis, name, keys, args),
      (shard, batch, call) => (s.replicaAcks > 0 ? this.enqueueAcked(shard, batch, call) : run(this.redis, call.script, call.keys, call.args)),
      s.protocolForNewQueues);
  }

  /** Connects to a redis://, rediss://, redis-cluster:// or rediss-cluster:// URL. */
  static async connect(url, opts) {
    const endpoint = connection.parse(url);
    const s = settings(opts);
    const redis = connection.connect(endpoint, { timeoutMs: s.timeoutMs, tlsCa: opts && opts.tlsCa });
    // ioredis reports connection problems as events (and retries); keep the last one to say why a call failed
    let lastError = null;
    redis.on('error', (e) => { lastError = e; });
    const client = new DelayQueue(redis, s, true);
    try {
      await client.verifyMeta();
    } catch (e) {
      redis.disconnect();
      if (lastError && !(e instanceof DelayQueueException)) {
        throw new DelayQueueException(`cannot use Redis at ${connection.redact(url)}: ${lastError.message} (${e.message})`);
      }
      throw e;
    }
    return client;
  }

  /** Wraps an existing ioredis client or cluster, which it will not close. */
  static async create(redis, opts) {
    const client = new DelayQueue(redis, settings(opts), false);
    await client.verifyMeta();
    return client;
  }

  async verifyMeta() {
    await this.routing.verifyMeta();
  }

  get queue() {
    return this.settings.queue;
  }

  /** The queue's current shard count (as last read from its meta hash: it grows with a reshard). */
  get shards() {
    return this.routing.layout.shards;
  }

  /** {epoch, shards, from, history} as last read from the meta hash. */
  get layout() {
    return this.routing.layout;
  }

  /** The protocol the queue's meta records (2 or 3), as last read. */
  get protocolVersion() {
    return this.routing.calls.version;
  }

  shardOf(id) {
    return protocol.shardOf(protocol.requireId(id), this.shards);
  }

  /** The queue's business calendar of that name (dq:{q}:calendars), or null; for afterBusinessDays and rollForward. */
  async calendar(name) {
    const raw = await this.redis.hget(calendar.calendarsKey(this.queue), calendar.requireName(name));
    return raw === null ? null : calendar.Calendar.fromJson(raw);
  }

  /** Schedules one task after `delay` ms (on the Redis clock) or at `dueAt`; neither: due now. */
  async enqueue(id, task = {}, opts = {}) {
    return (await this.enqueueMany([{ ...task, id }], opts))[0];
  }

  /** Grouped by shard, at most 500 per script call, concurrently; answers in input order. Validated whole first. */
  async enqueueMany(tasks, { onDuplicate = protocol.DuplicatePolicy.REJECT } = {}) {
    const policy = protocol.requirePolicy(onDuplicate);
    const enqueuedAt = Date.now();
    const prepared = protocol.prepare(tasks, this.shards, this.settings.maxPayloadBytes, enqueuedAt);
    protocol.requireDebounce(policy, prepared);
    return this.routing.enqueue(prepared, policy, enqueuedAt);
  }

  /** 'CANCELLED', 'IN_FLIGHT' (left running) or 'UNKNOWN'. */
  async cancel(id) {
    protocol.requireId(id);
    const { reply } = await this.routing.byId(id, 'cancel', []);
    return protocol.parseCancel(reply);
  }

  async reschedule(id, { delay, dueAt } = {}) {
    protocol.requireId(id);
    const [timing, ms] = protocol.schedule(delay, dueAt, Date.now());
    const { reply } = await this.routing.byId(id, 'reschedule', [timing, String(ms)]);
    return protocol.parseReschedule(reply);
  }

  async inspect(id) {
    protocol.requireId(id);
    const { reply, shard } = await this.routing.byId(id, 'inspect', []);
    const info = protocol.parseInspect(reply, id, shard);
    info.record = info.rawRecord === null ? null : protocol.decodeRecord(info.rawRecord);
    return info;
  }

  async stats() {
    const { calls } = this.routing;
    const shards = await Promise.all(Array.from({ length: this.shards }, async (_, s) => {
      const { script, keys, args } = calls.stats(this.queue, s);
      return protocol.parseStats(await run(this.redis, script, keys, args), s);
    }));
    return protocol.queueStats(this.queue, shards);
  }

  async close() {
    if (this.owns) await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /**
   * The enqueue, then WAIT on the same connection to the shard's primary: a pipeline goes to one node on one
   * connection (in a Cluster, the node of the script's keys), and Redis answers how many replicas hold every
   * write of that connection so far.
   */
  async enqueueAcked(shard, batch, { script, keys, args }) {
    const { replicaAcks, replicaAckTimeoutMs } = this.settings;
    const s = SCRIPTS[script];
    for (const [command, body] of [['evalsha', s.sha], ['eval', s.source]]) {
      const [[scriptError, reply], [waitError, acknowledged]] = await this.redis.pipeline()[command](body, keys.length, ...keys, ...args)
        .wait(replicaAcks, replicaAckTimeoutMs).exec();
      if (isNoScript(scriptError)) continue;
      if (scriptError) throw scriptError;
      if (waitError) throw waitError;
      if (Number(acknowledged) < replicaAcks) {
        throw new ReplicaAckException(shard, protocol.parseEnqueue(reply, batch), replicaAcks, Number(acknowledged), replicaAckTimeoutMs);
      }
      return reply;
    }
    throw new Error('unreachable: EVAL cannot answer NOSCRIPT');
  }
}

module.exports = { DelayQueue };
