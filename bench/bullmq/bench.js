'use strict';
// BullMQ side of the delayq benchmark. The Java harness (io.delayq.bench.BullMqSubject) starts
//   node bench.js redis://127.0.0.1:PORT
// and drives it with one JSON command per line on stdin; every command is answered with one JSON
// line on stdout (logs go to stderr), so the harness can read Redis' INFO right before and after
// each phase. Tasks are BullMQ delayed jobs; handlers do nothing; completed jobs are removed
// (removeOnComplete), as delayq deletes a task on its ack.
const { Queue, Worker } = require('bullmq');
const readline = require('readline');
const { performance } = require('perf_hooks');

const url = new URL(process.argv[2] || 'redis://127.0.0.1:6379');
const connection = { host: url.hostname, port: Number(url.port), maxRetriesPerRequest: null };
const QUEUE = 'bench';
const nowMicros = () => (performance.timeOrigin + performance.now()) * 1000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (...a) => console.error('[bullmq]', ...a);

let queue;

/** Adds n jobs with addBulk, 1,000 per call and 4 calls in flight; job(i) builds the i-th. */
async function addAll(n, job) {
  const t0 = performance.now();
  const chunk = 1000;
  const inFlight = [];
  for (let from = 0; from < n; from += chunk) {
    const jobs = [];
    for (let i = from; i < Math.min(n, from + chunk); i++) jobs.push(job(i));
    inFlight.push(queue.addBulk(jobs));
    if (inFlight.length >= 4) await inFlight.shift();
  }
  await Promise.all(inFlight);
  return { ms: performance.now() - t0 };
}

async function w1enqueue({ n }) {
  // due 1 ms after the add: every job goes through BullMQ's delayed set and is due at once
  return addAll(n, (i) => ({ name: 't', data: i, opts: { delay: 1, removeOnComplete: true } }));
}

function newWorker(concurrency, onHandled, onCompleted) {
  const worker = new Worker(QUEUE, async (job) => { onHandled(job.data); }, {
    connection, concurrency, autorun: false,
  });
  worker.on('completed', (job) => onCompleted(job.data));
  worker.on('error', (e) => log('worker error', e.message));
  return worker;
}

async function w1drain({ n, concurrency }) {
  const seen = new Uint8Array(n);
  let handled = 0, completed = 0, dups = 0, first = -1, lastHandled = -1, lastCompleted = -1;
  let done;
  const finished = new Promise((r) => { done = r; });
  const worker = newWorker(concurrency, (i) => {
    const t = performance.now();
    if (first < 0) first = t;
    lastHandled = t;
    handled++;
    if (seen[i]) dups++; else seen[i] = 1;
  }, () => {
    completed++;
    lastCompleted = performance.now();
    if (completed >= n) done();
  });
  worker.run();
  const timeout = sleep(600000).then(() => 'timeout');
  const outcome = await Promise.race([finished, timeout]);
  await worker.close();
  return { firstToLastHandledMs: lastHandled - first, firstToLastAckedMs: lastCompleted - first, handled, completed, dups, timedOut: outcome === 'timeout' };
}

async function w2({ rate, seconds, maxDelayMs, concurrency, seed, graceMs }) {
  const n = rate * seconds;
  const due = new Float64Array(n);
  const firstMicros = new Float64Array(n).fill(-1);
  let handled = 0, completed = 0, dups = 0, distinct = 0;
  let allDone;
  const finished = new Promise((r) => { allDone = r; });
  const worker = newWorker(concurrency, (i) => {
    handled++;
    if (firstMicros[i] >= 0) { dups++; return; }
    firstMicros[i] = nowMicros();
    distinct++;
  }, () => {
    completed++;
    if (completed >= n) allDone();
  });
  worker.run();
  await worker.waitUntilReady();
  let rnd = seed >>> 0;
  const random = () => { rnd = (rnd * 1664525 + 1013904223) >>> 0; return rnd / 4294967296; };
  const start = performance.now();
  const adds = [];
  let next = 0;
  while (next < n) {
    const elapsed = performance.now() - start;
    while (next < n && next * 1000 / rate <= elapsed) {
      const delay = Math.floor(random() * (maxDelayMs + 1));
      const dueAt = Date.now() + delay;
      due[next] = dueAt;
      adds.push(queue.add('t', next, { delay, removeOnComplete: true }));
      next++;
    }
    await sleep(1);
  }
  await Promise.all(adds);
  const timeout = sleep(maxDelayMs + graceMs).then(() => 'timeout');
  await Promise.race([finished, timeout]);
  const lagsMicros = new Array(n);
  for (let i = 0; i < n; i++) lagsMicros[i] = firstMicros[i] < 0 ? -1 : Math.round(firstMicros[i] - due[i] * 1000);
  // answered at once so the harness reads Redis' counters now; w2stop counts late duplicates
  w2running = { worker, dups: () => dups };
  return { n, handled, completed, distinct, dups, lagsMicros };
}

let w2running;

async function w2stop() {
  await sleep(1000);
  const { worker, dups } = w2running;
  await worker.close();
  w2running = undefined;
  return { dups: dups() };
}

async function memory({ n, payload, ids }) {
  return addAll(n, (i) => ({ name: 't', data: payload, opts: { delay: 86400000, jobId: ids + String(i).padStart(9, '0') } }));
}

const commands = { w1enqueue, w1drain, w2, w2stop, memory };

async function main() {
  queue = new Queue(QUEUE, { connection });
  await queue.waitUntilReady();
  const rl = readline.createInterface({ input: process.stdin });
  const reply = (o) => process.stdout.write(JSON.stringify(o) + '\n');
  reply({ ready: true, bullmq: JSON.parse(require('fs').readFileSync(require('path').join(__dirname, 'node_modules/bullmq/package.json'), 'utf8')).version, node: process.version });
  for await (const line of rl) {
    if (!line.trim()) continue;
    const msg = JSON.parse(line);
    if (msg.cmd === 'quit') break;
    try {
      const fn = commands[msg.cmd];
      if (!fn) throw new Error('unknown command ' + msg.cmd);
      reply({ ok: true, ...(await fn(msg)) });
    } catch (e) {
      reply({ ok: false, error: String(e && e.stack || e) });
    }
  }
  await queue.close();
  process.exit(0);
}

main().catch((e) => { log(e); process.exit(1); });
