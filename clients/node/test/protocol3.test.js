'use strict';
// The client on a queue whose meta records protocol 3 (docs/protocol3.md), against a real redis-server: every call
// speaks protocol 3's scripts, answers as on protocol 2, and leaves its tasks in protocol 3's keys (buckets, their
// indexes, the id index; a grouped task its group's buckets); a protocol-2 queue keeps protocol 2's keys.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {
  DelayQueue, DuplicatePolicy, Priority, InvalidInputException, ProtocolVersionMismatchException, ReplicaAckException, scripts, protocol,
} = require('..');
const p3 = require('../lib/protocol3');
const { startRedis } = require('./redis-server');

const CORE_LUA = path.resolve(__dirname, '..', '..', '..', 'src', 'main', 'resources', 'delayq', 'lua');
const SHARDS = 4;

// ---- protocol 3's layout, as p3/include/buckets.lua writes it ----

const WINDOW_MS = 100;
const MINUTE_MS = 60000;
const b36 = (n, width = 0) => n.toString(36).padStart(width, '0');
const levelSuffix = (level) => (level > 0 ? `.p${level}` : '');

/** The first waiting bucket of a task due at `due`: a window's, or a minute's for a task due 10 minutes or more ahead. */
function bucketOf(due, { coarse = false, level = 0 } = {}) {
  const start = due - (due % (coarse ? MINUTE_MS : WINDOW_MS));
  return {
    name: `${coarse ? 'c' : 'w'}${b36(start)}${levelSuffix(level)}:0`,
    index: coarse ? 'cidx' : ['idx', 'idx1', 'idx2'][level],
    start,
    offsetDigits: coarse ? 4 : 2,
  };
}

test('indexBucket is crc32(id) % 2039, as core computes it', () => {
  // zlib.crc32(id.encode()) % 2039
  assert.deepEqual(['order-8812', 'a', 'ünïcödé-7'].map(p3.indexBucket), [1153, 1225, 1920]);
});

test('the enqueue\'s arguments: no policy for reject\'s short path, then per task id, ix bucket, timing, millis, record, level; epoch and where last', () => {
  const task = { id: 'a', timing: 'at', ms: 1796119200000, payload: 'x', priority: 1, options: {} };
  assert.equal(p3.enqueueScript('reject'), 'p3/enqueue');
  assert.deepEqual(p3.enqueueArgs('reject', [task], 36), ['1', 'a', '1225', 'at', '1796119200000', '110:x', '1', '0', '']);
  assert.equal(p3.enqueueScript('keep-earlier'), 'p3/enqueue_policy');
  assert.deepEqual(p3.enqueueArgs('keep-earlier', [task], 36, 7, true),
    ['keep-earlier', '1', 'a', '1225', 'at', '1796119200000', '110:x', '1', '7', 'present']);
});

test('the calls by id send the id, its ix bucket, the call\'s own arguments and the layout epoch, as protocol 2\'s do', () => {
  const { PROTOCOL_3_CALLS } = require('../lib/shard-calls');
  assert.deepEqual(PROTOCOL_3_CALLS.byId('orders', 1, 'cancel', 'a', [], 3), { script: 'p3/cancel', keys: ['dq:{orders:1}:'], args: ['a', '1225', '3'] });
  assert.deepEqual(PROTOCOL_3_CALLS.byId('orders', 1, 'reschedule', 'a', ['at', '99'], 3).args, ['a', '1225', 'at', '99', '3']);
  const task = { id: 'a', timing: 'in', ms: 5, payload: 'x', priority: 0, options: {} };
  assert.deepEqual(PROTOCOL_3_CALLS.enqueue('orders', 2, 'reject', [task], 36, 3, true).args.slice(-2), ['3', 'present']);
  assert.deepEqual(['absent', 'moving', 'cancelled'].map(p3.statusOf.cancel), ['unknown', 'moving', 'cancelled']);
});

test('protocol 3\'s scripts ship as p3/<name>, with helpers from p3/include/ before include/', { skip: !fs.existsSync(CORE_LUA) && 'core\'s scripts are not in this checkout' }, () => {
  const files = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.lua')).map((f) => f.slice(0, -4)).sort();
  const names = Object.keys(scripts);
  assert.deepEqual(names.filter((n) => n.startsWith('p3/')).sort(), files(path.join(CORE_LUA, 'p3')).map((n) => `p3/${n}`));
  assert.deepEqual(names.filter((n) => !n.startsWith('p3/')).sort(), files(CORE_LUA), 'protocol 2\'s names are unchanged');
  const helper = (dir) => fs.readFileSync(path.join(CORE_LUA, dir, 'dead.lua'), 'utf8');
  assert.notEqual(helper('p3/include'), helper('include'));
  assert.ok(scripts['p3/enqueue'].source.includes(helper('p3/include')), 'a helper of p3/include/ wins');
  assert.ok(!scripts['p3/enqueue'].source.includes(helper('include')));
  assert.ok(scripts['p3/enqueue'].source.includes(fs.readFileSync(path.join(CORE_LUA, 'include', 'crc32.lua'), 'utf8')), 'include/ is the fallback');
  assert.ok(scripts.claim.source.includes(helper('include')), 'protocol 2\'s scripts take include/ only');
});

test('against a real Redis, on a queue recorded as protocol 3', async (t) => {
  const redis = await startRedis();
  if (!redis) {
    t.skip('redis-server is not on PATH (Debian: apt-get install redis-server)');
    return;
  }
  const { admin, serverNow } = redis;
  /** Records the queue as core does on first use under DELAYQ_PROTOCOL=3: meta.lua with protocol 3. */
  const createProtocol3Queue = (queue) => admin.eval(scripts.meta.source, 1, protocol.metaKey(queue), String(SHARDS), '3');
  const prefixOf = (id, queue = 'orders') => p3.prefix(queue, protocol.shardOf(id, SHARDS));
  const indexed = async (id) => admin.hget(`${prefixOf(id)}ix:${p3.indexBucket(id)}`, id);
  /** The stored value of `id` in the bucket it should wait in, after checking the bucket is listed in its index. */
  const waitingValue = async (id, bucket) => {
    const P = prefixOf(id);
    assert.equal(Number(await admin.zscore(P + bucket.index, bucket.name)), bucket.start, `${bucket.name} is listed in ${bucket.index}`);
    return admin.hget(`${P}b:${bucket.name}`, id);
  };
  /** Claims a shard's due buckets with core's p3/claim.lua, as a worker does; answers the lease expiry. */
  const claim = async (id) => Number((await admin.eval(scripts['p3/claim'].source, 1, prefixOf(id), '10', '60000', '0', '0', `claim-${id}`, '0', '0'))[0]);

  let q;
  t.beforeEach(async () => {
    await admin.flushall();
    await createProtocol3Queue('orders');
    q = await DelayQueue.connect(redis.url, { queue: 'orders', shards: SHARDS });
  });
  t.afterEach(() => q.close());
  t.after(() => redis.stop());

  await t.test('the client speaks protocol 3 and leaves the meta as recorded', async () => {
    assert.equal(q.protocolVersion, 3);
    assert.deepEqual(await admin.hgetall(protocol.metaKey('orders')), { shards: String(SHARDS), protocol: '3' });
  });

  await t.test('an enqueue puts the task in its window\'s bucket and the id index, none in protocol 2\'s keys', async () => {
    const due = (await serverNow()) + 5000;
    assert.deepEqual(await q.enqueue('order-8812', { dueAt: due, payload: '{"action":"cancel"}' }), { id: 'order-8812', status: 'ADDED', dueAt: due });
    const bucket = bucketOf(due);
    const value = await waitingValue('order-8812', bucket);
    assert.equal(value.slice(0, bucket.offsetDigits), b36(due - bucket.start, bucket.offsetDigits));
    assert.deepEqual({ ...protocol.decodeRecord(value.slice(bucket.offsetDigits)), enqueuedAt: null }, { payload: '{"action":"cancel"}', enqueuedAt: null, priority: 0 });
    assert.equal(await indexed('order-8812'), b36(due));
    assert.equal(await admin.get(`${prefixOf('order-8812')}waiting`), '1');
    // protocol 2's due sets and record hash stay empty (the wake-up marker is shared by both protocols)
    const shard = protocol.shardOf('order-8812', SHARDS);
    const p2 = protocol.shardKeys('orders', shard).filter((k) => !k.endsWith(':marker'));
    assert.equal(await admin.exists(...p2, protocol.recordKey('orders', shard, 'order-8812')), 0);
    const info = await q.inspect('order-8812');
    assert.deepEqual([info.state, info.score, info.priority, info.attempts, info.shard, info.record.payload],
      ['SCHEDULED', due, 0, 0, shard, '{"action":"cancel"}']);
    assert.deepEqual(await q.enqueue('order-8812', { delay: 0 }), { id: 'order-8812', status: 'DUPLICATE', dueAt: due });
  });

  await t.test('the enqueue wakes a sleeping worker for the start of the earliest window', async () => {
    const due = (await serverNow()) + 5000;
    await q.enqueue('soon', { dueAt: due });
    assert.equal(Number(await admin.zscore(`${prefixOf('soon')}marker`, 'next')), bucketOf(due).start);
  });

  await t.test('priorities wait in their level\'s index; a task due 10 minutes or more ahead in its minute\'s bucket', async () => {
    const due = (await serverNow()) + 5000;
    await q.enqueueMany([{ id: 'high', dueAt: due, priority: Priority.HIGH }, { id: 'highest', dueAt: due, priority: Priority.HIGHEST }]);
    assert.ok(await waitingValue('high', bucketOf(due, { level: 1 })));
    assert.ok(await waitingValue('highest', bucketOf(due, { level: 2 })));
    const later = await q.enqueue('later', { delay: 30 * MINUTE_MS, priority: Priority.HIGH });
    const minute = bucketOf(later.dueAt, { coarse: true, level: 1 });
    assert.equal((await waitingValue('later', minute)).slice(0, 4), b36(later.dueAt - minute.start, 4));
    assert.deepEqual(await Promise.all(['high', 'highest', 'later'].map(async (id) => (await q.inspect(id)).priority)), [1, 2, 1]);
    assert.equal((await q.inspect('later')).score, later.dueAt);
  });

  await t.test('duplicate policies answer as on protocol 2, and the task moves to its new window', async () => {
    const now = await serverNow();
    assert.equal((await q.enqueue('a', { dueAt: now + 10000 })).status, 'ADDED');
    assert.deepEqual(await q.enqueue('a', { dueAt: now + 1 }), { id: 'a', status: 'DUPLICATE', dueAt: now + 10000 });
    assert.deepEqual(await q.enqueue('a', { dueAt: now + 5000 }, { onDuplicate: 'keep-earlier' }), { id: 'a', status: 'EARLIER', dueAt: now + 5000 });
    assert.deepEqual(await q.enqueue('a', { dueAt: now + 9000 }, { onDuplicate: DuplicatePolicy.KEEP_EARLIER }), { id: 'a', status: 'KEPT', dueAt: now + 5000 });
    assert.deepEqual(await q.enqueue('a', { dueAt: now + 20000, payload: 'new' }, { onDuplicate: DuplicatePolicy.REPLACE }),
      { id: 'a', status: 'REPLACED', dueAt: now + 20000 });
    assert.equal((await q.inspect('a')).record.payload, 'new');
    assert.equal(await indexed('a'), b36(now + 20000));
    assert.ok((await waitingValue('a', bucketOf(now + 20000))).endsWith(':new'));
    assert.equal(await admin.hget(`${prefixOf('a')}b:${bucketOf(now + 5000).name}`, 'a'), null, 'gone from its earlier window');
  });

  await t.test('debounce pushes the due time up to the burst\'s deadline', async () => {
    const first = await q.enqueue('d', { delay: 60000, payload: 'v1', debounceMaxWait: 300000 }, { onDuplicate: 'debounce' });
    assert.equal(first.status, 'ADDED');
    const capped = await q.enqueue('d', { delay: 1200000, payload: 'v2', debounceMaxWait: 300000 }, { onDuplicate: DuplicatePolicy.DEBOUNCE });
    assert.equal(capped.status, 'REPLACED');
    assert.ok(capped.dueAt > first.dueAt && capped.dueAt <= first.dueAt + 300000);
    const info = await q.inspect('d');
    assert.deepEqual([info.score, info.record.payload], [capped.dueAt, 'v2']);
    assert.equal(await indexed('d'), b36(capped.dueAt));
  });

  await t.test('a dedup window refuses the id after a cancel, in every policy', async () => {
    const now = await serverNow();
    assert.equal((await q.enqueue('w', { dueAt: now + 60000, dedupWindow: 3600000 })).status, 'ADDED');
    assert.equal(await q.cancel('w'), 'CANCELLED');
    for (const onDuplicate of ['reject', 'replace', 'keep-earlier']) {
      const r = await q.enqueue('w', { dueAt: now + 60000 }, { onDuplicate });
      assert.equal(r.status, 'WINDOW', onDuplicate);
      assert.ok(r.dueAt >= now + 3600000);
    }
  });

  await t.test('reschedule moves a waiting task to its new window; cancel removes it; unknown ids answer UNKNOWN', async () => {
    const now = await serverNow();
    const r = await q.enqueue('r', { dueAt: now + 5000, payload: 'p' });
    assert.deepEqual(await q.reschedule('r', { dueAt: now + 8000 }), { status: 'RESCHEDULED', dueAt: now + 8000 });
    assert.equal(await indexed('r'), b36(now + 8000));
    assert.ok((await waitingValue('r', bucketOf(now + 8000))).endsWith(':p'));
    assert.equal(await admin.hget(`${prefixOf('r')}b:${bucketOf(r.dueAt).name}`, 'r'), null);
    const delayed = await q.reschedule('r', { delay: 20 * MINUTE_MS });
    assert.equal(delayed.status, 'RESCHEDULED');
    assert.equal((await q.inspect('r')).score, delayed.dueAt);
    assert.deepEqual(await q.reschedule('nope', { delay: 1000 }), { status: 'UNKNOWN', dueAt: -1 });
    assert.equal(await q.cancel('r'), 'CANCELLED');
    assert.equal(await indexed('r'), null);
    assert.equal(await admin.exists(`${prefixOf('r')}b:${bucketOf(delayed.dueAt, { coarse: true }).name}`, `${prefixOf('r')}waiting`), 0);
    assert.equal(await q.cancel('r'), 'UNKNOWN');
    const info = await q.inspect('r');
    assert.deepEqual([info.state, info.score, info.record], ['UNKNOWN', -1, null]);
  });

  await t.test('a task in flight is left running by cancel, reschedule and replace, and inspected with its lease', async () => {
    await q.enqueue('busy', { payload: 'run me' });
    const expiry = await claim('busy');
    assert.ok(expiry > 0);
    const info = await q.inspect('busy');
    assert.deepEqual([info.state, info.score, info.attempts, info.record.payload], ['IN_FLIGHT', expiry, 1, 'run me']);
    assert.equal(await q.cancel('busy'), 'IN_FLIGHT');
    assert.deepEqual(await q.reschedule('busy', { delay: 1000 }), { status: 'IN_FLIGHT', dueAt: expiry });
    assert.deepEqual(await q.enqueue('busy', { delay: 1000 }, { onDuplicate: 'replace' }), { id: 'busy', status: 'INFLIGHT', dueAt: expiry });
    assert.equal((await q.stats()).inflight, 1);
  });

  await t.test('stats count protocol 3\'s buckets in protocol 2\'s answer', async () => {
    await q.enqueueMany([{ id: 'now-1' }, { id: 'now-2' }, { id: 'soon', delay: 60000 }, { id: 'later', delay: 3600000 }]);
    const before = await q.stats();
    assert.equal(before.shards.length, SHARDS);
    assert.deepEqual([before.scheduled, before.due, before.inflight, before.dead], [2, 2, 0, 0]);
    await claim('now-1');
    const claimed = ['now-1', 'now-2'].filter((id) => protocol.shardOf(id, SHARDS) === protocol.shardOf('now-1', SHARDS)).length;
    const after = await q.stats();
    assert.deepEqual([after.scheduled, after.due, after.inflight], [2, 2 - claimed, claimed]);
  });

  await t.test('a batch answers in input order across shards and calls', async () => {
    const tasks = [...Array.from({ length: 1300 }, (_, i) => ({ id: `t-${i}`, delay: 3600000, payload: String(i) })), { id: 't-5' }];
    const results = await q.enqueueMany(tasks);
    assert.deepEqual(results.map((r) => r.id), tasks.map((task) => task.id));
    assert.deepEqual(results.map((r) => r.status), [...Array(1300).fill('ADDED'), 'DUPLICATE']);
    assert.equal((await q.stats()).scheduled, 1300);
  });

  await t.test('a grouped task waits in its group\'s bucket of its window, listed in gidx and gx:<group>; its group in groups', async () => {
    const now = await serverNow();
    // a group key may hold ':' and '@': the scripts read the group between '#' and the last ':<k>'
    const tenant = 'tenant-1';
    const other = 'eu:acme@2/x';
    const first = now + 60000 + 17;
    const second = now + 120000 + 42;
    /** The bucket a task of group g due at `due` (within 10 minutes) waits in: 'w', the window's start, '#<g>', ':0'. */
    const groupBucket = (due, g) => {
      const start = due - (due % WINDOW_MS);
      return { name: `w${b36(start)}#${g}:0`, start };
    };
    const tasks = [['tenant-task-1', tenant, first], ['tenant-task-3', tenant, second], ['other-task', other, second]];
    const P = prefixOf('tenant-task-1');
    assert.deepEqual(tasks.map(([id]) => prefixOf(id)), [P, P, P], 'the grouped tasks share a shard');
    const results = await q.enqueueMany([
      { id: 'tenant-task-1', dueAt: first, group: tenant, payload: 'a' },
      { id: 'tenant-task-3', dueAt: second, group: tenant },
      { id: 'other-task', dueAt: second, group: other, maxAttempts: 3 },
      { id: 'plain-task', dueAt: first, payload: 'p' },
    ]);
    assert.deepEqual(results.map((r) => [r.status, r.dueAt]), [['ADDED', first], ['ADDED', second], ['ADDED', second], ['ADDED', first]]);
    for (const [id, g, due] of tasks) {
      const bucket = groupBucket(due, g);
      const value = await admin.hget(`${P}b:${bucket.name}`, id);
      assert.ok(value, `${id} waits in b:${bucket.name}`);
      assert.equal(value.slice(0, 2), b36(due - bucket.start, 2));
      const record = value.slice(2);
      assert.ok(record.startsWith('{') && JSON.parse(record).group === g, `${id}'s record (the JSON form) names its group: ${record}`);
      assert.equal(Number(await admin.zscore(`${P}gidx`, bucket.name)), bucket.start, `gidx lists ${bucket.name}`);
      assert.equal(Number(await admin.zscore(`${P}gx:${g}`, bucket.name)), bucket.start, `gx:${g} lists ${bucket.name}`);
      assert.equal(await indexed(id), b36(due));
    }
    assert.equal(await admin.zcard(`${P}gidx`), 3);
    assert.equal(await admin.zcard(`${P}gx:${tenant}`), 2);
    // each group in the rotation at its earliest window's start
    assert.deepEqual(await admin.zrange(`${P}groups`, 0, -1, 'WITHSCORES'),
      [tenant, String(groupBucket(first, tenant).start), other, String(groupBucket(second, other).start)]);
    // grouped tasks are in none of the indexes of ungrouped buckets; a task without a group waits as before
    for (const ix of ['idx', 'idx1', 'idx2', 'cidx']) {
      for (const name of await admin.zrange(P + ix, 0, -1)) {
        for (const [id] of tasks) assert.equal(await admin.hexists(`${P}b:${name}`, id), 0, `${id} in a bucket of ${ix}`);
      }
    }
    assert.ok((await waitingValue('plain-task', bucketOf(first))).endsWith(':p'));
    assert.equal(await admin.get(`${P}waiting`), '3');
    const info = await q.inspect('tenant-task-1');
    assert.deepEqual([info.state, info.score, info.priority, info.record.payload], ['SCHEDULED', first, 0, 'a']);

    // cancel: the task and its emptied window go, and its group's turn follows its next window
    const window1 = groupBucket(first, tenant).name;
    assert.equal(await q.cancel('tenant-task-1'), 'CANCELLED');
    assert.equal(await admin.exists(`${P}b:${window1}`), 0);
    assert.deepEqual([await admin.zscore(`${P}gidx`, window1), await admin.zscore(`${P}gx:${tenant}`, window1), await indexed('tenant-task-1')],
      [null, null, null]);
    assert.equal(Number(await admin.zscore(`${P}groups`, tenant)), groupBucket(second, tenant).start);
    // reschedule: the task moves to its group's bucket of its new window, and the group's turn with it
    const third = now + 180000 + 5;
    assert.deepEqual(await q.reschedule('other-task', { dueAt: third }), { status: 'RESCHEDULED', dueAt: third });
    assert.equal(await admin.exists(`${P}b:${groupBucket(second, other).name}`), 0);
    assert.ok((await admin.hget(`${P}b:${groupBucket(third, other).name}`, 'other-task')).includes(`"group":"${other}"`));
    assert.deepEqual(await admin.zrange(`${P}gx:${other}`, 0, -1, 'WITHSCORES'), [groupBucket(third, other).name, String(groupBucket(third, other).start)]);
    assert.equal(Number(await admin.zscore(`${P}groups`, other)), groupBucket(third, other).start);
    // a group's last task gone: gx:<group> and its place in groups go too
    for (const id of ['tenant-task-3', 'other-task']) assert.equal(await q.cancel(id), 'CANCELLED');
    assert.equal(await admin.exists(`${P}b:${groupBucket(second, tenant).name}`, `${P}b:${groupBucket(third, other).name}`,
      `${P}gx:${tenant}`, `${P}gx:${other}`, `${P}gidx`, `${P}groups`, `${P}waiting`), 0);
    assert.equal(await q.cancel('tenant-task-3'), 'UNKNOWN');
    assert.equal((await q.stats()).scheduled, 1);

    // a group still goes with priority 0 only, and its own rule holds, before anything of the batch is written
    await assert.rejects(q.enqueueMany([{ id: 'plain-2' }, { id: 'tenant-task-9', group: tenant, priority: Priority.HIGH }]),
      (e) => e instanceof InvalidInputException && e.field === 'group'
        && e.message === 'group: cannot be combined with priority 1: a grouped task has priority 0 (groups are served round robin, each in due-time order)');
    assert.equal((await q.inspect('plain-2')).state, 'UNKNOWN');
    await assert.rejects(q.enqueue('bad-group', { group: 'a b' }), (e) => e instanceof InvalidInputException && e.field === 'group' && /may hold only/.test(e.rule));
  });

  await t.test('replica acks wait after protocol 3\'s enqueue, also when the script is sent in full', async () => {
    const acked = await DelayQueue.connect(redis.url, { queue: 'orders', shards: SHARDS, replicaAcks: 1, replicaAckTimeoutMs: 50 });
    try {
      await assert.rejects(acked.enqueue('w-1', { payload: 'x' }), (e) => e instanceof ReplicaAckException && e.results[0].status === 'ADDED');
      assert.ok(await indexed('w-1'));
      await admin.script('FLUSH'); // the NOSCRIPT path of the pipelined EVALSHA + WAIT
      await assert.rejects(acked.enqueue('w-1', {}, { onDuplicate: 'keep-earlier' }),
        (e) => e instanceof ReplicaAckException && e.results[0].status === 'KEPT');
    } finally {
      await acked.close();
    }
  });

  await t.test('a queue recorded as protocol 2 (created with protocolForNewQueues: 2) keeps protocol 2\'s keys', async () => {
    const legacy = await DelayQueue.connect(redis.url, { queue: 'legacy', shards: SHARDS, protocolForNewQueues: 2 });
    try {
      assert.equal(legacy.protocolVersion, 2);
      assert.equal(await admin.hget(protocol.metaKey('legacy'), 'protocol'), '2');
      const r = await legacy.enqueue('order-1', { delay: 5000, payload: 'x' });
      const shard = protocol.shardOf('order-1', SHARDS);
      assert.equal(Number(await admin.zscore(protocol.shardKeys('legacy', shard)[0], 'order-1')), r.dueAt);
      assert.ok(await admin.hget(protocol.recordKey('legacy', shard, 'order-1'), 'order-1'));
      // a grouped task: its record names the group, and it waits in protocol 2's due set of its group
      const g = await legacy.enqueue('tenant-task-1', { delay: 5000, group: 'tenant-1' });
      const P = `dq:{legacy:${protocol.shardOf('tenant-task-1', SHARDS)}}:`;
      assert.equal(Number(await admin.zscore(`${P}group:tenant-1`, 'tenant-task-1')), g.dueAt);
      assert.equal(await admin.zscore(`${P}due`, 'tenant-task-1'), null);
      assert.equal(JSON.parse(await admin.hget(protocol.recordKey('legacy', protocol.shardOf('tenant-task-1', SHARDS), 'tenant-task-1'), 'tenant-task-1')).group,
        'tenant-1');
      assert.deepEqual(await admin.keys('dq:{legacy:*}:ix:*'), []);
      assert.deepEqual(await admin.keys('dq:{legacy:*}:b:*'), []);
      assert.equal((await legacy.stats()).scheduled, 2);
    } finally {
      await legacy.close();
    }
  });

  await t.test('a client of a protocol-2 queue speaks protocol 3 once a layout answer shows it upgraded', async () => {
    const upgraded = await DelayQueue.connect(redis.url, { queue: 'upgraded', shards: SHARDS, protocolForNewQueues: 2 });
    try {
      assert.equal(upgraded.protocolVersion, 2);
      // the meta records protocol 3, and the shards refuse the client's epoch: its next call re-reads the meta
      await admin.hset(protocol.metaKey('upgraded'), { protocol: 3, layout: 1 });
      for (let s = 0; s < SHARDS; s += 1) await admin.hset(`dq:{upgraded:${s}}:layout`, 'stamp', `1 ${SHARDS} 0`);
      assert.equal((await upgraded.enqueue('u-1', { delay: 5000 })).status, 'ADDED');
      assert.equal(upgraded.protocolVersion, 3);
      assert.ok(await admin.hget(`${p3.prefix('upgraded', protocol.shardOf('u-1', SHARDS))}ix:${p3.indexBucket('u-1')}`, 'u-1'));
    } finally {
      await upgraded.close();
    }
  });

  await t.test('a queue grown mid-way is followed: LAYOUT re-reads the meta, the old shard first, then earlier counts', async () => {
    // a 1-shard protocol-3 queue grows to 2 while a client of epoch 0 runs; ids whose shard under 2 is 1
    await admin.eval(scripts.meta.source, 1, protocol.metaKey('grows'), '1', '3');
    const [kept, fresh, later] = [...Array(100).keys()].map((n) => `g-${n}`).filter((id) => protocol.shardOf(id, 2) === 1);
    const held = (shard, id) => admin.hget(`${p3.prefix('grows', shard)}ix:${p3.indexBucket(id)}`, id);
    const stamp = async (value) => { for (const s of [0, 1]) await admin.hset(`dq:{grows:${s}}:layout`, 'stamp', value); };
    const old = await DelayQueue.connect(redis.url, { queue: 'grows', shards: 1 });
    try {
      assert.equal((await old.enqueue(kept, { delay: 300000, payload: 'k' })).status, 'ADDED');
      await admin.hset(protocol.metaKey('grows'), { shards: 2, layout: 1, layouts: '1,2', migration: '1 2' });
      await stamp('1 2 1');
      assert.equal((await old.enqueue(kept)).status, 'DUPLICATE'); // refused, then shard 0 with "present"
      assert.deepEqual([old.layout.epoch, old.shards], [1, 2]);
      assert.equal((await old.enqueue(fresh, { delay: 300000 })).status, 'ADDED'); // absent on shard 0: on shard 1
      assert.deepEqual([await held(0, fresh), typeof await held(1, fresh)], [null, 'string']);
      // the migration ends, the mover having left `kept` where it was (a stray under the earlier count)
      await admin.hset(protocol.metaKey('grows'), { layout: 2 });
      await admin.hdel(protocol.metaKey('grows'), 'migration');
      await stamp('2 2 0');
      assert.equal((await old.enqueue(later)).status, 'ADDED'); // refused on epoch 1, then on shard 1
      assert.equal(old.layout.epoch, 2);
      assert.equal(typeof await held(1, later), 'string');
      const info = await old.inspect(kept);
      assert.deepEqual([info.state, info.shard], ['SCHEDULED', 0]);
      assert.equal(await old.cancel(kept), 'CANCELLED');
      assert.equal(await held(0, kept), null);
    } finally {
      await old.close();
    }
  });

  // the protocol a new queue is recorded with: 3 by default, 2 by option or DELAYQ_PROTOCOL (unset for these tests)
  const recorded = (queue) => admin.hget(protocol.metaKey(queue), 'protocol');
  const opened = async (queue, opts = {}) => (await DelayQueue.connect(redis.url, { queue, shards: SHARDS, ...opts })).close();
  const withoutEnv = (fn) => async () => {
    const saved = process.env.DELAYQ_PROTOCOL;
    delete process.env.DELAYQ_PROTOCOL;
    try {
      await fn();
    } finally {
      if (saved === undefined) delete process.env.DELAYQ_PROTOCOL;
      else process.env.DELAYQ_PROTOCOL = saved;
    }
  };

  await t.test('a protocol this library does not speak is refused in core\'s words', withoutEnv(async () => {
    await admin.hset(protocol.metaKey('future'), { shards: SHARDS, protocol: 4 });
    // named as the version this client records for a new queue, as core's message does
    await assert.rejects(DelayQueue.connect(redis.url, { queue: 'future', shards: SHARDS }), (e) => e instanceof ProtocolVersionMismatchException
      && e.message === "protocol: queue 'future' uses delayq protocol version 4 in Redis, this client speaks version 3; the key layout and "
        + 'record format differ between versions, so every producer and worker of a queue must speak the same one');
    await assert.rejects(DelayQueue.connect(redis.url, { queue: 'future', shards: SHARDS, protocolForNewQueues: 2 }),
      (e) => e instanceof ProtocolVersionMismatchException && e.supported === 2 && e.message.includes('this client speaks version 2;'));
  }));

  await t.test('a queue created with no option is recorded as protocol 3, its first task in protocol 3\'s buckets', withoutEnv(async () => {
    const fresh = await DelayQueue.connect(redis.url, { queue: 'fresh', shards: SHARDS });
    try {
      assert.equal(await recorded('fresh'), '3');
      assert.equal(fresh.protocolVersion, 3);
      const due = (await serverNow()) + 5000;
      assert.equal((await fresh.enqueue('first', { dueAt: due, payload: 'p' })).status, 'ADDED');
      const P = prefixOf('first', 'fresh');
      const bucket = bucketOf(due);
      assert.equal(Number(await admin.zscore(P + bucket.index, bucket.name)), bucket.start);
      const value = await admin.hget(`${P}b:${bucket.name}`, 'first');
      assert.equal(protocol.decodeRecord(value.slice(bucket.offsetDigits)).payload, 'p');
      assert.equal(await admin.hget(`${P}ix:${p3.indexBucket('first')}`, 'first'), b36(due));
      const shard = protocol.shardOf('first', SHARDS);
      const p2 = protocol.shardKeys('fresh', shard).filter((k) => !k.endsWith(':marker'));
      assert.equal(await admin.exists(...p2, protocol.recordKey('fresh', shard, 'first')), 0);
    } finally {
      await fresh.close();
    }
  }));

  await t.test('protocolForNewQueues: 2 records protocol 2 (its task in protocol 2\'s due set), 3 records 3', withoutEnv(async () => {
    const classic = await DelayQueue.connect(redis.url, { queue: 'classic', shards: SHARDS, protocolForNewQueues: 2 });
    try {
      assert.deepEqual([await recorded('classic'), classic.protocolVersion], ['2', 2]);
      const r = await classic.enqueue('c-1', { delay: 5000 });
      assert.equal(Number(await admin.zscore(protocol.shardKeys('classic', protocol.shardOf('c-1', SHARDS))[0], 'c-1')), r.dueAt);
    } finally {
      await classic.close();
    }
    await opened('explicit', { protocolForNewQueues: 3 });
    assert.equal(await recorded('explicit'), '3');
  }));

  await t.test('an existing queue keeps the protocol its meta records, whatever the option says', withoutEnv(async () => {
    await opened('old', { protocolForNewQueues: 2 });
    const old = await DelayQueue.connect(redis.url, { queue: 'old', shards: SHARDS });
    assert.equal(old.protocolVersion, 2);
    await old.close();
    const again = await DelayQueue.connect(redis.url, { queue: 'orders', shards: SHARDS, protocolForNewQueues: 2 });
    assert.equal(again.protocolVersion, 3);
    await again.close();
    assert.deepEqual([await recorded('old'), await recorded('orders')], ['2', '3']);
  }));

  await t.test('DELAYQ_PROTOCOL picks it when the option is not given; the option wins', withoutEnv(async () => {
    process.env.DELAYQ_PROTOCOL = '2';
    await opened('by-env');
    await opened('option-wins', { protocolForNewQueues: 3 });
    process.env.DELAYQ_PROTOCOL = ' 3 ';
    await opened('by-env-3');
    assert.deepEqual([await recorded('by-env'), await recorded('option-wins'), await recorded('by-env-3')], ['2', '3', '3']);
    process.env.DELAYQ_PROTOCOL = '4';
    await assert.rejects(DelayQueue.connect(redis.url, { queue: 'refused', shards: SHARDS }), (e) => e instanceof InvalidInputException
      && e.field === 'DELAYQ_PROTOCOL' && e.message === "DELAYQ_PROTOCOL: must be 2 or 3, got '4'");
    assert.equal(await admin.exists(protocol.metaKey('refused')), 0);
  }));

  await t.test('a bad protocolForNewQueues is refused by name before anything connects or is written', withoutEnv(async () => {
    for (const [bad, shown] of [[4, '4'], [1, '1'], ['3', "'3'"], [true, 'true'], [2.5, '2.5']]) {
      await assert.rejects(DelayQueue.connect(redis.url, { queue: 'bad', shards: SHARDS, protocolForNewQueues: bad }),
        (e) => e instanceof InvalidInputException && e.field === 'protocolForNewQueues'
          && e.message === `protocolForNewQueues: must be 2 or 3, got ${shown}`);
    }
    // checked before connecting: named even where Redis is unreachable
    await assert.rejects(DelayQueue.connect('redis://127.0.0.1:1', { queue: 'bad', shards: SHARDS, protocolForNewQueues: 4 }),
      (e) => e instanceof InvalidInputException && e.message === 'protocolForNewQueues: must be 2 or 3, got 4');
    assert.equal(await admin.exists(protocol.metaKey('bad')), 0);
  }));
});
