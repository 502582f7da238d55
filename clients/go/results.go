package delayq

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// EnqueueStatus is what an enqueue did with one task (the Java client's names).
type EnqueueStatus string

const (
	Added     EnqueueStatus = "ADDED"
	Duplicate EnqueueStatus = "DUPLICATE" // Reject: the id exists, left as it is
	Replaced  EnqueueStatus = "REPLACED"  // Replace: a scheduled or dead task replaced
	Earlier   EnqueueStatus = "EARLIER"   // KeepEarlier: moved earlier
	Kept      EnqueueStatus = "KEPT"      // KeepEarlier: already due earlier
	InFlight  EnqueueStatus = "INFLIGHT"  // Replace or KeepEarlier of a running task: refused
	Dead      EnqueueStatus = "DEAD"      // KeepEarlier of a dead task: left alone
	Window    EnqueueStatus = "WINDOW"    // any policy: the id's dedup window runs until DueAt; nothing written
)

var enqueueStatus = map[string]EnqueueStatus{"added": Added, "duplicate": Duplicate, "replaced": Replaced,
	"earlier": Earlier, "kept": Kept, "inflight": InFlight, "dead": Dead, "window": Window}

// EnqueueResult is one task's answer: its status and the time it now has (the due time while scheduled; the lease
// expiry of a running task, the time of death of a dead one).
type EnqueueResult struct {
	ID     string
	Status EnqueueStatus
	DueAt  time.Time
}

// CancelResult: Cancelled, CancelInFlight (left running) or CancelUnknown.
type CancelResult string

const (
	Cancelled      CancelResult = "CANCELLED"
	CancelInFlight CancelResult = "IN_FLIGHT"
	CancelUnknown  CancelResult = "UNKNOWN"
)

// RescheduleStatus is what a reschedule did.
type RescheduleStatus string

const (
	Rescheduled        RescheduleStatus = "RESCHEDULED"
	RescheduleInFlight RescheduleStatus = "IN_FLIGHT"
	RescheduleDead     RescheduleStatus = "DEAD"
	RescheduleUnknown  RescheduleStatus = "UNKNOWN"
)

// RescheduleResult is a reschedule's status and the task's due time (zero time when it did not move).
type RescheduleResult struct {
	Status RescheduleStatus
	DueAt  time.Time
}

// TaskState is where a task is.
type TaskState string

const (
	Scheduled     TaskState = "SCHEDULED"
	StateInFlight TaskState = "IN_FLIGHT"
	StateDead     TaskState = "DEAD"
	// StateSucceeded: no task of the id waits, runs or is dead, but its completion record is kept (DELAYQ_RESULTS_KEEP).
	StateSucceeded TaskState = "SUCCEEDED"
	StateUnknown   TaskState = "UNKNOWN"
)

// Completion is what is kept of a task after its ack while the queue keeps results: when it finished (epoch ms,
// Redis clock), after how many attempts, by which worker, how long its handler ran, and a short result (at most
// 1 KiB; Truncated when it was cut).
type Completion struct {
	FinishedAt int64
	Attempts   int64
	HandlerMs  int64
	Worker     string
	Result     string
	Truncated  bool
}

// TaskInfo is what inspect answers: the task's state, its score (due time, lease expiry or time of death, epoch ms),
// priority, attempts so far, last error, the shard that holds it and its stored record.
type TaskInfo struct {
	ID        string
	Shard     int
	State     TaskState
	Score     int64
	Priority  Priority
	Attempts  int64
	LastError *string
	// RawRecord is the stored record (nil: none); Record is it decoded.
	RawRecord *string
	Record    *Record
	ServerNow int64
	// Completion is the completion record kept after an ack: the task's own when SUCCEEDED, an earlier run's beside a
	// task of the same id enqueued again; nil when none is kept.
	Completion *Completion
}

// ShardStats are one shard's counts.
type ShardStats struct {
	Shard               int
	ServerNow           int64
	Scheduled           int64
	Due                 int64
	InFlight            int64
	Dead                int64
	OldestDueAt         int64
	OldestOverdueMillis int64
}

// Stats are a queue's counts, summed over its shards.
type Stats struct {
	Queue               string
	Shards              []ShardStats
	Scheduled           int64
	Due                 int64
	InFlight            int64
	Dead                int64
	OldestOverdueMillis int64
}

// ---- replies ----

// placedTask is enqueue.lua's answer for one task; wire also "absent" or "moving" (routed on, never an answer).
type placedTask struct {
	id    string
	wire  string
	dueAt int64
}

func placed(reply []any, batch []preparedTask) []placedTask {
	out := make([]placedTask, len(batch))
	for i, t := range batch {
		out[i] = placedTask{id: t.id, wire: text(at(reply, 1+2*i)), dueAt: integer(at(reply, 2+2*i))}
	}
	return out
}

func (p placedTask) result() (EnqueueResult, error) {
	status, ok := enqueueStatus[p.wire]
	if !ok {
		return EnqueueResult{}, &Error{fmt.Sprintf("unknown enqueue result from Redis: %s", p.wire)}
	}
	return EnqueueResult{ID: p.id, Status: status, DueAt: time.UnixMilli(p.dueAt)}, nil
}

// finalResults are the answers of a reply (a task answered "absent" or "moving" has none yet: left out).
func finalResults(reply []any, batch []preparedTask) []EnqueueResult {
	var out []EnqueueResult
	for _, p := range placed(reply, batch) {
		if r, err := p.result(); err == nil {
			out = append(out, r)
		}
	}
	return out
}

func parseCancel(reply any) CancelResult {
	switch text(reply) {
	case "cancelled":
		return Cancelled
	case "inflight":
		return CancelInFlight
	}
	return CancelUnknown
}

func parseReschedule(reply []any) RescheduleResult {
	status := map[string]RescheduleStatus{"rescheduled": Rescheduled, "inflight": RescheduleInFlight, "dead": RescheduleDead}[text(at(reply, 0))]
	if status == "" {
		status = RescheduleUnknown
	}
	r := RescheduleResult{Status: status}
	if ms := integer(at(reply, 1)); ms != 0 {
		r.DueAt = time.UnixMilli(ms)
	}
	return r
}

func parseInspect(reply []any, id string, shard int) TaskInfo {
	state := map[string]TaskState{"scheduled": Scheduled, "inflight": StateInFlight, "dead": StateDead, "succeeded": StateSucceeded}[text(at(reply, 1))]
	if state == "" {
		state = StateUnknown
	}
	return TaskInfo{ID: id, Shard: shard, State: state, Score: integer(at(reply, 2)), Priority: Priority(integer(at(reply, 3))),
		Attempts: integer(at(reply, 4)), LastError: nullableText(at(reply, 5)), RawRecord: nullableText(at(reply, 6)),
		ServerNow: integer(at(reply, 0)), Completion: parseCompletion(nullableText(at(reply, 8)))}
}

// parseCompletion reads a completion record as ack.lua keeps it,
// "<finished ms>|<attempts>|<handler ms>|<truncated 0/1>|<worker>|<result>"; nil for none (or a foreign form).
func parseCompletion(stored *string) *Completion {
	if stored == nil {
		return nil
	}
	parts := strings.SplitN(*stored, "|", 6)
	if len(parts) != 6 {
		return nil
	}
	var n [3]int64
	for i := 0; i < 3; i++ {
		v, err := strconv.ParseInt(parts[i], 10, 64)
		if err != nil {
			return nil
		}
		n[i] = v
	}
	return &Completion{FinishedAt: n[0], Attempts: n[1], HandlerMs: n[2], Worker: parts[4], Result: parts[5], Truncated: parts[3] == "1"}
}

func parseStats(reply []any, shard int) ShardStats {
	s := ShardStats{Shard: shard, ServerNow: integer(at(reply, 0)), Scheduled: integer(at(reply, 1)), Due: integer(at(reply, 2)),
		InFlight: integer(at(reply, 3)), Dead: integer(at(reply, 4)), OldestDueAt: integer(at(reply, 5))}
	if s.OldestDueAt >= 0 && s.ServerNow > s.OldestDueAt {
		s.OldestOverdueMillis = s.ServerNow - s.OldestDueAt
	}
	return s
}
