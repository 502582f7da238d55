'use strict';
// The producer records the caller's active OpenTelemetry span (W3C traceparent / tracestate) in the task record,
// when @opentelemetry/api is installed beside the library; an explicit traceparent wins. Against a real Redis.
const test = require('node:test');
const assert = require('node:assert/strict');
const otel = require('@opentelemetry/api');
const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
const { W3CTraceContextPropagator } = require('@opentelemetry/core');
const { DelayQueue } = require('..');
const { startRedis } = require('./redis-server');

test('the active span\'s trace context is recorded in the task record', async (t) => {
  const redis = await startRedis();
  if (!redis) {
    t.skip('redis-server is not on PATH (Debian: apt-get install redis-server)');
    return;
  }
  otel.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  otel.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const q = await DelayQueue.connect(redis.url, { queue: 'orders', shards: 4 });
  t.after(async () => {
    await q.close();
    await redis.stop();
    otel.context.disable();
    otel.propagation.disable();
  });
  const span = otel.trace.wrapSpanContext({
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: otel.TraceFlags.SAMPLED,
    traceState: otel.createTraceState('congo=t61rcWkgMzE'),
  });
  await otel.context.with(otel.trace.setSpan(otel.context.active(), span), async () => {
    await q.enqueue('order-8812', { payload: 'x' });
    await q.enqueue('order-8813', { payload: 'x', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
  });
  await q.enqueue('order-8814', { payload: 'x' });

  const record = async (id) => JSON.parse((await q.inspect(id)).rawRecord);
  const traced = await record('order-8812');
  assert.equal(traced.traceparent, '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
  assert.equal(traced.tracestate, 'congo=t61rcWkgMzE');
  assert.equal(traced.payload, 'x');
  assert.equal((await record('order-8813')).traceparent, '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
  assert.equal((await record('order-8813')).tracestate, undefined);
  assert.match((await q.inspect('order-8814')).rawRecord, /^0[0-9a-z]+:x$/, 'no active span: the compact record, nothing recorded');
});
