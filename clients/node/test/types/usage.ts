// Compiled by test/types.test.js with `tsc --noEmit --strict`: the README's example and every result type,
// so that index.d.ts cannot drift from what the library answers without a test failing.
import { DelayQueue, DuplicatePolicy, LayoutChangedException, Outbox, Priority, ShardCountMismatchException, type EnqueueResult, type Layout, type TaskInfo } from 'delayq';

async function example(): Promise<void> {
  const orders = await DelayQueue.connect('redis://localhost:6379', { queue: 'orders', shards: 16 });
  try {
    const r: EnqueueResult = await orders.enqueue('order-8812', { delay: 30 * 60_000, payload: '{"action":"cancel-if-unpaid"}' });
    if (r.status === 'DUPLICATE') console.log('already scheduled, due at', new Date(r.dueAt));
    await orders.enqueue('payout-W-17', { dueAt: new Date('2026-12-03T09:00:00Z'), priority: Priority.HIGH },
      { onDuplicate: DuplicatePolicy.KEEP_EARLIER });
    const many: EnqueueResult[] = await orders.enqueueMany([{ id: 'coupon-C-9', dueAt: Date.UTC(2026, 11, 31, 23, 59) }]);
    await orders.enqueue('capture-P1', { payload: '{}', maxAttempts: 10, backoff: 2_000, backoffMax: 600_000, backoffMultiplier: 3,
      expiresAt: new Date('2027-01-01T00:00:00Z'), onExpiry: 'discard', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
    console.log(many.length, (await orders.reschedule('order-8812', { delay: 45 * 60_000 })).status);
    const info: TaskInfo = await orders.inspect('payout-W-17');
    console.log(info.state, info.score, info.record?.payload, info.progress?.percent, info.progress?.note, info.completion?.result, info.completion?.finishedAt, (await orders.cancel('order-8812')) === 'CANCELLED');
    const stats = await orders.stats();
    console.log(stats.due, stats.shards[0].oldestOverdueMillis);
    const layout: Layout = orders.layout;
    const spoken: 2 | 3 = orders.protocolVersion;
    console.log(spoken);
    console.log(layout.epoch, layout.migrating ? layout.from : layout.shards, layout.history.join(','), layout.lookupOrder('order-8812'));
  } catch (e) {
    if (e instanceof ShardCountMismatchException) console.error(e.recorded, e.message);
    if (e instanceof LayoutChangedException) console.error('retry later:', e.message);
    throw e;
  } finally {
    await orders.close();
  }
}

/** The outbox helpers on a node-postgres client (structurally typed: the library needs no driver). */
async function outboxExample(client: { query(text: string, values?: unknown[]): Promise<unknown> }): Promise<void> {
  const orders = new Outbox('orders', { maxPayloadBytes: 65536 });
  await client.query('BEGIN');
  await client.query("INSERT INTO orders (id, status) VALUES ($1, 'unpaid')", [8812]);
  await orders.enqueue(client, 'order-8812-timeout', { delay: 30 * 60_000, payload: '{"action":"cancel-if-unpaid"}', dedup: 'once' });
  await orders.enqueue(client, 'report-T-1', { dueAt: new Date('2027-01-01T00:00:00Z'), group: 'tenant-1', maxAttempts: 3 });
  await orders.reschedule(client, 'order-8812-timeout', { delay: 45 * 60_000 });
  await orders.cancel(client, 'order-8812-timeout');
  await client.query('COMMIT');
  console.log(orders.queue);
}

void example;
void outboxExample;

import { Calendar, afterBusinessDays, rollForward } from 'delayq';

async function businessDays(): Promise<void> {
  const payouts = await DelayQueue.connect('redis://localhost:6379', { queue: 'payouts', shards: 16 });
  try {
    const cal: Calendar | null = await payouts.calendar('de-bank');
    const fallback = Calendar.of('de-bank', 'Europe/Berlin', ['MON', 'TUE', 'WED', 'THU', 'FRI'], ['2026-12-25']);
    const due: Date = afterBusinessDays(cal ?? fallback, new Date(), 3, '10:00');
    await payouts.enqueue('payout-W-17', { dueAt: due });
    await payouts.enqueue('payout-W-18', { dueAt: rollForward(fallback, Date.now()) });
  } finally {
    await payouts.close();
  }
}

void businessDays;

/** A queue created as protocol 2 (the default is 3); the option is 2 | 3. */
async function protocol2Queue(): Promise<void> {
  const classic = await DelayQueue.connect('redis://localhost:6379', { queue: 'classic', shards: 4, protocolForNewQueues: 2 });
  const spoken: 2 | 3 = classic.protocolVersion;
  console.log(spoken);
  await classic.close();
}

void protocol2Queue;
