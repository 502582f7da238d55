// Compiled by test/types.test.js with `tsc --noEmit --strict`: the README's example and every result type,
// so that index.d.ts cannot drift from what the library answers without a test failing.
import { DelayQueue, DuplicatePolicy, LayoutChangedException, Priority, ShardCountMismatchException, type EnqueueResult, type Layout, type TaskInfo } from 'delayq';

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
    console.log(layout.epoch, layout.migrating ? layout.from : layout.shards, layout.history.join(','), layout.lookupOrder('order-8812'));
  } catch (e) {
    if (e instanceof ShardCountMismatchException) console.error(e.recorded, e.message);
    if (e instanceof LayoutChangedException) console.error('retry later:', e.message);
    throw e;
  } finally {
    await orders.close();
  }
}

void example;
