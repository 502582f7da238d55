'use strict';
// The outbox helpers write delayq_outbox rows in the caller's transaction, on a real PostgreSQL through node-postgres:
// committed rows carry the Java library's columns, a rolled-back transaction leaves none, bad input writes nothing.
const test = require('node:test');
const assert = require('node:assert/strict');
const otel = require('@opentelemetry/api');
const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
const { W3CTraceContextPropagator } = require('@opentelemetry/core');
const { Outbox, InvalidInputException, DuplicatePolicy, Priority } = require('..');
const { startPostgres, missing } = require('./postgres-server');

const COLUMNS = 'op, queue, task_id, due_at, payload, priority, dedup, options, '
  + 'extract(epoch FROM due_at - created_at)::float8 AS after_created';
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

test('outbox rows on a real PostgreSQL', async (t) => {
  const why = missing();
  if (why) {
    if (process.env.CI === 'true') assert.fail(`${why} (CI must run the outbox tests)`);
    t.skip(why);
    return;
  }
  const pg = await startPostgres();
  t.after(() => pg.stop());
  const orders = new Outbox('orders');
  const rows = () => pg.run(`SELECT ${COLUMNS} FROM delayq_outbox ORDER BY seq`);
  const count = async () => Number((await pg.run('SELECT count(*) AS n FROM delayq_outbox'))[0].n);
  let db;
  t.beforeEach(async () => {
    await pg.run('TRUNCATE delayq_outbox RESTART IDENTITY');
    db = await pg.connect();
  });
  t.afterEach(() => db.end());

  await t.test('rows are written in the caller\'s transaction and seen by others only after its commit', async () => {
    const due = new Date('2100-01-01T00:00:00Z');
    await db.query('BEGIN');
    await db.query('CREATE TEMP TABLE orders (id int, status text)');
    await db.query("INSERT INTO orders VALUES (1, 'unpaid')");
    await orders.enqueue(db, 'order-1-timeout', {
      dueAt: due, payload: '{"order":1}', priority: Priority.HIGH, maxAttempts: 3, dedup: DuplicatePolicy.KEEP_EARLIER,
    });
    await orders.reschedule(db, 'order-2-timeout', { delay: 30 * 60000 });
    await orders.cancel(db, 'order-3-timeout');
    assert.equal(await count(), 0, 'not committed yet');
    await db.query('COMMIT');
    const [enqueue, reschedule, cancel] = await rows();
    assert.deepEqual({ ...enqueue, after_created: undefined }, {
      op: 'enqueue', queue: 'orders', task_id: 'order-1-timeout', due_at: due, payload: '{"order":1}', priority: 1,
      dedup: 'keep-earlier', options: '{"maxAttempts":3}', after_created: undefined,
    });
    assert.equal(reschedule.op, 'reschedule');
    assert.ok(Math.abs(reschedule.after_created - 1800) < 1, `a delay counts from the transaction's now(), got ${reschedule.after_created}`);
    assert.deepEqual([cancel.op, cancel.task_id, cancel.due_at, cancel.payload, cancel.priority, cancel.dedup, cancel.options],
      ['cancel', 'order-3-timeout', null, null, 0, 'reject', null], 'a cancel has no due time');
  });

  await t.test('a rolled-back transaction leaves no row', async () => {
    await db.query('BEGIN');
    await orders.enqueue(db, 'order-9-timeout', { delay: 30 * 60000 });
    await db.query('ROLLBACK');
    assert.equal(await count(), 0);
  });

  await t.test('the helpers never commit', async () => {
    await db.query('BEGIN');
    await orders.enqueue(db, 'order-10-timeout');
    await db.end(); // ending the session without a COMMIT discards the transaction
    db = await pg.connect();
    assert.equal(await count(), 0);
  });

  await t.test('every option travels in the columns the relay reads; the active span is recorded', async (st) => {
    otel.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    otel.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    st.after(() => {
      otel.context.disable();
      otel.propagation.disable();
    });
    await db.query('BEGIN');
    await orders.enqueue(db, 'invoice-7', {
      dueAt: 4102444800000, dedup: 'once', group: 'tenant-42', expiresAt: new Date('2100-01-02T00:00:00Z'), onExpiry: 'discard',
      maxAttempts: 5, backoff: 2000, backoffMax: 60000, backoffMultiplier: 3, traceparent: TRACEPARENT, tracestate: 'vendor=1',
    });
    await orders.enqueue(db, 'now-1');
    const span = otel.trace.wrapSpanContext({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: otel.TraceFlags.SAMPLED,
    });
    await otel.context.with(otel.trace.setSpan(otel.context.active(), span), () => orders.enqueue(db, 'traced-1'));
    await db.query('COMMIT');
    const [full, now, traced] = await rows();
    assert.deepEqual([full.due_at, full.payload, full.priority, full.dedup], [new Date('2100-01-01T00:00:00Z'), null, 0, 'once']);
    assert.equal(full.options, '{"expiresAt":4102531200000,"onExpiry":"discard","maxAttempts":5,"backoffMs":2000,'
      + `"backoffMaxMs":60000,"backoffMultiplier":3,"traceparent":"${TRACEPARENT}","tracestate":"vendor=1","group":"tenant-42"}`);
    assert.deepEqual([now.dedup, now.options], ['reject', null]);
    assert.ok(Math.abs(now.after_created) < 1, 'no delay: due at the transaction\'s now()');
    assert.equal(traced.options, '{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}');
  });

  await t.test('bad input is refused naming the field before anything is written', async (st) => {
    assert.throws(() => new Outbox('no spaces allowed'), { name: 'InvalidInputException', field: 'queue' });
    assert.throws(() => new Outbox('orders', { maxPayloadBytes: 0 }), { field: 'maxPayloadBytes' });
    const small = new Outbox('orders', { maxPayloadBytes: 8 });
    const past = Date.now() - 3600000;
    const pool = new pg.driver.Pool(pg.config);
    st.after(() => pool.end());
    const cases = [
      ['id', 'must not be empty', () => orders.cancel(db, '')],
      ['id', 'must be at most 256 bytes of UTF-8, got 257', () => orders.enqueue(db, 'x'.repeat(257))],
      ['expiresAt', 'is in the past', () => orders.enqueue(db, 'x', { dueAt: past - 3600000, expiresAt: past })],
      ['expiresAt', "must be after the task's due time (now + delay)",
        () => orders.enqueue(db, 'x', { delay: 7200000, expiresAt: Date.now() + 3600000 })],
      ['dedup', "must be reject, replace, keep-earlier, future-only or once, got 'sometimes'", () => orders.enqueue(db, 'x', { dedup: 'sometimes' })],
      ['priority', 'must be 0 (normal), 1 (high) or 2 (highest), got 3', () => orders.enqueue(db, 'x', { priority: 3 })],
      ['group', 'cannot be combined with priority 1', () => orders.enqueue(db, 'x', { group: 't-1', priority: 1 })],
      ['group', 'may hold only ASCII letters', () => orders.enqueue(db, 'x', { group: 'a b' })],
      ['payload', "must be at most 8 bytes of UTF-8 (the relay's maxPayloadBytes), got 9", () => small.enqueue(db, 'x', { payload: '123456789' })],
      ['delay', 'must not be negative', () => orders.enqueue(db, 'x', { delay: -1000 })],
      ['dueAt', 'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z', () => orders.reschedule(db, 'x', { dueAt: -1 })],
      ['schedule', 'give a delay or a due time (dueAt), not both', () => orders.reschedule(db, 'x', { delay: 1, dueAt: past })],
      ['maxAttempts', 'must be 1 to 1000, got 0', () => orders.enqueue(db, 'x', { maxAttempts: 0 })],
      ['traceparent', 'must be a W3C traceparent', () => orders.enqueue(db, 'x', { traceparent: 'nope' })],
      ['options', "unknown option 'delayMs'", () => orders.enqueue(db, 'x', { delayMs: 1000 })],
      ['connection', 'must not be null', () => orders.enqueue(null, 'x')],
      ['connection', 'must be a node-postgres client', () => orders.cancel({}, 'x')],
      ['connection', 'must be the client your transaction runs on', () => orders.cancel(pool, 'x')],
    ];
    await db.query('BEGIN');
    for (const [field, rule, call] of cases) {
      await assert.rejects(call, (e) => {
        assert.ok(e instanceof InvalidInputException, `${field}: ${e.stack}`);
        assert.equal(e.field, field, e.message);
        assert.ok(e.rule.startsWith(rule), e.message);
        return true;
      });
    }
    await db.query('COMMIT'); // whatever a refused call had written would be committed now
    assert.equal(await count(), 0);
  });
});
