'use strict';
// The protocol as pure functions: shared vectors, validation rules, batching and URLs; no Redis needed.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const protocol = require('../lib/protocol');
const { parse, redact } = require('../lib/connection');
const { InvalidInputException, MalformedRecordException } = require('../lib/errors');

const VECTORS = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'protocol-vectors.json'), 'utf8'));

function rule(field, message, fn) {
  assert.throws(fn, (e) => e instanceof InvalidInputException && e.field === field && e.message === `${field}: ${message}`);
}

test('shards and buckets match the shared vectors', () => {
  for (const v of VECTORS.ids) {
    assert.equal(protocol.crc32(Buffer.from(v.id, 'utf8')), v.crc32, v.id);
    assert.equal(protocol.bucketOf(v.id), v.bucket, v.id);
    for (const [n, shard] of Object.entries(v.shardOf)) assert.equal(protocol.shardOf(v.id, Number(n)), shard, `${v.id} of ${n}`);
  }
});

test('records are encoded and decoded as the vectors say', () => {
  for (const v of VECTORS.records) {
    assert.equal(protocol.encodeRecord(v.payload, v.enqueuedAt, v.priority), v.encoded);
    assert.deepEqual(protocol.decodeRecord(v.encoded), { payload: v.payload, enqueuedAt: v.enqueuedAt, priority: v.priority });
  }
  assert.deepEqual(protocol.decodeRecord('{"payload":"cancel-if-unpaid","enqueuedAt":1764460000000,"priority":1,"x":1}'),
    { payload: 'cancel-if-unpaid', enqueuedAt: 1764460000000, priority: 1 });
  assert.throws(() => protocol.decodeRecord('xyz'), MalformedRecordException);
});

test('records with options are encoded as the vectors say, and invalid options refused with core\'s messages', () => {
  assert.ok(VECTORS.recordsWithOptions.length > 2);
  for (const v of VECTORS.recordsWithOptions) {
    const t = v.task;
    assert.equal(protocol.encodeRecord(t.payload, t.enqueuedAt, t.priority, protocol.requireOptions(t)), v.encoded);
  }
  for (const v of VECTORS.invalidOptions) {
    assert.throws(() => protocol.requireOptions(v.options),
      (e) => e instanceof InvalidInputException && e.field === v.field && e.message === v.message, JSON.stringify(v.options));
  }
});

test('a task\'s options become record fields and its expiry is judged against its due time', () => {
  const now = 1764460000000;
  const tp = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const [p] = protocol.prepare([{
    id: 'pay-1', dueAt: now + 1000, payload: 'x', expiresAt: new Date(now + 3600000), onExpiry: 'discard', maxAttempts: 10,
    backoff: 2000, backoffMax: 600000, backoffMultiplier: 3, traceparent: tp,
  }], 16, 65536, now);
  assert.equal(protocol.encodeRecord(p.payload, now, p.priority, p.options),
    '{"payload":"x","enqueuedAt":1764460000000,"expiresAt":1764463600000,"onExpiry":"discard","maxAttempts":10,'
    + `"backoffMs":2000,"backoffMaxMs":600000,"backoffMultiplier":3,"traceparent":"${tp}"}`);
  const [plain] = protocol.prepare([{ id: 'pay-2', payload: 'x' }], 16, 65536, now);
  assert.equal(protocol.encodeRecord(plain.payload, now, 0, plain.options), '0mikxxdds:x');
  // a group is a record field (the JSON form), in core's order: after the trace context, before the windows
  const [grouped] = protocol.prepare([{ id: 'g', payload: '<&>', group: 'tenant-42', traceparent: tp, dedupWindow: 60000 }], 16, 65536, now);
  assert.equal(protocol.encodeRecord(grouped.payload, now, grouped.priority, grouped.options),
    `{"payload":"<&>","enqueuedAt":1764460000000,"traceparent":"${tp}","group":"tenant-42","dedupWindowMs":60000}`);
  const refused = (message, t) => assert.throws(() => protocol.prepare([{ id: 't', ...t }], 16, 65536, now),
    (e) => e instanceof InvalidInputException && e.message === message);
  refused("expiresAt: must be after the task's dueAt (2025-11-29T23:46:41Z), got 2025-11-29T23:46:40Z: the task would expire before it could run",
    { dueAt: now + 1000, expiresAt: now });
  refused("expiresAt: must be after the task's due time (now + delay) (2025-11-30T00:46:40Z), got 2025-11-29T23:56:40Z: the task would expire before it could run",
    { delay: 3600000, expiresAt: now + 600000 });
  refused('expiresAt: is in the past (2025-11-29T23:46:30Z)', { dueAt: now - 20000, expiresAt: now - 10000 });
  refused('backoffMs: must not be negative, got -1000 ms', { backoff: -1000 });
  refused('maxAttempts: must be 1 to 1000, got 0', { maxAttempts: 0 });
  refused('group: cannot be combined with priority 1: a grouped task has priority 0 (groups are served round robin, each in due-time order)',
    { group: 'tenant-42', priority: 1 });
  refused('group: may hold only ASCII letters, digits and - _ . : @ /, got \' \' at offset 6 of "tenant 42"', { group: 'tenant 42' });
});

test('ids, queues, shards, priorities and payloads follow the Java rules', () => {
  rule('id', 'must not be empty', () => protocol.requireId(''));
  rule('id', 'must be at most 256 bytes of UTF-8, got 258', () => protocol.requireId('é'.repeat(129)));
  assert.equal(protocol.requireId('é'.repeat(128)), 'é'.repeat(128));
  rule('queue', 'must be at most 40 characters, got 41', () => protocol.requireQueue('q'.repeat(41)));
  rule('queue', "must be a lower-case DNS label (a-z, 0-9 and '-', starting and ending with a letter or digit), got 'Orders'",
    () => protocol.requireQueue('Orders'));
  rule('shards', 'must be between 1 and 1024, got 0', () => protocol.requireShards(0));
  rule('priority', 'must be 0 (normal), 1 (high) or 2 (highest), got 3', () => protocol.requirePriority(3));
  rule('payload', "must be at most 4 bytes of UTF-8 (the client's maxPayloadBytes), got 6", () => protocol.requirePayload('ééé', 4));
});

test('a delay is sent as is for the script to add to the Redis clock; a due time as epoch ms', () => {
  assert.deepEqual(protocol.schedule(30 * 60000, undefined, 0), ['in', 1800000]);
  assert.deepEqual(protocol.schedule(undefined, undefined, 0), ['in', 0]);
  assert.deepEqual(protocol.schedule(undefined, new Date('2026-12-01T10:00:00Z'), 0), ['at', 1796119200000]);
  rule('delay', 'must not be negative, got -1000 ms', () => protocol.schedule(-1000, undefined, 0));
  rule('schedule', 'give a delay or a due time (dueAt), not both', () => protocol.schedule(1, 1, 0));
  rule('dueAt', 'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, got -1 ms', () => protocol.schedule(undefined, -1, 0));
});

test('a batch is checked whole and split per shard in calls of at most 500, in input order', () => {
  assert.throws(() => protocol.prepare([{ id: 'ok' }, { id: 'bad', priority: 7 }], 4, 100, 0), InvalidInputException);
  const prepared = protocol.prepare(Array.from({ length: 1200 }, (_, i) => ({ id: `t-${i}` })), 1, 100, 0);
  const calls = protocol.chunks(prepared);
  assert.deepEqual(calls.map(([, idx]) => idx.length), [500, 500, 200]);
  assert.deepEqual(calls.flatMap(([, idx]) => idx), [...Array(1200).keys()]);
});

test('the documented URL schemes, and bad URLs name the field without the password', () => {
  assert.equal(parse('redis://localhost:6379/2').cluster, false);
  assert.equal(parse('rediss://user:pw@redis.prod:6380').tls, true);
  const c = parse('rediss-cluster://app:s3cr%40t@10.0.0.1:7000, 10.0.0.2:7001');
  assert.deepEqual([c.cluster, c.tls, c.nodes, c.username, c.password],
    [true, true, [{ host: '10.0.0.1', port: 7000 }, { host: '10.0.0.2', port: 7001 }], 'app', 's3cr@t']);
  assert.throws(() => parse('http://localhost'), /^InvalidInputException: redis: must start with redis:\/\//);
  assert.throws(() => parse('redis-cluster://app:secret@nohostport'), (e) => e.field === 'redis' && !e.message.includes('secret'));
  assert.equal(redact('redis://app:secret@h:1'), 'redis://app:***@h:1');
});

test('where an id-addressed operation looks, before, during and after a grow (core\'s Layout)', () => {
  const { Layout, checkMeta } = require('../lib/layout');
  const differs = (prefix, same = false) => {
    for (let n = 0; ; n += 1) if ((protocol.shardOf(`${prefix}${n}`, 4) === protocol.shardOf(`${prefix}${n}`, 16)) === same) return `${prefix}${n}`;
  };
  assert.deepEqual({ ...Layout.fromMeta([4, 2]) }, { epoch: 0, shards: 4, from: 0, history: [4] });
  assert.deepEqual({ ...Layout.fromMeta([16, 2, 1, '4,16', '4 16', 3, 7]) }, { epoch: 1, shards: 16, from: 4, history: [4, 16] });
  const during = Layout.fromMeta([16, 2, 1, '4,16', '4 16']);
  const after = Layout.fromMeta([16, 2, 2, '4,16', '']);
  const id = differs('t-');
  const [oldShard, newShard] = [protocol.shardOf(id, 4), protocol.shardOf(id, 16)];
  assert.deepEqual(during.lookupOrder(id), [oldShard, newShard]);
  assert.equal(during.oldShardOf(id), oldShard);
  assert.deepEqual(after.lookupOrder(id), [newShard, oldShard]);
  assert.equal(after.oldShardOf(id), -1);
  const same = differs('s-', true);
  assert.equal(during.oldShardOf(same), -1);
  assert.deepEqual(during.lookupOrder(same), [protocol.shardOf(same, 16)]);
  assert.equal(checkMeta([16, 2, 2, '4,16', ''], 'orders', 4).shards, 16);
  assert.throws(() => checkMeta([16, 2, 2, '4,16', ''], 'orders', 8), /has 16 shards in Redis/);
  const p = protocol.prepare([{ id: 'a', payload: 'x' }], 4, 100, 1000);
  assert.deepEqual(protocol.enqueueArgs('reject', p, 1000, 3, true).slice(-2), ['3', 'present']);
  assert.deepEqual(protocol.enqueueArgs('reject', p, 1000).slice(-2), ['0', '']);
});
