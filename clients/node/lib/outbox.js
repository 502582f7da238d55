'use strict';
// Task operations written to the delayq outbox table in the caller's own database transaction: a row of
// delayq_outbox reaches Redis (through the relay, docs/outbox.md) if and only if that transaction commits.
//
//   const orders = new Outbox('orders');
//   await client.query('BEGIN');
//   await client.query("INSERT INTO orders (id, status) VALUES ($1, 'unpaid')", [8812]);
//   await orders.enqueue(client, 'order-8812-timeout', { delay: 30 * 60_000, dedup: 'once' });
//   await client.query('COMMIT');                       // both rows, or neither
//
// The helpers take the caller's node-postgres client (anything with query(text, values) and $n placeholders) and
// never send BEGIN, COMMIT or ROLLBACK. Bad input is refused (InvalidInputException, the Java library's fields
// and rules) before anything is sent. A delay becomes a due time in the database (now() of the transaction plus
// the delay), as the Java library does. No database driver is required here.
const protocol = require('./protocol');
const { InvalidInputException } = require('./errors');

/** The dedup column's values (core's DuplicatePolicy wire names). */
const DEDUP_POLICIES = Object.freeze(['reject', 'replace', 'keep-earlier', 'future-only', 'once']);
const ENQUEUE_OPTIONS = new Set(['delay', 'dueAt', 'payload', 'priority', 'dedup', 'group', 'expiresAt', 'onExpiry', 'maxAttempts',
  'backoff', 'backoffMax', 'backoffMultiplier', 'traceparent', 'tracestate']);
const INSERT = 'INSERT INTO delayq_outbox (op, queue, task_id, due_at, payload, priority, dedup, options) '
  + "VALUES ($1, $2, $3, COALESCE($4::timestamptz, now() + $5::bigint * interval '1 millisecond'), $6, $7, $8, $9)";

function requireDedup(dedup) {
  const wire = dedup === undefined ? 'reject' : dedup;
  if (DEDUP_POLICIES.includes(wire)) return wire;
  throw new InvalidInputException('dedup',
    `must be reject, replace, keep-earlier, future-only or once, got ${dedup === null ? 'null' : `'${dedup}'`}`);
}

/** The caller's client: one connection with query(text, values); a pg.Pool would run each row in a transaction of its own. */
function requireClient(client) {
  if (client === undefined || client === null) throw new InvalidInputException('connection', 'must not be null');
  if (typeof client.query !== 'function') {
    throw new InvalidInputException('connection', `must be a node-postgres client (with query(text, values)), got ${typeof client}`);
  }
  if (typeof client.totalCount === 'number' && typeof client.idleCount === 'number') {
    throw new InvalidInputException('connection', 'must be the client your transaction runs on (await pool.connect()), '
      + 'not a pg.Pool: the pool would write the row in a transaction of its own');
  }
  return client;
}

function requireKnown(opts, known) {
  if (opts === null || typeof opts !== 'object') throw new InvalidInputException('options', `must be an object, got ${opts}`);
  const unknown = Object.keys(opts).find((k) => !known.has(k));
  if (unknown !== undefined) {
    throw new InvalidInputException('options', `unknown option '${unknown}' (known: ${[...known].join(', ')})`);
  }
  return opts;
}

/** The outbox operations of one queue; `maxPayloadBytes` should be the relay's (default 65536). */
class Outbox {
  constructor(queue, { maxPayloadBytes = protocol.DEFAULT_MAX_PAYLOAD_BYTES } = {}) {
    this.queue = protocol.requireQueue(queue);
    if (!Number.isInteger(maxPayloadBytes) || maxPayloadBytes < 1 || maxPayloadBytes > 512 * 1024 * 1024) {
      throw new InvalidInputException('maxPayloadBytes', `must be between 1 and 536870912, got ${maxPayloadBytes}`);
    }
    this.maxPayloadBytes = maxPayloadBytes;
    Object.freeze(this);
  }

  /**
   * Schedules the task when the client's transaction commits: after `delay` ms (from the transaction's now()) or at
   * `dueAt` (Date or epoch ms); neither: due now. `dedup` is what a task with the same id already in Redis meets:
   * 'reject' (default), 'replace', 'keep-earlier', 'future-only' or 'once'. `group` puts it in a group (priority 0 only).
   * The per-task options are the client's (expiresAt, onExpiry, maxAttempts, backoff, backoffMax, backoffMultiplier,
   * traceparent, tracestate); the active OpenTelemetry span is recorded when none is given, as the client does.
   */
  async enqueue(client, id, opts = {}) {
    requireClient(client);
    const t = requireKnown(opts, ENQUEUE_OPTIONS);
    const taskId = protocol.requireId(id);
    const nowMs = Date.now();
    const [timing, ms] = protocol.schedule(t.delay, t.dueAt, nowMs);
    const payload = protocol.requirePayload(t.payload, this.maxPayloadBytes, "the relay's maxPayloadBytes");
    const priority = protocol.requirePriority(t.priority === undefined ? 0 : t.priority);
    const dedup = requireDedup(t.dedup);
    const group = protocol.requireGroup(t.group);
    protocol.requireGroupPriority(group, priority);
    const fields = protocol.taskOptions(t, timing, ms, nowMs, protocol.currentTrace());
    if (group !== null) fields.group = group;
    const options = Object.keys(fields).length ? JSON.stringify(fields) : null;
    await this.insert(client, 'enqueue', taskId, timing, ms, payload, priority, dedup, options);
  }

  /** Cancels the task when the client's transaction commits (after every earlier outbox row of the same id). */
  async cancel(client, id) {
    requireClient(client);
    await this.insert(client, 'cancel', protocol.requireId(id), null, null, null, 0, 'reject', null);
  }

  /** Moves the task when the client's transaction commits: after `delay` ms (from the transaction's now()) or at `dueAt`; neither: now. */
  async reschedule(client, id, when = {}) {
    requireClient(client);
    const w = requireKnown(when, new Set(['delay', 'dueAt']));
    const taskId = protocol.requireId(id);
    const [timing, ms] = protocol.schedule(w.delay, w.dueAt, Date.now());
    await this.insert(client, 'reschedule', taskId, timing, ms, null, 0, 'reject', null);
  }

  async insert(client, op, id, timing, ms, payload, priority, dedup, options) {
    const at = timing === 'at' ? new Date(ms).toISOString() : null;
    const delayMs = timing === null ? null : (timing === 'at' ? 0 : ms);
    await client.query(INSERT, [op, this.queue, id, at, delayMs, payload, priority, dedup, options]);
  }
}

module.exports = { Outbox, DEDUP_POLICIES, requireDedup };
