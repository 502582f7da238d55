'use strict';
// Business calendars: the shared vectors (the same answers as core's Java), validation by field, and reading a
// calendar that another client stored in Redis.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Calendar, DelayQueue, InvalidInputException, afterBusinessDays, rollForward } = require('../lib');
const { calendarsKey } = require('../lib/calendar');
const { startRedis } = require('./redis-server');

const VECTORS = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'protocol-vectors.json'), 'utf8'));

function calendars() {
  const out = {};
  for (const c of VECTORS.calendars) {
    const cal = Calendar.fromJson(JSON.stringify(c));
    assert.equal(cal.toJson(), JSON.stringify(c));
    out[cal.name] = cal;
  }
  return out;
}

test('due times are the vectors', () => {
  const cals = calendars();
  assert.ok(VECTORS.businessTime.length > 30);
  for (const v of VECTORS.businessTime) {
    const cal = cals[v.calendar];
    const due = v.op === 'afterBusinessDays'
      ? afterBusinessDays(cal, new Date(v.from), v.businessDays, v.time)
      : rollForward(cal, new Date(v.at));
    assert.equal(due.toISOString().replace('.000Z', 'Z'), v.due, v.why);
  }
});

test('invalid calendars are refused with core\'s messages', () => {
  for (const v of VECTORS.invalidCalendars) {
    assert.throws(() => Calendar.fromJson(JSON.stringify(v.calendar)),
      (e) => e instanceof InvalidInputException && e.field === v.field && e.message === v.message, JSON.stringify(v.calendar));
  }
});

test('bad counts, times and too many holidays name their field', () => {
  const cal = Calendar.of('x', 'UTC');
  assert.throws(() => afterBusinessDays(cal, Date.now(), 1001, '10:00'), { message: 'businessDays: must be 0 to 1000, got 1001' });
  assert.throws(() => afterBusinessDays(cal, Date.now(), 1, '24:00'), (e) => e.field === 'time');
  const many = Array.from({ length: 1001 }, (_, i) => `${2000 + i}-01-01`);
  assert.throws(() => Calendar.fromJson(JSON.stringify({ name: 'x', timeZone: 'UTC', weekdays: ['MON'], holidays: many })),
    { message: 'holidays: must hold at most 1000 dates, got 1001' });
});

test('a calendar stored in canonical form is read by the client', async (t) => {
  const redis = await startRedis();
  if (!redis) {
    t.skip('redis-server is not on PATH (Debian: apt-get install redis-server)');
    return;
  }
  t.after(() => redis.stop());
  const stored = VECTORS.calendars[0];
  await redis.admin.hset(calendarsKey('payouts'), stored.name, JSON.stringify(stored));
  const q = await DelayQueue.connect(redis.url, { queue: 'payouts', shards: 2 });
  try {
    const cal = await q.calendar(stored.name);
    assert.equal(await q.calendar('absent'), null);
    const due = afterBusinessDays(cal, new Date('2026-12-23T12:00:00Z'), 1, '10:00');
    await q.enqueue('payout-1', { dueAt: due });
    assert.equal((await q.inspect('payout-1')).score, Date.parse('2026-12-28T09:00:00Z'));
  } finally {
    await q.close();
  }
});
