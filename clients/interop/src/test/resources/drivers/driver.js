'use strict';
// Interop driver: runs producer operations with the delayq Node library, one JSON line in, one out.
// usage: node driver.js <path of clients/node>
// The first line configures the client ({url, queue, shards, options}); every later line is one operation
// ({op: enqueue | cancel | reschedule | inspect | stats | scripts | outbox-driver | outbox, ...}). Each answer is {ok: value}
// or {error: {type, message, field}}, in the shapes the Java test compares across the three clients. The outbox operations
// write rows with the library's Outbox through node-postgres (config.pgModule: where `pg` is installed) on the
// PostgreSQL config.postgres names ({host, port, user, database}).
const readline = require('node:readline');

const delayq = require(process.argv[2]);

const error = (e) => ({ error: { type: e.name || e.constructor.name, message: e.message, field: e.field === undefined ? null : e.field } });
const due = (spec) => (spec.dueAt === undefined || spec.dueAt === null || spec.dueAtAsDate === false || spec.dueAt < 0
  ? spec.dueAt : new Date(spec.dueAt));
const task = (spec) => ({
  id: spec.id, delay: spec.delayMs, dueAt: due(spec), payload: spec.payload, priority: spec.priority,
  expiresAt: spec.expiresAt, onExpiry: spec.onExpiry, maxAttempts: spec.maxAttempts, backoff: spec.backoffMs, backoffMax: spec.backoffMaxMs,
  backoffMultiplier: spec.backoffMultiplier, traceparent: spec.traceparent, tracestate: spec.tracestate,
});

let config;
const pg = () => require(config.pgModule); // eslint-disable-line global-require, import/no-dynamic-require

/**
 * Writes op.rows ({action: enqueue | cancel | reschedule, ...}) in one transaction of a connection of its own, with a
 * business row beside them, then commits it (op.commit) or rolls it back; answers the row count.
 */
async function outbox(op) {
  const db = new (pg().Client)(config.postgres);
  await db.connect();
  try {
    const box = new delayq.Outbox(op.queue);
    await db.query('BEGIN');
    await db.query('CREATE TABLE IF NOT EXISTS interop_orders (id text PRIMARY KEY)');
    for (const row of op.rows) {
      await db.query('INSERT INTO interop_orders VALUES ($1) ON CONFLICT DO NOTHING', [row.id]);
      if (row.action === 'enqueue') {
        await box.enqueue(db, row.id, {
          delay: row.delayMs, dueAt: due(row), payload: row.payload, priority: row.priority, dedup: row.dedup, group: row.group,
          expiresAt: row.expiresAt, maxAttempts: row.maxAttempts, backoff: row.backoffMs, backoffMultiplier: row.backoffMultiplier,
        });
      } else if (row.action === 'cancel') {
        await box.cancel(db, row.id);
      } else if (row.action === 'reschedule') {
        await box.reschedule(db, row.id, { delay: row.delayMs, dueAt: due(row) });
      } else {
        throw new Error(`unknown outbox action ${row.action}`);
      }
    }
    await db.query(op.commit === false ? 'ROLLBACK' : 'COMMIT');
    return op.rows.length;
  } finally {
    await db.end();
  }
}

async function answer(client, op) {
  switch (op.op) {
    case 'outbox-driver':
      return pg().Client ? require(`${config.pgModule}/package.json`).version : null; // eslint-disable-line global-require, import/no-dynamic-require
    case 'outbox':
      return outbox(op);
    case 'scripts':
      return Object.fromEntries(Object.values(delayq.scripts).map((s) => [s.name, s.sha]));
    case 'enqueue':
      return client.enqueueMany(op.tasks.map(task), { onDuplicate: op.onDuplicate || 'reject' });
    case 'cancel':
      return client.cancel(op.id);
    case 'reschedule':
      return client.reschedule(op.id, { delay: op.delayMs, dueAt: due(op) });
    case 'inspect': {
      const i = await client.inspect(op.id);
      return {
        id: i.id, shard: i.shard, state: i.state, score: i.score, priority: i.priority, attempts: i.attempts, lastError: i.lastError,
        rawRecord: i.rawRecord, payload: i.record ? i.record.payload : null, enqueuedAt: i.record ? i.record.enqueuedAt : null,
        completion: i.completion,
      };
    }
    case 'stats': {
      const s = await client.stats();
      return { scheduled: s.scheduled, due: s.due, inflight: s.inflight, dead: s.dead };
    }
    default:
      throw new Error(`unknown op ${op.op}`);
  }
}

const out = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

async function main() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })[Symbol.asyncIterator]();
  config = JSON.parse((await lines.next()).value);
  let client;
  try {
    client = await delayq.DelayQueue.connect(config.url, { queue: config.queue, shards: config.shards, ...(config.options || {}) });
  } catch (e) {
    out(error(e));
    return;
  }
  out({ ok: 'connected' });
  try {
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      if (!next.value.trim()) continue;
      try {
        out({ ok: await answer(client, JSON.parse(next.value)) });
      } catch (e) {
        out(error(e));
      }
    }
  } finally {
    await client.close();
  }
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
