'use strict';
// The delayq protocol, version 2, as pure functions: validation, shard math, keys, record encoding, and
// the argument and reply layouts of core's scripts. No I/O. Mirrors core's Java classes of the same job
// (Sharding, RecordBuckets, ShardKeys, TaskRecord, QueueProtocol); the interop tests hold them to the same answers.
const {
  InvalidInputException, MalformedRecordException,
} = require('./errors');

const PROTOCOL_VERSION = 2;
const MAX_PER_CALL = 500;
const MAX_SHARDS = 1024;
const MAX_ID_BYTES = 256;
const MAX_QUEUE_LENGTH = 40;
const RECORD_BUCKETS = 2039;
const MAX_EPOCH_MILLIS = 253402300799999; // 9999-12-31T23:59:59.999Z, exact as a double score
const DEFAULT_MAX_PAYLOAD_BYTES = 64 * 1024;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const QUEUE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const COMPACT_RULE = "task record must be JSON (starting with '{') or compact '<priority 0-2><enqueuedAt in base 36>:<payload>'";

// per-task options (core's TaskOptions)
const MIN_EPOCH_MILLIS = 946684800000; // 2000-01-01: an earlier "epoch ms" is almost surely seconds
const MAX_ATTEMPTS = 1000;
const MAX_BACKOFF_MS = 30 * 24 * 3600 * 1000;
const MAX_TRACESTATE = 512;
const MAX_GROUP_BYTES = 64;
const GROUP_CHAR = /^[A-Za-z0-9\-_.:@/]$/;
/** The record's option fields, in the order core writes them. */
const OPTION_FIELDS = ['expiresAt', 'onExpiry', 'maxAttempts', 'backoffMs', 'backoffMaxMs', 'backoffMultiplier', 'traceparent', 'tracestate',
  'group', 'dedupWindowMs', 'debounceMaxWaitMs'];
/** The longest dedup window and debounce wait (core's TaskOptions.MAX_WINDOW_MS, 30 days). */
const MAX_WINDOW_MS = 30 * 24 * 3600 * 1000;
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-[\s\S]*)?$/;

const DuplicatePolicy = Object.freeze({ REJECT: 'reject', REPLACE: 'replace', KEEP_EARLIER: 'keep-earlier', DEBOUNCE: 'debounce' });
const Priority = Object.freeze({ NORMAL: 0, HIGH: 1, HIGHEST: 2 });
const ENQUEUE_STATUS = {
  added: 'ADDED', duplicate: 'DUPLICATE', replaced: 'REPLACED', earlier: 'EARLIER', kept: 'KEPT', inflight: 'INFLIGHT', dead: 'DEAD',
  window: 'WINDOW',
};

// ---- validation (the Java client's rules and messages) ----

function isInt(v) {
  return typeof v === 'number' && Number.isInteger(v);
}

function utf8Length(text, field) {
  if (LONE_SURROGATE.test(text)) {
    throw new InvalidInputException(field, 'must be valid Unicode text (it holds a lone surrogate)');
  }
  return Buffer.byteLength(text, 'utf8');
}

function requireQueue(name) {
  if (typeof name !== 'string' || name === '') throw new InvalidInputException('queue', 'must not be empty');
  if (name.length > MAX_QUEUE_LENGTH) {
    throw new InvalidInputException('queue', `must be at most ${MAX_QUEUE_LENGTH} characters, got ${name.length}`);
  }
  if (!QUEUE.test(name)) {
    throw new InvalidInputException('queue',
      `must be a lower-case DNS label (a-z, 0-9 and '-', starting and ending with a letter or digit), got '${name}'`);
  }
  return name;
}

function requireShards(shards) {
  if (!isInt(shards) || shards < 1 || shards > MAX_SHARDS) {
    throw new InvalidInputException('shards', `must be between 1 and ${MAX_SHARDS}, got ${shards}`);
  }
  return shards;
}

function requireId(id) {
  if (id === undefined || id === null || id === '') throw new InvalidInputException('id', 'must not be empty');
  if (typeof id !== 'string') throw new InvalidInputException('id', `must be a string, got ${typeof id}`);
  const bytes = utf8Length(id, 'id');
  if (bytes > MAX_ID_BYTES) throw new InvalidInputException('id', `must be at most ${MAX_ID_BYTES} bytes of UTF-8, got ${bytes}`);
  return id;
}

function requirePriority(level) {
  if (!isInt(level) || level < 0 || level > 2) {
    throw new InvalidInputException('priority', `must be 0 (normal), 1 (high) or 2 (highest), got ${level}`);
  }
  return level;
}

function requirePayload(payload, maxBytes, limit = "the client's maxPayloadBytes") {
  if (payload === undefined || payload === null) return null;
  if (typeof payload !== 'string') throw new InvalidInputException('payload', `must be text (a string), got ${typeof payload}`);
  const bytes = utf8Length(payload, 'payload');
  if (bytes > maxBytes) {
    throw new InvalidInputException('payload', `must be at most ${maxBytes} bytes of UTF-8 (${limit}), got ${bytes}`);
  }
  return payload;
}

/** A task's group key (core's TaskGroup): 1 to 64 ASCII letters, digits and `- _ . : @ /`; null: no group. */
function requireGroup(group) {
  if (group === undefined || group === null) return null;
  if (typeof group !== 'string') throw new InvalidInputException('group', `must be a string, got ${typeof group}`);
  const bytes = utf8Length(group, 'group');
  const shown = `"${group.length > 40 ? `${group.slice(0, 40)}...` : group}"`;
  if (bytes === 0) {
    throw new InvalidInputException('group', `must be 1 to ${MAX_GROUP_BYTES} characters (ASCII letters, digits and - _ . : @ /), got an empty string`);
  }
  if (bytes > MAX_GROUP_BYTES) throw new InvalidInputException('group', `must be at most ${MAX_GROUP_BYTES} bytes, got ${bytes} (${shown})`);
  for (let i = 0; i < group.length; i++) {
    const c = group.charCodeAt(i);
    if (!GROUP_CHAR.test(group[i])) {
      const what = c < 0x20 || c > 0x7e ? `U+${c.toString(16).toUpperCase().padStart(4, '0')}` : `'${group[i]}'`;
      throw new InvalidInputException('group', `may hold only ASCII letters, digits and - _ . : @ /, got ${what} at offset ${i} of ${shown}`);
    }
  }
  return group;
}

/** A grouped task has priority 0 (core's TaskSpec): groups are served round robin, each in due-time order. */
function requireGroupPriority(group, priority) {
  if (group !== null && priority !== 0) {
    throw new InvalidInputException('group', `cannot be combined with priority ${priority}: a grouped task has priority 0 `
      + '(groups are served round robin, each in due-time order)');
  }
}

function requirePolicy(policy) {
  if (Object.values(DuplicatePolicy).includes(policy)) return policy;
  throw new InvalidInputException('duplicatePolicy',
    `must be one of reject, replace, keep-earlier, debounce, got ${policy === undefined || policy === null ? 'null' : JSON.stringify(policy)}`);
}

function dueAtMillis(dueAt) {
  let ms;
  let shown;
  if (dueAt instanceof Date) {
    ms = dueAt.getTime();
    shown = Number.isNaN(ms) ? 'Invalid Date' : dueAt.toISOString();
  } else if (isInt(dueAt)) {
    ms = dueAt;
    shown = `${dueAt} ms`;
  } else {
    throw new InvalidInputException('dueAt', `must be a Date or epoch milliseconds (an integer), got ${typeof dueAt === 'number' ? dueAt : typeof dueAt}`);
  }
  if (!(ms >= 0 && ms <= MAX_EPOCH_MILLIS)) {
    throw new InvalidInputException('dueAt', `must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, got ${shown}`);
  }
  return ms;
}

/**
 * The script's [timing, ms]: ['in', delay ms] (the due time is computed inside the script from the Redis
 * server's clock) or ['at', epoch ms]. Neither given means due now.
 */
function schedule(delay, dueAt, nowMs) {
  const hasDelay = delay !== undefined && delay !== null;
  const hasDueAt = dueAt !== undefined && dueAt !== null;
  if (hasDelay && hasDueAt) throw new InvalidInputException('schedule', 'give a delay or a due time (dueAt), not both');
  if (hasDueAt) return ['at', dueAtMillis(dueAt)];
  if (!hasDelay) return ['in', 0];
  if (typeof delay !== 'number' || !Number.isFinite(delay)) {
    throw new InvalidInputException('delay', `must be a number of milliseconds, got ${typeof delay === 'number' ? delay : typeof delay}`);
  }
  const ms = Math.floor(delay);
  if (ms < 0) throw new InvalidInputException('delay', `must not be negative, got ${ms} ms`);
  if (ms > MAX_EPOCH_MILLIS - nowMs) throw new InvalidInputException('delay', `puts the due time beyond 9999-12-31T23:59:59.999Z, got ${ms} ms`);
  return ['in', ms];
}

// ---- per-task options ----

/** Epoch ms as Java's Instant.toString writes it (the messages match core's). */
function instant(ms) {
  const iso = new Date(ms).toISOString(); // 2026-12-01T10:00:00.000Z
  return ms % 1000 === 0 ? `${iso.slice(0, 19)}Z` : iso;
}

/** Java's Double.toString for the numbers these messages show (1000 -> "1000.0"). */
const javaDouble = (m) => (Number.isInteger(m) ? `${m}.0` : String(m));

function traceparentProblem(value) {
  if (value === undefined || value === null) return 'must not be null';
  const text = String(value);
  const shown = text.length > 80 ? `${text.slice(0, 80)}...` : text;
  const m = typeof value === 'string' ? TRACEPARENT.exec(value) : null;
  if (!m) return `must be a W3C traceparent, 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags> in lower case, got "${shown}"`;
  if (m[1] === 'ff') return `version ff is invalid (W3C trace context), got "${shown}"`;
  if (m[1] === '00' && m[5] !== undefined) return `a version 00 traceparent is exactly 55 characters, got ${value.length}`;
  if (/^0+$/.test(m[2])) return 'trace id must not be all zeros';
  if (/^0+$/.test(m[3])) return 'parent id must not be all zeros';
  return null;
}

/** The record's option fields (core's names), checked with core's rules and messages; absent ones dropped. */
function requireOptions(options) {
  const o = {};
  for (const k of OPTION_FIELDS) if (options[k] !== undefined && options[k] !== null) o[k] = options[k];
  const at = o.expiresAt;
  if (at !== undefined && (!isInt(at) || at < MIN_EPOCH_MILLIS || at > MAX_EPOCH_MILLIS)) {
    const hint = isInt(at) && at > 0 && at < MIN_EPOCH_MILLIS / 100 ? ' (seconds instead of ms?)' : '';
    throw new InvalidInputException('expiresAt', `must be epoch milliseconds between 2000-01-01 and 9999-12-31 (${MIN_EPOCH_MILLIS} to ${MAX_EPOCH_MILLIS}), got ${at}${hint}`);
  }
  const n = o.maxAttempts;
  if (n !== undefined && (!isInt(n) || n < 1 || n > MAX_ATTEMPTS)) throw new InvalidInputException('maxAttempts', `must be 1 to ${MAX_ATTEMPTS}, got ${n}`);
  for (const field of ['backoffMs', 'backoffMaxMs']) {
    const ms = o[field];
    if (ms !== undefined && (!isInt(ms) || ms < 0 || ms > MAX_BACKOFF_MS)) {
      throw new InvalidInputException(field, `must be 0 to ${MAX_BACKOFF_MS} ms (30 days), got ${ms}`);
    }
  }
  for (const field of ['dedupWindowMs', 'debounceMaxWaitMs']) {
    const ms = o[field];
    if (ms !== undefined && (!isInt(ms) || ms < 1 || ms > MAX_WINDOW_MS)) {
      throw new InvalidInputException(field, `must be 1 to ${MAX_WINDOW_MS} ms (30 days), got ${ms}`);
    }
  }
  const m = o.backoffMultiplier;
  if (m !== undefined && (typeof m !== 'number' || !(m >= 1 && m <= 100))) {
    throw new InvalidInputException('backoffMultiplier', `must be a number from 1 to 100, got ${typeof m === 'number' ? javaDouble(m) : m}`);
  }
  if (o.backoffMs !== undefined && o.backoffMaxMs !== undefined && o.backoffMaxMs < o.backoffMs) {
    throw new InvalidInputException('backoffMaxMs', `must not be below backoffMs (${o.backoffMs}), got ${o.backoffMaxMs}`);
  }
  if (o.onExpiry !== undefined) {
    if (o.onExpiry !== 'dead-letter' && o.onExpiry !== 'discard') {
      throw new InvalidInputException('onExpiry', `must be "dead-letter" or "discard", got "${o.onExpiry}"`);
    }
    if (at === undefined) throw new InvalidInputException('onExpiry', 'needs an expiresAt');
    if (o.onExpiry === 'dead-letter') delete o.onExpiry; // the default: not stored, as core does
  }
  if (o.tracestate !== undefined && o.traceparent === undefined) throw new InvalidInputException('tracestate', 'needs a traceparent');
  if (o.traceparent !== undefined) {
    const problem = traceparentProblem(o.traceparent);
    if (problem) throw new InvalidInputException('traceparent', problem);
  }
  if (o.tracestate !== undefined) {
    const state = String(o.tracestate);
    if (state.length > MAX_TRACESTATE) throw new InvalidInputException('tracestate', `must be at most ${MAX_TRACESTATE} characters (the W3C limit), got ${state.length}`);
    const bad = [...state].findIndex((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) > 0x7e);
    if (bad >= 0) {
      throw new InvalidInputException('tracestate', `must be printable ASCII (W3C list of key=value), got character U+${state.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0')} at ${bad}`);
    }
    if (state === '') delete o.tracestate;
  }
  return o;
}

/** A window in ms; zero or negative ones are left to requireOptions, which names the window rule. */
function windowOption(value, field) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidInputException(field, `must be a number of milliseconds, got ${typeof value}`);
  return Math.floor(value);
}

/** The DEBOUNCE policy and a task's debounce wait go together: one without the other is refused. */
function requireDebounce(policy, prepared) {
  for (const p of prepared) {
    const waits = p.options.debounceMaxWaitMs !== undefined;
    if (policy === DuplicatePolicy.DEBOUNCE && !waits) {
      throw new InvalidInputException('debounceMaxWaitMs', `is required with the DEBOUNCE duplicate policy (task option debounceMaxWait), missing for task ${p.id}`);
    }
    if (policy !== DuplicatePolicy.DEBOUNCE && waits) {
      throw new InvalidInputException('duplicatePolicy', `must be DEBOUNCE for a task with a debounce wait (task ${p.id}), got ${policy}`);
    }
  }
}

function millisOption(value, field) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidInputException(field, `must be a number of milliseconds, got ${typeof value}`);
  if (value < 0) throw new InvalidInputException(field, `must not be negative, got ${Math.floor(value)} ms`);
  return Math.floor(value);
}

/**
 * The caller's active OpenTelemetry span as W3C fields, when @opentelemetry/api is installed beside this library and
 * a span is active (the worker's delivery span then joins that trace); {} otherwise.
 */
let otel;
function currentTrace() {
  if (otel === undefined) {
    try {
      otel = require('@opentelemetry/api'); // eslint-disable-line global-require
    } catch (e) {
      otel = null;
    }
  }
  if (!otel) return {};
  const carrier = {};
  otel.propagation.inject(otel.context.active(), carrier);
  return carrier.traceparent ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate } : {};
}

/** A task's per-task options as record fields, validated; the expiry is judged against the due time. */
function taskOptions(t, timing, ms, nowMs, trace) {
  let expiresAt;
  if (t.expiresAt !== undefined && t.expiresAt !== null) {
    try {
      expiresAt = dueAtMillis(t.expiresAt);
    } catch (e) {
      throw new InvalidInputException('expiresAt', e.message.slice('dueAt: '.length));
    }
  }
  const explicit = t.traceparent !== undefined && t.traceparent !== null;
  const o = requireOptions({
    expiresAt, onExpiry: t.onExpiry, maxAttempts: t.maxAttempts, backoffMs: millisOption(t.backoff, 'backoffMs'),
    backoffMaxMs: millisOption(t.backoffMax, 'backoffMaxMs'), backoffMultiplier: t.backoffMultiplier,
    traceparent: explicit ? t.traceparent : trace.traceparent, tracestate: explicit ? t.tracestate : (t.tracestate ?? trace.tracestate),
    dedupWindowMs: windowOption(t.dedupWindow, 'dedupWindowMs'), debounceMaxWaitMs: windowOption(t.debounceMaxWait, 'debounceMaxWaitMs'),
  });
  if (expiresAt !== undefined) {
    const [due, name] = timing === 'at' ? [ms, 'dueAt'] : [nowMs + ms, 'due time (now + delay)'];
    if (expiresAt <= due) {
      throw new InvalidInputException('expiresAt', `must be after the task's ${name} (${instant(due)}), got ${instant(expiresAt)}: the task would expire before it could run`);
    }
    if (expiresAt <= nowMs) throw new InvalidInputException('expiresAt', `is in the past (${instant(expiresAt)})`);
  }
  return o;
}

// ---- shard math and keys ----

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32/IEEE of the bytes (zlib's, Java's CRC32, Go's crc32.ChecksumIEEE), unsigned. */
function crc32(bytes) {
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function shardOf(id, shards) {
  return crc32(Buffer.from(id, 'utf8')) % shards;
}

/** The record hash of the id within its shard: h = (h * 31 + byte) mod 2^24, then h mod 2039. */
function bucketOf(id) {
  let h = 0;
  for (const b of Buffer.from(id, 'utf8')) h = (h * 31 + b) % 16777216;
  return h % RECORD_BUCKETS;
}

function metaKey(queue) {
  return `dq:{${queue}}:meta`;
}

/** KEYS[1..10] of every shard script, in include/shard_keys.lua's order. */
function shardKeys(queue, shard) {
  const k = `dq:{${queue}:${shard}}:`;
  return ['due', 'due:p1', 'due:p2', 'inflight', 'tasks', 'attempts', 'errors', 'dead', 'marker', 'rate'].map((s) => k + s);
}

function recordKey(queue, shard, id) {
  return `dq:{${queue}:${shard}}:tasks:${bucketOf(id)}`;
}

// ---- records ----

/**
 * Compact `<priority digit><enqueuedAt base 36>:<payload>` when there is a payload and no option, else the JSON
 * form (core's field order: payload, enqueuedAt, priority, then the options).
 */
function encodeRecord(payload, enqueuedAt, priority, options = {}) {
  const hasOptions = OPTION_FIELDS.some((k) => options[k] !== undefined && options[k] !== null);
  if (payload !== null && payload !== undefined && !hasOptions) return `${priority}${enqueuedAt.toString(36)}:${payload}`;
  const record = {};
  if (payload !== null && payload !== undefined) record.payload = payload;
  record.enqueuedAt = enqueuedAt;
  if (priority) record.priority = priority;
  for (const k of OPTION_FIELDS) if (options[k] !== undefined && options[k] !== null) record[k] = options[k];
  return JSON.stringify(record);
}

function decodeRecord(stored) {
  if (!stored) return { payload: null, enqueuedAt: null, priority: 0 };
  const first = stored[0];
  if (first === '{') {
    let obj;
    try {
      obj = JSON.parse(stored);
    } catch (e) {
      throw new MalformedRecordException(`task record is not valid JSON: ${e.message}`);
    }
    const p = typeof obj.priority === 'number' ? Math.max(0, Math.min(2, Math.floor(obj.priority))) : 0;
    return {
      payload: obj.payload === undefined || obj.payload === null ? null : String(obj.payload),
      enqueuedAt: typeof obj.enqueuedAt === 'number' ? obj.enqueuedAt : null,
      priority: p,
    };
  }
  if (!'012'.includes(first)) throw new MalformedRecordException(`${COMPACT_RULE}; it starts with '${first}'`);
  const colon = stored.indexOf(':', 1);
  if (colon < 0) throw new MalformedRecordException(`${COMPACT_RULE}; the ':' before the payload is missing`);
  const digits = stored.slice(1, colon);
  if (!/^[0-9a-zA-Z]+$/.test(digits)) {
    throw new MalformedRecordException(`${COMPACT_RULE}; enqueuedAt '${digits}' is not a base-36 number`);
  }
  return { payload: stored.slice(colon + 1), enqueuedAt: parseInt(digits, 36), priority: Number(first) };
}

// ---- script calls: arguments and replies ----

/** Validates a whole batch before anything is sent, so bad input never leaves half a batch written. */
function prepare(tasks, shards, maxPayloadBytes, nowMs) {
  if (!Array.isArray(tasks)) throw new InvalidInputException('tasks', 'must be an array of tasks');
  const trace = currentTrace();
  return tasks.map((t) => {
    if (t === null || typeof t !== 'object') throw new InvalidInputException('task', `must be an object {id, delay | dueAt, payload, priority}, got ${t}`);
    const id = requireId(t.id);
    const [timing, ms] = schedule(t.delay, t.dueAt, nowMs);
    const payload = requirePayload(t.payload, maxPayloadBytes);
    const priority = requirePriority(t.priority === undefined ? 0 : t.priority);
    const taskGroup = requireGroup(t.group);
    requireGroupPriority(taskGroup, priority);
    const options = taskOptions(t, timing, ms, nowMs, trace);
    // the record names the group (the JSON form); both protocols' enqueue scripts read it from there
    if (taskGroup !== null) options.group = taskGroup;
    return { id, shard: shardOf(id, shards), timing, ms, payload, priority, options };
  });
}

/** [shard, indexes] of each script call: grouped by shardOfIndex(index), at most MAX_PER_CALL per call. */
function group(indexes, shardOfIndex) {
  const byShard = new Map();
  for (const i of indexes) {
    const shard = shardOfIndex(i);
    if (!byShard.has(shard)) byShard.set(shard, []);
    byShard.get(shard).push(i);
  }
  const calls = [];
  for (const [shard, chunk] of byShard) {
    for (let from = 0; from < chunk.length; from += MAX_PER_CALL) calls.push([shard, chunk.slice(from, from + MAX_PER_CALL)]);
  }
  return calls;
}

/** [shard, input indexes] of each script call: grouped by shard, at most MAX_PER_CALL per call. */
function chunks(prepared) {
  return group(prepared.keys(), (i) => prepared[i].shard);
}

/**
 * enqueue.lua's ARGV; epoch: the caller's layout epoch; presentOnly: act only on ids the shard holds (the old shard
 * during a migration).
 */
function enqueueArgs(policy, tasks, enqueuedAt, epoch = 0, presentOnly = false) {
  const args = [policy, String(tasks.length)];
  for (const t of tasks) args.push(t.id, t.timing, String(t.ms), encodeRecord(t.payload, enqueuedAt, t.priority, t.options), String(t.priority));
  args.push(String(epoch), presentOnly ? 'present' : '');
  return args;
}

const int = (v) => (v === null || v === undefined ? 0 : Number(v));

/** {id, wire, dueAt} per task as enqueue.lua answered; wire also "absent" or "moving" (routed on, never an answer). */
function placed(reply, tasks) {
  return tasks.map((t, i) => ({ id: t.id, wire: reply[1 + 2 * i], dueAt: int(reply[2 + 2 * i]) }));
}

/** One final answer: {id, status, dueAt}. */
function enqueueResult({ id, wire, dueAt }) {
  const status = ENQUEUE_STATUS[wire];
  if (!status) throw new Error(`unknown enqueue result from Redis: ${wire}`);
  return { id, status, dueAt };
}

/** The final answers of a reply (a task answered "absent" or "moving" has none yet: left out). */
function parseEnqueue(reply, tasks) {
  return placed(reply, tasks).filter((p) => p.wire !== 'absent' && p.wire !== 'moving').map(enqueueResult);
}

/** The wire status of cancel.lua's, reschedule.lua's and inspect.lua's replies ("unknown" and "moving" are routed on). */
const statusOf = {
  cancel: (reply) => reply,
  reschedule: (reply) => reply[0],
  inspect: (reply) => reply[1],
};

function parseCancel(reply) {
  return { cancelled: 'CANCELLED', inflight: 'IN_FLIGHT' }[reply] || 'UNKNOWN';
}

function parseReschedule(reply) {
  return { status: { rescheduled: 'RESCHEDULED', inflight: 'IN_FLIGHT', dead: 'DEAD' }[reply[0]] || 'UNKNOWN', dueAt: int(reply[1]) };
}

/**
 * A progress entry as core's progress.lua writes it, `<at ms>|<percent>|<note>`: {percent, note, at}, or null for none
 * (a task not in flight, a handler that reported nothing, a foreign form).
 */
function parseProgress(stored) {
  if (typeof stored !== 'string') return null;
  const first = stored.indexOf('|');
  const second = first < 0 ? -1 : stored.indexOf('|', first + 1);
  if (second < 0) return null;
  const at = Number(stored.slice(0, first));
  const percent = Number(stored.slice(first + 1, second));
  if (!Number.isFinite(at) || !Number.isFinite(percent)) return null;
  return { percent, note: stored.slice(second + 1), at };
}

/**
 * A completion record as core's ack.lua keeps it while the queue keeps results,
 * `<finished ms>|<attempts>|<handler ms>|<truncated 0/1>|<worker>|<result>`: {finishedAt, attempts, handlerMs, worker,
 * result, truncated}, or null for none (or a foreign form).
 */
function parseCompletion(stored) {
  if (typeof stored !== 'string') return null;
  const parts = [];
  let from = 0;
  for (let i = 0; i < 5; i++) {
    const bar = stored.indexOf('|', from);
    if (bar < 0) return null;
    parts.push(stored.slice(from, bar));
    from = bar + 1;
  }
  const [finishedAt, attempts, handlerMs] = parts.slice(0, 3).map(Number);
  if (![finishedAt, attempts, handlerMs].every(Number.isFinite)) return null;
  return { finishedAt, attempts, handlerMs, worker: parts[4], result: stored.slice(from), truncated: parts[3] === '1' };
}

function parseInspect(reply, id, shard) {
  const rawRecord = reply[6] === null || reply[6] === undefined ? null : reply[6];
  return {
    id,
    shard,
    state: { scheduled: 'SCHEDULED', inflight: 'IN_FLIGHT', dead: 'DEAD', succeeded: 'SUCCEEDED' }[reply[1]] || 'UNKNOWN',
    score: int(reply[2]),
    priority: int(reply[3]),
    attempts: int(reply[4]),
    lastError: reply[5] === null || reply[5] === undefined ? null : reply[5],
    rawRecord,
    serverNow: int(reply[0]),
    progress: parseProgress(reply[7]),
    completion: parseCompletion(reply[8]),
  };
}

function parseStats(reply, shard) {
  const [serverNow, scheduled, due, inflight, dead, oldestDueAt] = reply.map(int);
  return {
    shard, serverNow, scheduled, due, inflight, dead, oldestDueAt,
    oldestOverdueMillis: oldestDueAt < 0 ? 0 : Math.max(0, serverNow - oldestDueAt),
  };
}

function queueStats(queue, shards) {
  const sum = (f) => shards.reduce((a, s) => a + s[f], 0);
  return {
    queue,
    shards,
    scheduled: sum('scheduled'),
    due: sum('due'),
    inflight: sum('inflight'),
    dead: sum('dead'),
    oldestOverdueMillis: shards.reduce((a, s) => Math.max(a, s.oldestOverdueMillis), 0),
  };
}

module.exports = {
  PROTOCOL_VERSION, MAX_PER_CALL, MAX_SHARDS, MAX_ID_BYTES, RECORD_BUCKETS, MAX_EPOCH_MILLIS, DEFAULT_MAX_PAYLOAD_BYTES,
  DuplicatePolicy, Priority,
  requireQueue, requireShards, requireId, requirePriority, requirePayload, requirePolicy, requireGroup, requireGroupPriority, schedule, dueAtMillis,
  taskOptions, currentTrace, requireDebounce, MAX_WINDOW_MS,
  crc32, shardOf, bucketOf, metaKey, shardKeys, recordKey, encodeRecord, decodeRecord, requireOptions, OPTION_FIELDS,
  prepare, group, chunks, enqueueArgs, placed, enqueueResult, parseEnqueue, statusOf, parseCancel, parseReschedule, parseInspect, parseProgress, parseCompletion, parseStats, queueStats,
};
