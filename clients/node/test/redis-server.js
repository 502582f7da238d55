'use strict';
// A real redis-server for the tests, on a free loopback port (never a mock).
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const Redis = require('ioredis');

function binary() {
  if (process.env.DELAYQ_REDIS_SERVER) return process.env.DELAYQ_REDIS_SERVER;
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Starts one; answers null when no redis-server is installed (the caller skips). */
async function startRedis() {
  const bin = binary();
  if (!bin) return null;
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delayq-node-redis-'));
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' });
  const deadline = Date.now() + 20000;
  let admin;
  while (!admin) {
    const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    probe.on('error', () => {}); // refused while the server starts: retried below
    try {
      await probe.connect();
      await probe.ping();
      admin = probe;
    } catch (e) {
      probe.disconnect();
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`redis-server did not start: ${e.message}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    admin,
    /** The server's clock in ms (TIME), which the scripts' due times are counted on. */
    async serverNow() {
      const [s, us] = await admin.time();
      return Number(s) * 1000 + Math.floor(Number(us) / 1000);
    },
    async stop() {
      admin.disconnect();
      child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

module.exports = { startRedis };
