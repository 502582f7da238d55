// Package delayq is a producer for delayq delay queues in Redis: it schedules, cancels, reschedules and inspects
// tasks that the Java worker fleet fires, with core's own Lua scripts (embedded at build time from
// src/main/resources/delayq/lua), so it gives exactly what the Java, Python and Node clients give. It records a queue
// it creates as protocol 3 (protocol3.go) unless Options.ProtocolForNewQueues or DELAYQ_PROTOCOL asks for 2, and speaks
// to an existing queue in the protocol its meta records (2 or 3).
package delayq

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gomodule/redigo/redis"
)

// Options configure a Queue. Queue and Shards are required; the rest have defaults.
type Options struct {
	Queue  string
	Shards int
	// MaxPayloadBytes bounds payloads (nil: DefaultMaxPayloadBytes).
	MaxPayloadBytes *int
	// Timeout bounds each command (0: 10 s).
	Timeout time.Duration
	// ReplicaAcks > 0 sends WAIT after each enqueue on the connection that wrote it and fails with ReplicaAckError
	// when fewer replicas confirmed within ReplicaAckTimeout (0: 500 ms).
	ReplicaAcks       int
	ReplicaAckTimeout time.Duration
	// TLSCA is a PEM file of CA certificates for rediss:// (default: DELAYQ_REDIS_TLS_CA, else the system's).
	TLSCA string
	// ProtocolForNewQueues is the protocol the queue is recorded with if this client creates it (its meta hash is
	// absent): ProtocolVersion (2) or BucketedProtocolVersion (3). 0: the environment variable DELAYQ_PROTOCOL (2 or
	// 3), else 3. It decides nothing for a queue that exists: the protocol its meta records does. Any other value fails
	// with InvalidInputError (field "protocolForNewQueues").
	ProtocolForNewQueues int
}

// ProtocolEnv is the environment variable that picks the protocol a new queue is recorded with when
// Options.ProtocolForNewQueues is 0, as core reads it: "2" or "3" (unset or blank: 3).
const ProtocolEnv = "DELAYQ_PROTOCOL"

type settings struct {
	queue             string
	shards            int
	maxPayloadBytes   int
	timeout           time.Duration
	replicaAcks       int
	replicaAckTimeout time.Duration
	// newQueueProtocol is the protocol a queue this client creates is recorded with (protocolForNewQueues).
	newQueueProtocol int
}

// protocolForNewQueues is the protocol a queue is recorded with when this client creates it, as core's
// QueueProtocol.protocolForNewQueues: the option when set (not 0), else DELAYQ_PROTOCOL, else 3 (docs/protocol3.md).
func protocolForNewQueues(asked int) (int, error) {
	if asked != 0 {
		if asked != ProtocolVersion && asked != BucketedProtocolVersion {
			return 0, invalid("protocolForNewQueues", "must be 2 or 3, got %d", asked)
		}
		return asked, nil
	}
	env := os.Getenv(ProtocolEnv)
	switch strings.TrimSpace(env) {
	case "":
		return BucketedProtocolVersion, nil
	case "2":
		return ProtocolVersion, nil
	case "3":
		return BucketedProtocolVersion, nil
	}
	return 0, invalid(ProtocolEnv, "must be 2 or 3, got '%s'", env)
}

func checkOptions(o Options) (settings, error) {
	s := settings{queue: o.Queue, shards: o.Shards, maxPayloadBytes: DefaultMaxPayloadBytes, timeout: o.Timeout,
		replicaAcks: o.ReplicaAcks, replicaAckTimeout: o.ReplicaAckTimeout}
	if err := requireQueue(o.Queue); err != nil {
		return s, err
	}
	if err := requireShards(o.Shards); err != nil {
		return s, err
	}
	if o.MaxPayloadBytes != nil {
		s.maxPayloadBytes = *o.MaxPayloadBytes
		if s.maxPayloadBytes < 1 || s.maxPayloadBytes > 512*1024*1024 {
			return s, invalid("maxPayloadBytes", "must be between 1 and 536870912, got %d", s.maxPayloadBytes)
		}
	}
	if s.timeout == 0 {
		s.timeout = 10 * time.Second
	}
	if s.timeout < 0 {
		return s, invalid("timeout", "must be positive (ms), got %d", s.timeout.Milliseconds())
	}
	if s.replicaAcks < 0 || s.replicaAcks > 100 {
		return s, invalid("replicaAcks.replicas", "must be between 1 and 100 (0: off), got %d", s.replicaAcks)
	}
	if s.replicaAckTimeout == 0 {
		s.replicaAckTimeout = 500 * time.Millisecond
	}
	if s.replicaAcks > 0 {
		if s.replicaAckTimeout < time.Millisecond {
			return s, invalid("replicaAcks.timeout", "must be at least 1 ms (WAIT 0 would block forever), got %d", s.replicaAckTimeout.Milliseconds())
		}
		if s.replicaAckTimeout >= s.timeout {
			return s, invalid("replicaAcks.timeout", "must be shorter than the client's timeout (%d ms), got %d ms",
				s.timeout.Milliseconds(), s.replicaAckTimeout.Milliseconds())
		}
	}
	var err error
	if s.newQueueProtocol, err = protocolForNewQueues(o.ProtocolForNewQueues); err != nil {
		return s, err
	}
	return s, nil
}

// Queue is the producer client of one queue; safe for concurrent use.
type Queue struct {
	settings
	redis            target
	configuredShards int
	// protocol is the one the queue's meta records, calls that protocol's script calls; Connect sets both, once.
	protocol int
	calls    shardScripts

	mu     sync.Mutex
	layout Layout
}

// Connect connects to a redis://, rediss://, redis-cluster:// or rediss-cluster:// URL and checks the queue's shard count and protocol in
// dq:{queue}:meta (recording them on first use: protocol 3, unless Options.ProtocolForNewQueues or DELAYQ_PROTOCOL asks
// for 2): ShardCountMismatchError or ProtocolVersionMismatchError when Redis holds others. An existing queue is spoken
// to in the protocol its meta records (2 or 3). Bad options fail with InvalidInputError before anything is sent.
func Connect(ctx context.Context, url string, o Options) (*Queue, error) {
	s, err := checkOptions(o)
	if err != nil {
		return nil, err
	}
	e, err := parseURL(url)
	if err != nil {
		return nil, err
	}
	tlsConf, err := tlsConfig(e, o.TLSCA)
	if err != nil {
		return nil, err
	}
	connectTimeout := s.timeout
	if connectTimeout > 5*time.Second {
		connectTimeout = 5 * time.Second
	}
	dialOptions := []redis.DialOption{redis.DialConnectTimeout(connectTimeout), redis.DialReadTimeout(s.timeout),
		redis.DialWriteTimeout(s.timeout)}
	if tlsConf != nil {
		dialOptions = append(dialOptions, redis.DialTLSConfig(tlsConf))
	}
	var servers target = newSingleServer(url, dialOptions)
	if e.cluster {
		if servers, err = newClusterServers(e, dialOptions, tlsConf); err != nil {
			return nil, &Error{fmt.Sprintf("cannot use Redis at %s: %v", Redact(url), err)}
		}
	}
	q := &Queue{settings: s, redis: servers, configuredShards: s.shards, layout: initialLayout(s.shards)}
	if err := q.verifyMeta(ctx); err != nil {
		servers.close()
		if JavaName(err) == "" {
			return nil, &Error{fmt.Sprintf("cannot use Redis at %s: %v", Redact(url), err)}
		}
		return nil, err
	}
	return q, nil
}

// Close closes the connections.
func (q *Queue) Close() error { return q.redis.close() }

// Name is the queue's name.
func (q *Queue) Name() string { return q.queue }

// Shards is the queue's current shard count (as last read from its meta hash: it grows with a reshard).
func (q *Queue) Shards() int { return q.currentLayout().Shards }

// Protocol is the delayq protocol the queue's meta records and this client speaks to it: BucketedProtocolVersion (3,
// what a queue this client creates records unless asked for 2), or ProtocolVersion (2).
func (q *Queue) Protocol() int { return q.protocol }

// Layout is the queue's layout as last read from its meta hash.
func (q *Queue) Layout() Layout { return q.currentLayout() }

// ShardOf is the id's shard in the current layout.
func (q *Queue) ShardOf(id string) (int, error) {
	if err := RequireID(id); err != nil {
		return 0, err
	}
	return q.currentLayout().ShardOf(id), nil
}

// Enqueue schedules one task (policy "": Reject).
func (q *Queue) Enqueue(ctx context.Context, t Task, policy DuplicatePolicy) (EnqueueResult, error) {
	results, err := q.EnqueueMany(ctx, []Task{t}, policy)
	if err != nil {
		return EnqueueResult{}, err
	}
	return results[0], nil
}

// EnqueueMany checks the whole batch before sending anything, groups it by shard (at most 500 tasks per script
// call, concurrently) and answers in input order.
func (q *Queue) EnqueueMany(ctx context.Context, tasks []Task, policy DuplicatePolicy) ([]EnqueueResult, error) {
	policy, err := requirePolicy(policy)
	if err != nil {
		return nil, err
	}
	if err := requireDebounce(policy, tasks); err != nil {
		return nil, err
	}
	enqueuedAt := time.Now().UnixMilli()
	prepared, err := prepare(tasks, q.maxPayloadBytes, enqueuedAt)
	if err != nil {
		return nil, err
	}
	return q.enqueuePrepared(ctx, prepared, policy, enqueuedAt)
}

// Cancel removes a scheduled or dead task: Cancelled, CancelInFlight (left running) or CancelUnknown.
func (q *Queue) Cancel(ctx context.Context, id string) (CancelResult, error) {
	if err := RequireID(id); err != nil {
		return "", err
	}
	reply, _, err := q.byID(ctx, id, "cancel", func(shard int, epoch int64) scriptCall { return q.calls.cancel(shard, id, epoch) })
	if err != nil {
		return "", err
	}
	return parseCancel(reply), nil
}

// Reschedule moves a scheduled task to another due time (In(d) on the Redis clock, or At(t)).
func (q *Queue) Reschedule(ctx context.Context, id string, w When) (RescheduleResult, error) {
	if err := RequireID(id); err != nil {
		return RescheduleResult{}, err
	}
	timing, ms, err := w.timing(time.Now().UnixMilli())
	if err != nil {
		return RescheduleResult{}, err
	}
	reply, _, err := q.byID(ctx, id, "reschedule", func(shard int, epoch int64) scriptCall {
		return q.calls.reschedule(shard, id, timing, ms, epoch)
	})
	if err != nil {
		return RescheduleResult{}, err
	}
	list, _ := reply.([]any)
	return parseReschedule(list), nil
}

// Inspect answers where a task is, its score, priority, attempts, last error and record.
func (q *Queue) Inspect(ctx context.Context, id string) (TaskInfo, error) {
	if err := RequireID(id); err != nil {
		return TaskInfo{}, err
	}
	reply, shard, err := q.byID(ctx, id, "inspect", func(shard int, epoch int64) scriptCall { return q.calls.inspect(shard, id, epoch) })
	if err != nil {
		return TaskInfo{}, err
	}
	list, _ := reply.([]any)
	info := parseInspect(list, id, shard)
	if info.RawRecord != nil {
		r, err := DecodeRecord(*info.RawRecord)
		if err != nil {
			return info, err
		}
		info.Record = &r
	}
	return info, nil
}

// Stats sums the counts of every shard.
func (q *Queue) Stats(ctx context.Context) (Stats, error) {
	n := q.Shards()
	st := Stats{Queue: q.queue, Shards: make([]ShardStats, n)}
	for s := 0; s < n; s++ {
		reply, err := q.runCall(ctx, q.calls.stats(s))
		if err != nil {
			return Stats{}, err
		}
		list, _ := reply.([]any)
		sh := parseStats(list, s)
		st.Shards[s] = sh
		st.Scheduled += sh.Scheduled
		st.Due += sh.Due
		st.InFlight += sh.InFlight
		st.Dead += sh.Dead
		if sh.OldestOverdueMillis > st.OldestOverdueMillis {
			st.OldestOverdueMillis = sh.OldestOverdueMillis
		}
	}
	return st, nil
}

// ---- running core's scripts ----

func isNoScript(err error) bool {
	var e redis.Error
	return errors.As(err, &e) && strings.HasPrefix(string(e), "NOSCRIPT")
}

func scriptArgs(body string, keys, args []string) []any {
	out := make([]any, 0, 2+len(keys)+len(args))
	out = append(out, body, len(keys))
	for _, k := range keys {
		out = append(out, k)
	}
	for _, a := range args {
		out = append(out, a)
	}
	return out
}

// run runs one script by SHA; on NOSCRIPT (a restart, a failover, SCRIPT FLUSH) once in full, which caches it again.
// A script's error reply is returned as the error.
func (q *Queue) run(ctx context.Context, name string, keys, args []string) (any, error) {
	s, ok := scripts[name]
	if !ok {
		return nil, &Error{fmt.Sprintf("this delayq build holds no script %q: run go generate in clients/go", name)}
	}
	conn, err := q.redis.conn(ctx, keys[0])
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	reply, err := conn.Do("EVALSHA", scriptArgs(s.SHA, keys, args)...)
	if isNoScript(err) {
		reply, err = conn.Do("EVAL", scriptArgs(s.Source, keys, args)...)
	}
	return reply, err
}

// runCall runs one script call on its shard (run).
func (q *Queue) runCall(ctx context.Context, c scriptCall) (any, error) {
	return q.run(ctx, c.script, c.keys, c.args)
}

// enqueueCall is one enqueue script call; with replica acks the enqueue, then WAIT on the same connection: Redis
// answers how many replicas hold every write of that connection so far.
func (q *Queue) enqueueCall(ctx context.Context, shard int, batch []preparedTask, c scriptCall) ([]any, error) {
	if q.replicaAcks == 0 {
		reply, err := q.runCall(ctx, c)
		list, _ := reply.([]any)
		return list, err
	}
	for redirections := 0; ; redirections++ {
		list, err := q.enqueueAndWait(ctx, shard, batch, c)
		if !isRedirection(err) || redirections == redirectAttempts {
			return list, err
		}
		q.redis.redirected()
	}
}

// enqueueAndWait pipelines the enqueue and WAIT on one connection (on a Cluster, to the shard's primary as last
// known: a redirection error means the script did not run there).
func (q *Queue) enqueueAndWait(ctx context.Context, shard int, batch []preparedTask, c scriptCall) ([]any, error) {
	s := scripts[c.script]
	conn, err := q.redis.pipeline(ctx, c.keys[0])
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	waitMs := q.replicaAckTimeout.Milliseconds()
	for _, attempt := range []struct{ command, body string }{{"EVALSHA", s.SHA}, {"EVAL", s.Source}} {
		if err := conn.Send(attempt.command, scriptArgs(attempt.body, c.keys, c.args)...); err != nil {
			return nil, err
		}
		if err := conn.Send("WAIT", q.replicaAcks, waitMs); err != nil {
			return nil, err
		}
		if err := conn.Flush(); err != nil {
			return nil, err
		}
		reply, scriptErr := conn.Receive()
		acknowledged, waitErr := redis.Int(conn.Receive())
		if isNoScript(scriptErr) {
			continue
		}
		if scriptErr != nil {
			return nil, scriptErr
		}
		if waitErr != nil {
			return nil, waitErr
		}
		list, _ := reply.([]any)
		if acknowledged < q.replicaAcks {
			return nil, &ReplicaAckError{Shard: shard, Results: finalResults(list, batch), Required: q.replicaAcks,
				Acknowledged: acknowledged, TimeoutMs: waitMs}
		}
		return list, nil
	}
	return nil, &Error{"unreachable: EVAL cannot answer NOSCRIPT"}
}
