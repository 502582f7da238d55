'use strict';
// A real PostgreSQL for the tests (never a mock): initdb in a temporary directory and postgres on a free loopback
// port, trust authentication for the user delayq, the outbox table made from the repository's own migration. The
// binaries come from Debian's /usr/lib/postgresql/15/bin or PATH (.ci/install-postgresql.sh); the driver is `pg`, a
// devDependency (npm ci). Without them the caller skips, and fails under CI=true. As root (PostgreSQL refuses to run
// as root) the server runs as the postgres user.
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const DEBIAN_BIN = '/usr/lib/postgresql/15/bin';
const MIGRATION = path.resolve(__dirname, '..', '..', '..', 'outbox', 'src', 'main', 'resources', 'db', 'migration', 'V1__delayq_outbox.sql');
const USER = 'delayq';

function binaries() {
  if (fs.existsSync(path.join(DEBIAN_BIN, 'initdb')) && fs.existsSync(path.join(DEBIAN_BIN, 'postgres'))) return DEBIAN_BIN;
  try {
    // a link on PATH would make initdb look for postgres beside the link
    const dir = path.dirname(fs.realpathSync(execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim()));
    return fs.existsSync(path.join(dir, 'postgres')) ? dir : null;
  } catch {
    return null;
  }
}

function driver() {
  try {
    return require('pg'); // eslint-disable-line global-require
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

/** Why the tests cannot run here, or null. */
function missing() {
  if (!driver()) return 'the pg driver is not installed (a devDependency: npm ci; run .ci/install-node-client.sh)';
  if (!fs.existsSync(MIGRATION)) return `the outbox migration is not at ${MIGRATION} (run the tests from a delayq checkout)`;
  if (!binaries()) return `PostgreSQL is not installed (no initdb in ${DEBIAN_BIN} or on PATH; run .ci/install-postgresql.sh)`;
  return null;
}

/** Starts one with the outbox table; answers null when it cannot (the caller skips, or fails under CI=true). */
async function startPostgres() {
  if (missing()) return null;
  const { Client } = driver();
  const bin = binaries();
  const runAs = process.getuid && process.getuid() === 0 ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--clear-groups', '--'] : [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delayq-node-pg-'));
  if (runAs.length) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  const cmd = (argv) => [...runAs, ...argv];
  const initdb = cmd([path.join(bin, 'initdb'), '-D', data, '-U', USER, '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
  execFileSync(initdb[0], initdb.slice(1), { stdio: 'pipe' });
  const port = await freePort();
  const log = fs.openSync(path.join(dir, 'postgres.log'), 'w');
  const server = cmd([path.join(bin, 'postgres'), '-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1',
    '-c', `unix_socket_directories=${dir}`, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']);
  const child = spawn(server[0], server.slice(1), { stdio: ['ignore', log, log] });
  const config = { host: '127.0.0.1', port, user: USER, database: 'postgres' };
  const connect = async () => {
    const c = new Client(config);
    await c.connect();
    return c;
  };
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGQUIT'); // immediate shutdown, nothing to keep
      await exited;
    }
    fs.closeSync(log);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30000;
  for (;;) {
    try {
      const c = await connect();
      await c.query(fs.readFileSync(MIGRATION, 'utf8'));
      await c.end();
      break;
    } catch (e) {
      if (Date.now() > deadline || child.exitCode !== null) {
        const why = fs.readFileSync(path.join(dir, 'postgres.log'), 'utf8');
        await stop();
        throw new Error(`postgres did not start: ${e.message}\n${why}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  /** One statement on a connection of its own (autocommit); answers its rows. */
  const run = async (sql, values) => {
    const c = await connect();
    try {
      return (await c.query(sql, values)).rows;
    } finally {
      await c.end();
    }
  };
  return { config, connect, run, stop, driver: driver() };
}

module.exports = { startPostgres, missing };
