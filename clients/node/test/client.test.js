'use strict';
// The client against a real redis-server: operations, policies, meta checks, NOSCRIPT recovery, the
// wake-up marker, replica acknowledgements, and that the shipped scripts are core's files assembled now.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {
  DelayQueue, DuplicatePolicy, Priority, InvalidInputException, ShardCountMismatchException, ProtocolVersionMismatchException, ReplicaAckException, scripts, protocol,
} = require('..');
const { assemble } = require('../scripts/assemble-lua');
const { startRedis } = require('./redis-server');

const CORE_LUA = path.resolve(__dirname, '..', '..', '..', 'src', 'main', 'resources', 'delayq', 'lua');

test('the shipped scripts are core\'s files assembled now', { skip: !fs.existsSync(CORE_LUA) && 'core\'s scripts are not in this checkout' }, () => {
  assert.deepEqual(Object.fromEntries(Object.values(scripts).map((s) => [s.name, s.source])), assemble(CORE_LUA));
  assert.ok(Object.values(scripts).every((s) => !s.source.includes('--@include')));
});

test('against a real Redis', async (t) => {
  const redis = await startRedis();
  if (!redis) {
    t.skip('redis-server is not on PATH (Debian: apt-get install redis-server)');
    return;
  }
  const { admin, serverNow } = redis;
  let q;
  t.beforeEach(async () => {
    await admin.flushall();
    // a queue created as protocol 2: these tests read its keys (protocol3.test.js runs protocol 3, the default)
    q = await DelayQueue.connect(redis.url, { queue: 'orders', shards: 4, protocolForNewQueues: 2 });
  });
  t.afterEach(() => q.close());
  t.after(() => redis.stop());

  await t.test('enqueue, inspect, reschedule, cancel and stats', async () => {
    const before = await serverNow();
    const r = await q.enqueue('order-8812', { delay: 30 * 60000, payload: '{"action":"cancel-if-unpaid"}', priority: Priority.HIGH });
    assert.equal(r.status, 'ADDED');
    assert.ok(r.dueAt >= before + 1800000 && r.dueAt <= (await serverNow()) + 1800000);
    const info = await q.inspect('order-8812');
    assert.deepEqual([info.state, info.score, info.priority, info.shard], ['SCHEDULED', r.dueAt, 1, protocol.shardOf('order-8812', 4)]);
    assert.equal(info.record.payload, '{"action":"cancel-if-unpaid"}');
    const key = protocol.recordKey('orders', info.shard, 'order-8812');
    assert.ok((await admin.hget(key, 'order-8812')).startsWith('1'));
    assert.deepEqual(await q.reschedule('order-8812', { dueAt: r.dueAt + 1000 }), { status: 'RESCHEDULED', dueAt: r.dueAt + 1000 });
    assert.equal((await q.reschedule('nope', { delay: 1000 })).status, 'UNKNOWN');
    await q.enqueue('due-now');
    const stats = await q.stats();
    assert.deepEqual([stats.scheduled, stats.due, stats.inflight, stats.dead], [1, 1, 0, 0]);
    assert.equal(await q.cancel('order-8812'), 'CANCELLED');
    assert.equal(await q.cancel('order-8812'), 'UNKNOWN');
    assert.equal(await admin.hget(key, 'order-8812'), null);
  });

  await t.test('inspect shows the progress a running handler reported, in flight only', async () => {
    // the entry as core's progress.lua writes it: <at ms>|<percent>|<note>
    const now = await serverNow();
    await q.enqueue('export-7', { delay: 3600000 });
    const prefix = `dq:{orders:${protocol.shardOf('export-7', 4)}}:`;
    await admin.hset(prefix + 'progress', 'export-7', `${now}|12.5|1,250 of 10,000 rows — ünïcödé | ✓`);
    assert.equal((await q.inspect('export-7')).progress, null, 'a waiting task has no progress, whatever is stored');
    // claimed by hand, as claim.lua would: out of its due set, into the in-flight set under a lease
    await admin.zrem(prefix + 'due', 'export-7');
    await admin.zadd(prefix + 'inflight', now + 60000, 'export-7');
    const info = await q.inspect('export-7');
    assert.equal(info.state, 'IN_FLIGHT');
    assert.deepEqual(info.progress, { percent: 12.5, note: '1,250 of 10,000 rows — ünïcödé | ✓', at: now });
    await admin.hdel(prefix + 'progress', 'export-7');
    assert.equal((await q.inspect('export-7')).progress, null);
  });

  await t.test('inspect shows a succeeded task\'s completion record', async () => {
    // the record as core's ack.lua keeps it while the queue keeps results
    const now = await serverNow();
    const prefix = `dq:{orders:${protocol.shardOf('refund-7', 4)}}:`;
    await admin.hset(prefix + 'done', 'refund-7', `${now}|2|35|1|worker-a1b2c3|refund r-91 | issued ✓`);
    await admin.zadd(prefix + 'done:at', now, 'refund-7');
    const info = await q.inspect('refund-7');
    assert.equal(info.state, 'SUCCEEDED');
    assert.equal(info.score, now);
    assert.equal(info.attempts, 2);
    assert.deepEqual(info.completion, { finishedAt: now, attempts: 2, handlerMs: 35, worker: 'worker-a1b2c3', result: 'refund r-91 | issued ✓', truncated: true });
    await q.enqueue('refund-7', { delay: 3600000 });
    const again = await q.inspect('refund-7');
    assert.equal(again.state, 'SCHEDULED');
    assert.equal(again.completion.result, 'refund r-91 | issued ✓');
    assert.equal((await q.inspect('never-seen')).completion, null);
  });

  await t.test('duplicate policies', async () => {
    const now = await serverNow();
    assert.equal((await q.enqueue('a', { dueAt: now + 10000 })).status, 'ADDED');
    assert.equal((await q.enqueue('a', { dueAt: now + 1 })).status, 'DUPLICATE');
    assert.equal((await q.enqueue('a', { dueAt: now + 5000 }, { onDuplicate: 'keep-earlier' })).status, 'EARLIER');
    assert.deepEqual(await q.enqueue('a', { dueAt: now + 9000 }, { onDuplicate: DuplicatePolicy.KEEP_EARLIER }),
      { id: 'a', status: 'KEPT', dueAt: now + 5000 });
    assert.deepEqual(await q.enqueue('a', { dueAt: now + 20000, payload: 'new' }, { onDuplicate: DuplicatePolicy.REPLACE }),
      { id: 'a', status: 'REPLACED', dueAt: now + 20000 });
    assert.equal((await q.inspect('a')).record.payload, 'new');
  });

  await t.test('a dedup window refuses the id after a cancel, in every policy', async () => {
    const now = await serverNow();
    assert.equal((await q.enqueue('w', { dueAt: now + 60000, dedupWindow: 3600000 })).status, 'ADDED');
    assert.equal(await q.cancel('w'), 'CANCELLED');
    for (const onDuplicate of ['reject', 'replace', 'keep-earlier']) {
      const r = await q.enqueue('w', { dueAt: now + 60000 }, { onDuplicate });
      assert.equal(r.status, 'WINDOW');
      assert.ok(r.dueAt >= now + 3600000);
    }
    await assert.rejects(q.enqueue('w', { dedupWindow: 0 }),
      (e) => e instanceof InvalidInputException && e.message === 'dedupWindowMs: must be 1 to 2592000000 ms (30 days), got 0');
  });

  await t.test('debounce pushes the due time up to the burst\'s deadline', async () => {
    const first = await q.enqueue('d', { delay: 60000, payload: 'v1', debounceMaxWait: 300000 }, { onDuplicate: 'debounce' });
    assert.equal(first.status, 'ADDED');
    const capped = await q.enqueue('d', { delay: 1200000, payload: 'v2', debounceMaxWait: 300000 }, { onDuplicate: DuplicatePolicy.DEBOUNCE });
    assert.equal(capped.status, 'REPLACED');
    assert.ok(capped.dueAt > first.dueAt && capped.dueAt < first.dueAt + 300000);
    assert.equal((await q.inspect('d')).record.payload, 'v2');
    await assert.rejects(q.enqueue('d', { delay: 60000 }, { onDuplicate: 'debounce' }),
      (e) => e instanceof InvalidInputException && e.field === 'debounceMaxWaitMs');
  });

  await t.test('a batch answers in input order across shards and calls', async () => {
    const tasks = [...Array.from({ length: 1300 }, (_, i) => ({ id: `t-${i}`, delay: 3600000, payload: String(i) })), { id: 't-5' }];
    const results = await q.enqueueMany(tasks);
    assert.deepEqual(results.map((r) => r.id), tasks.map((t2) => t2.id));
    assert.deepEqual(results.map((r) => r.status), [...Array(1300).fill('ADDED'), 'DUPLICATE']);
    assert.equal((await q.stats()).scheduled, 1300);
  });

  await t.test('the enqueue writes the marker that wakes a sleeping worker', async () => {
    const r = await q.enqueue('soon', { delay: 5000 });
    assert.equal(Number(await admin.zscore(`dq:{orders:${protocol.shardOf('soon', 4)}}:marker`, 'next')), r.dueAt);
  });

  await t.test('scripts are sent again after the script cache is flushed', async () => {
    await q.enqueue('first');
    await admin.script('FLUSH');
    assert.equal((await q.enqueue('second')).status, 'ADDED');
    await admin.script('FLUSH');
    assert.equal((await q.stats()).due, 2);
  });

  await t.test('meta mismatches fail loudly', async () => {
    await assert.rejects(DelayQueue.connect(redis.url, { queue: 'orders', shards: 8 }),
      (e) => e instanceof ShardCountMismatchException && e.recorded === 4);
    await admin.hset('dq:{v1}:meta', { shards: 4, protocol: 1 });
    await assert.rejects(DelayQueue.connect(redis.url, { queue: 'v1', shards: 4 }),
      (e) => e instanceof ProtocolVersionMismatchException && /uses delayq protocol version 1 in Redis/.test(e.message));
    assert.deepEqual(await admin.hgetall('dq:{orders}:meta'), { shards: '4', protocol: '2' });
  });

  await t.test('replica acks fail after the write when no replica confirms; a retry answers duplicate', async () => {
    const acked = await DelayQueue.connect(redis.url, { queue: 'orders', shards: 4, replicaAcks: 1, replicaAckTimeoutMs: 50 });
    try {
      await assert.rejects(acked.enqueue('w-1', { payload: 'x' }),
        (e) => e instanceof ReplicaAckException && e.required === 1 && e.acknowledged === 0 && e.results[0].status === 'ADDED');
      assert.equal((await q.inspect('w-1')).state, 'SCHEDULED');
      await admin.script('FLUSH'); // the NOSCRIPT path of the pipelined EVALSHA + WAIT
      await assert.rejects(acked.enqueue('w-1'), (e) => e instanceof ReplicaAckException && e.results[0].status === 'DUPLICATE');
    } finally {
      await acked.close();
    }
  });
  await t.test('a grown queue is followed after the shards refuse the old epoch; strays under the old count are found', async () => {
    const differs = (prefix) => {
      for (let n = 0; ; n += 1) if (protocol.shardOf(`${prefix}${n}`, 4) !== protocol.shardOf(`${prefix}${n}`, 8)) return `${prefix}${n}`;
    };
    const acked = await DelayQueue.connect(redis.url, { queue: 'orders', shards: 4, replicaAcks: 1, replicaAckTimeoutMs: 50 });
    try {
      // what core's mover leaves after growing 4 to 8 shards: the meta's layout fields and every shard's stamp
      await admin.hset('dq:{orders}:meta', { shards: 8, layout: 2, layouts: '4,8' });
      for (let s = 0; s < 8; s += 1) await admin.hset(`dq:{orders:${s}}:layout`, 'stamp', '2 8 0');
      assert.equal(q.layout.epoch, 0);
      const moved = differs('m-');
      assert.equal((await q.enqueue(moved, { delay: 60000 })).status, 'ADDED');
      assert.deepEqual([q.layout.epoch, q.shards, [...q.layout.history]], [2, 8, [4, 8]]);
      assert.notEqual(await admin.zscore(`dq:{orders:${protocol.shardOf(moved, 8)}}:due`, moved), null);
      assert.equal((await q.enqueue(moved)).status, 'DUPLICATE');
      const stray = differs('s-');
      await admin.zadd(`dq:{orders:${protocol.shardOf(stray, 4)}}:due`, 1, stray);
      const info = await q.inspect(stray);
      assert.deepEqual([info.state, info.shard], ['SCHEDULED', protocol.shardOf(stray, 4)]);
      assert.equal(await q.cancel(stray), 'CANCELLED');
      assert.equal((await q.stats()).shards.length, 8);
      // the replica-ack path is refused and follows too
      await assert.rejects(acked.enqueue(stray), (e) => e instanceof ReplicaAckException && e.results[0].status === 'ADDED');
      assert.equal((await acked.inspect(stray)).shard, protocol.shardOf(stray, 8));
      const old = await DelayQueue.connect(redis.url, { queue: 'orders', shards: 4 });
      assert.equal(old.layout.epoch, 2);
      await old.close();
      await assert.rejects(DelayQueue.connect(redis.url, { queue: 'orders', shards: 16 }), (e) => e instanceof ShardCountMismatchException
        && e.message === "shards: queue 'orders' has 8 shards in Redis (dq:{orders}:meta) and never had 16, the count this client is "
          + "configured with; use 8 (or a count the queue had before a reshard): the client reads the queue's layout from Redis "
          + 'and follows it, and the count changes only through a reshard (delayq reshard orders --to N)');
    } finally {
      await acked.close();
    }
  });
});
