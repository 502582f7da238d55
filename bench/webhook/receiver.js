// A fast local webhook receiver for the benchmark: node's http module with keep-alive. Answers 200 after
// DELAY_MS (0 = at once), records each delivery's lag (arrival - the task's dueAt, wall clock ms) and
// answers GET /stats with {count, p50, p99, max} since the last GET /reset. Prints "listening <port>".
const http = require('http');
const delay = Number(process.argv[2] || 0);
let lags = [];
const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    if (req.url === '/reset') { lags = []; res.end('ok'); return; }
    if (req.url === '/count') { res.end(String(lags.length)); return; }
    const sorted = Float64Array.from(lags).sort();
    const q = p => sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] : -1;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ count: sorted.length, p50: q(0.5), p99: q(0.99), max: sorted.length ? sorted[sorted.length - 1] : -1 }));
    return;
  }
  const chunks = [];
  req.on('data', c => chunks.push(c));
  req.on('end', () => {
    const now = Date.now();
    try { lags.push(now - JSON.parse(Buffer.concat(chunks)).dueAt); } catch (e) { /* counted as nothing */ }
    const answer = () => { res.statusCode = 200; res.end('ok'); };
    if (delay > 0) setTimeout(answer, delay); else answer();
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
