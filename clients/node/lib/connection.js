'use strict';
// Redis URLs as delayq documents them, turned into ioredis clients:
// redis://[user:password@]host:port[/db], rediss://... (TLS),
// redis-cluster://[user:password@]host:port[,host:port...], rediss-cluster://... (TLS).
// A private CA for TLS comes from the tlsCa option or, as for the Java worker, DELAYQ_REDIS_TLS_CA.
const fs = require('node:fs');
const { InvalidInputException } = require('./errors');

/** The URL without its password, safe for logs and errors. */
function redact(url) {
  return url.replace(/:\/\/([^:/@]*):[^@/]*@/, '://$1:***@').replace(/:\/\/([^:/@]+)@/, '://***@');
}

function parse(url) {
  if (typeof url !== 'string' || url.trim() === '') {
    throw new InvalidInputException('redis', 'a Redis URL is required, e.g. redis://localhost:6379');
  }
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    return { url, cluster: false, tls: url.startsWith('rediss://'), nodes: [], username: null, password: null };
  }
  if (!url.startsWith('redis-cluster://') && !url.startsWith('rediss-cluster://')) {
    throw new InvalidInputException('redis', `must start with redis://, rediss://, redis-cluster:// or rediss-cluster://, got ${redact(url)}`);
  }
  let rest = url.slice(url.indexOf('://') + 3);
  let username = null;
  let password = null;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    const userInfo = rest.slice(0, at);
    rest = rest.slice(at + 1);
    const colon = userInfo.indexOf(':');
    if (colon >= 0) {
      username = decodeURIComponent(userInfo.slice(0, colon)) || null;
      password = decodeURIComponent(userInfo.slice(colon + 1));
    } else {
      password = decodeURIComponent(userInfo);
    }
  }
  const nodes = [];
  for (const raw of rest.split('/')[0].split(',')) {
    const host = raw.trim();
    if (!host) continue;
    const colon = host.lastIndexOf(':');
    const port = host.slice(colon + 1);
    if (colon <= 0 || !/^\d+$/.test(port)) {
      throw new InvalidInputException('redis', `a cluster node must be host:port, got '${host}' in ${redact(url)}`);
    }
    nodes.push({ host: host.slice(0, colon).replace(/^\[|\]$/g, ''), port: Number(port) });
  }
  if (nodes.length === 0) throw new InvalidInputException('redis', `a cluster URL needs at least one host:port: ${redact(url)}`);
  return { url, cluster: true, tls: url.startsWith('rediss-cluster://'), nodes, username, password: password || null };
}

function tlsOptions(endpoint, tlsCa) {
  if (!endpoint.tls) return undefined;
  const ca = tlsCa || process.env.DELAYQ_REDIS_TLS_CA;
  if (!ca) return {};
  try {
    return { ca: fs.readFileSync(ca) };
  } catch (e) {
    throw new InvalidInputException('DELAYQ_REDIS_TLS_CA', `must name a readable PEM file of CA certificates, got ${ca}`);
  }
}

function connect(endpoint, { timeoutMs, tlsCa }) {
  const Redis = require('ioredis');
  const common = { commandTimeout: timeoutMs, connectTimeout: Math.min(timeoutMs, 5000), maxRetriesPerRequest: 2 };
  const tls = tlsOptions(endpoint, tlsCa);
  if (tls) common.tls = tls;
  if (!endpoint.cluster) return new Redis(endpoint.url, common);
  const redisOptions = { ...common };
  if (endpoint.username) redisOptions.username = endpoint.username;
  if (endpoint.password) redisOptions.password = endpoint.password;
  return new Redis.Cluster(endpoint.nodes, { redisOptions, slotsRefreshTimeout: Math.min(timeoutMs, 5000) });
}

module.exports = { parse, connect, redact };
