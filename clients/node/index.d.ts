// Types of the delayq Node.js producer (hand-written; the library is plain CommonJS).
import type { Redis, Cluster } from 'ioredis';

export declare const PROTOCOL_VERSION: 2;

export declare const DuplicatePolicy: {
  readonly REJECT: 'reject';
  readonly REPLACE: 'replace';
  readonly KEEP_EARLIER: 'keep-earlier';
};
export type DuplicatePolicy = (typeof DuplicatePolicy)[keyof typeof DuplicatePolicy];

export declare const Priority: { readonly NORMAL: 0; readonly HIGH: 1; readonly HIGHEST: 2 };
export type Priority = 0 | 1 | 2;

/** When a task is due: after `delay` ms measured on the Redis server's clock, or at `dueAt`; neither: now. */
export interface TaskOptions {
  delay?: number;
  dueAt?: Date | number;
  /** Any UTF-8 text (often JSON), at most `maxPayloadBytes` bytes. */
  payload?: string | null;
  priority?: Priority;
  /**
   * The task's group (a tenant: claimed fairly against other groups, under their rate limit): 1 to 64 ASCII letters,
   * digits and `- _ . : @ /`; priority 0 only. Stored in the record (the JSON form), on protocol 2 and 3 alike.
   */
  group?: string;
  /** Not run if not started by then (the worker judges on the Redis clock); must be after the due time. */
  expiresAt?: Date | number;
  /** What happens then: into the dead-letter set (default) or deleted. Needs `expiresAt`. */
  onExpiry?: 'dead-letter' | 'discard';
  /** Attempts before the dead-letter set (1-1000), instead of the worker's DELAYQ_RETRY_MAX_ATTEMPTS. */
  maxAttempts?: number;
  /** First retry delay in ms (0 to 30 days), instead of DELAYQ_RETRY_BACKOFF_INITIAL. */
  backoff?: number;
  /** Longest retry delay in ms, instead of DELAYQ_RETRY_BACKOFF_MAX. */
  backoffMax?: number;
  /** Growth of the delay per attempt (1-100), instead of DELAYQ_RETRY_BACKOFF_MULTIPLIER. */
  backoffMultiplier?: number;
  /**
   * W3C trace context to record; by default the active span's, when `@opentelemetry/api` is installed
   * beside this library. The worker's delivery span joins that trace.
   */
  traceparent?: string;
  tracestate?: string;
  /** Dedup window in ms (1 ms to 30 days): after the task is acked, cancelled or dead-lettered, its id is refused (WINDOW) for this long. */
  dedupWindow?: number;
  /** With onDuplicate 'debounce': the longest (ms, 1 ms to 30 days) a burst of enqueues may push the due time from its first enqueue. */
  debounceMaxWait?: number;
}

export interface Task extends TaskOptions {
  /** Non-empty, at most 256 bytes of UTF-8; the task's idempotency key. */
  id: string;
}

export type EnqueueStatus = 'ADDED' | 'DUPLICATE' | 'REPLACED' | 'EARLIER' | 'KEPT' | 'INFLIGHT' | 'DEAD' | 'WINDOW';
export type CancelResult = 'CANCELLED' | 'IN_FLIGHT' | 'UNKNOWN';
export type RescheduleStatus = 'RESCHEDULED' | 'IN_FLIGHT' | 'DEAD' | 'UNKNOWN';
export type TaskState = 'SCHEDULED' | 'IN_FLIGHT' | 'DEAD' | 'SUCCEEDED' | 'UNKNOWN';

export interface EnqueueResult {
  id: string;
  status: EnqueueStatus;
  /** Due time afterwards (epoch ms, server clock); for INFLIGHT / DEAD the lease expiry / time of death. */
  dueAt: number;
}

export interface RescheduleResult {
  status: RescheduleStatus;
  dueAt: number;
}

export interface TaskRecord {
  payload: string | null;
  enqueuedAt: number | null;
  priority: Priority;
}

export interface TaskInfo {
  id: string;
  shard: number;
  state: TaskState;
  /** Due time when SCHEDULED, lease expiry when IN_FLIGHT, time of death when DEAD, finish time when SUCCEEDED; -1 when UNKNOWN. */
  score: number;
  priority: Priority;
  attempts: number;
  lastError: string | null;
  rawRecord: string | null;
  record: TaskRecord | null;
  serverNow: number;
  /** What the handler of an IN_FLIGHT task last reported; null when it reported nothing, and in every other state. */
  progress: TaskProgress | null;
  /**
   * The completion record kept after an ack while the queue keeps results (DELAYQ_RESULTS_KEEP): the task's own when
   * SUCCEEDED, an earlier run's beside a task of the same id enqueued again; null when none is kept.
   */
  completion: TaskCompletion | null;
}

/** What is kept of a task after its ack while the queue keeps results. */
export interface TaskCompletion {
  /** When it finished (epoch ms, Redis clock). */
  finishedAt: number;
  attempts: number;
  /** How long its handler ran. */
  handlerMs: number;
  /** The worker that acked it. */
  worker: string;
  /** At most 1 KiB of what the handler set, a webhook answered or the stream entry's id. */
  result: string;
  /** The result was longer and is its first bytes. */
  truncated: boolean;
}

/** How far a running task has got, as its handler last reported it. */
export interface TaskProgress {
  /** 0 to 100. */
  percent: number;
  /** "" when none. */
  note: string;
  /** When the worker wrote it (epoch ms, Redis clock). */
  at: number;
}

export interface ShardStats {
  shard: number;
  serverNow: number;
  scheduled: number;
  due: number;
  inflight: number;
  dead: number;
  oldestDueAt: number;
  oldestOverdueMillis: number;
}

export interface QueueStats {
  queue: string;
  shards: ShardStats[];
  scheduled: number;
  due: number;
  inflight: number;
  dead: number;
  oldestOverdueMillis: number;
}

export interface ClientOptions {
  /** Lower-case DNS label, at most 40 characters. */
  queue: string;
  /** 1 to 1024, and equal to the queue's count in `dq:{queue}:meta`. */
  shards: number;
  /** Default 65536. */
  maxPayloadBytes?: number;
  /** Per command, default 10000 ms. */
  timeoutMs?: number;
  /** Replicas that must hold each enqueue (WAIT after it); 0 (default) = off. */
  replicaAcks?: number;
  /** Default 500 ms; shorter than `timeoutMs`. */
  replicaAckTimeoutMs?: number;
  /** A PEM CA file for rediss:// (else DELAYQ_REDIS_TLS_CA, else Node's trust store). */
  tlsCa?: string;
  /**
   * The protocol the queue is recorded with if this client creates it (its meta hash is absent): 2 or 3. Default: the
   * environment variable DELAYQ_PROTOCOL (2 or 3), else 3 (docs/protocol3.md). An existing queue keeps the protocol its
   * meta records, whatever this says. Any other value rejects with InvalidInputException (field `protocolForNewQueues`).
   */
  protocolForNewQueues?: 2 | 3;
}

export declare class DelayQueue {
  /** Connects to redis://, rediss://, redis-cluster:// or rediss-cluster:// and checks the queue's meta. */
  static connect(url: string, options: ClientOptions): Promise<DelayQueue>;
  /** Wraps an existing ioredis client or cluster, which it will not close. */
  static create(redis: Redis | Cluster, options: Omit<ClientOptions, 'tlsCa'>): Promise<DelayQueue>;
  readonly queue: string;
  /** The queue's current shard count, as last read from its meta hash (it grows with a reshard). */
  readonly shards: number;
  /** The queue's layout as last read from its meta hash (re-read whenever a shard answers LAYOUT). */
  readonly layout: Layout;
  /**
   * The protocol the queue's meta records, as last read: 3 for a queue recorded as protocol 3 (docs/protocol3.md; what
   * this library records for a queue it creates, unless asked for 2), spoken to with protocol 3's scripts, or 2.
   */
  readonly protocolVersion: 2 | 3;
  readonly redis: Redis | Cluster;
  shardOf(id: string): number;
  /** The queue's business calendar of that name (dq:{q}:calendars), or null. */
  calendar(name: string): Promise<Calendar | null>;
  enqueue(id: string, task?: TaskOptions, options?: { onDuplicate?: DuplicatePolicy }): Promise<EnqueueResult>;
  enqueueMany(tasks: Task[], options?: { onDuplicate?: DuplicatePolicy }): Promise<EnqueueResult[]>;
  cancel(id: string): Promise<CancelResult>;
  reschedule(id: string, when: { delay?: number; dueAt?: Date | number }): Promise<RescheduleResult>;
  inspect(id: string): Promise<TaskInfo>;
  stats(): Promise<QueueStats>;
  close(): Promise<void>;
}

export declare class DelayQueueException extends Error {}
export declare class InvalidInputException extends DelayQueueException {
  readonly field: string;
  readonly rule: string;
}
/** A shard count the queue never had; a count it had before a reshard is accepted and the layout in Redis followed. */
export declare class ShardCountMismatchException extends DelayQueueException {
  readonly queue: string;
  readonly configured: number;
  readonly recorded: number;
}
export declare class ProtocolVersionMismatchException extends DelayQueueException {
  readonly queue: string;
  readonly supported: number;
  readonly recorded: number;
}
export declare class ReplicaAckException extends DelayQueueException {
  readonly shard: number;
  readonly required: number;
  readonly acknowledged: number;
  /** What the primary answered for each task of the call. */
  readonly results: EnqueueResult[];
}
export declare class MalformedRecordException extends DelayQueueException {}
/** The layout kept changing, or a task stayed in a stopped mover's hands, for 10 s; nothing was written. */
export declare class LayoutChangedException extends DelayQueueException {}

/** A queue's shard layout (docs/protocol.md, "Layouts and resharding"). */
export declare class Layout {
  /** 0 before any reshard; +1 when a migration starts, +1 when it ends. */
  readonly epoch: number;
  /** The current count (during a migration already the new one). */
  readonly shards: number;
  /** 0 outside a migration, else the count it grows from. */
  readonly from: number;
  /** Every count the queue had, oldest first. */
  readonly history: readonly number[];
  readonly migrating: boolean;
  shardOf(id: string): number;
  oldShardOf(id: string): number;
  lookupOrder(id: string): number[];
}

/** What an outbox enqueue meets when a task with the same id is already in Redis (the `dedup` column). */
export type OutboxDedup = 'reject' | 'replace' | 'keep-earlier' | 'future-only' | 'once';

/**
 * The caller's database connection: a node-postgres `Client` or a pool's checked-out client (`await pool.connect()`),
 * or anything with `query(text, values)` and `$n` placeholders. Not a `pg.Pool`: its rows would commit on their own.
 */
export interface OutboxClient {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/** An outbox enqueue: the client's task options (a delay counts from the transaction's now()), a dedup policy and a group. */
export interface OutboxEnqueueOptions extends TaskOptions {
  /** Default 'reject'; 'once' for ids that are never reused (order timeouts). */
  dedup?: OutboxDedup;
  /** The task's group key: 1 to 64 ASCII letters, digits and `- _ . : @ /`; priority 0 only. */
  group?: string;
}

/**
 * Task operations of one queue written to the delayq outbox table in the caller's transaction (docs/outbox.md):
 * they reach Redis through the relay if and only if that transaction commits. Never sends BEGIN, COMMIT or
 * ROLLBACK; bad input rejects with InvalidInputException before anything is sent.
 */
export declare class Outbox {
  /** `maxPayloadBytes`: the relay's (default 65536). */
  constructor(queue: string, options?: { maxPayloadBytes?: number });
  readonly queue: string;
  readonly maxPayloadBytes: number;
  enqueue(client: OutboxClient, id: string, options?: OutboxEnqueueOptions): Promise<void>;
  cancel(client: OutboxClient, id: string): Promise<void>;
  reschedule(client: OutboxClient, id: string, when?: { delay?: number; dueAt?: Date | number }): Promise<void>;
}

export declare function decodeRecord(stored: string | null): TaskRecord;
export declare function shardOf(id: string, shards: number): number;
export declare function bucketOf(id: string): number;
export declare const scripts: Readonly<Record<string, { name: string; source: string; sha: string }>>;

/** A business calendar: working weekdays (0 = Monday … 6 = Sunday) in a time zone, minus holidays (docs/business-days.md). */
export declare class Calendar {
  readonly name: string;
  readonly timeZone: string;
  readonly weekdays: readonly number[];
  /** Days since 1970-01-01, sorted. */
  readonly holidays: readonly number[];
  /** weekdays: 'MON' … 'SUN' (default Monday to Friday); holidays: 'YYYY-MM-DD'. */
  static of(name: string, timeZone: string, weekdays?: string[], holidays?: string[]): Calendar;
  static fromJson(text: string): Calendar;
  /** The canonical JSON stored in dq:{q}:calendars. */
  toJson(): string;
  isBusinessDay(daysSinceEpoch: number): boolean;
}
/** At `time` ('HH:MM' or 'HH:MM:SS') on the `days`-th business day after `from`'s day. */
export declare function afterBusinessDays(calendar: Calendar, from: Date | number, days: number, time: string): Date;
/** `at` if it falls on a business day, else the start of the next business day. */
export declare function rollForward(calendar: Calendar, at: Date | number): Date;
