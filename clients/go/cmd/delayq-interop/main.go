// The interop driver (clients/interop drives it): runs producer operations with this library, one JSON line in,
// one out. The first line configures the client ({url, queue, shards, options}); every later line is one operation
// ({op: enqueue | cancel | reschedule | inspect | stats | scripts, ...}). Each answer is {ok: value} or
// {error: {type, message, field}}, in the shapes the Java tests compare across the clients (type: the Java
// exception's name).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	delayq "delayq.io/go/delayq"
)

type config struct {
	URL     string `json:"url"`
	Queue   string `json:"queue"`
	Shards  int    `json:"shards"`
	Options struct {
		MaxPayloadBytes     *int   `json:"maxPayloadBytes"`
		TimeoutMs           int64  `json:"timeoutMs"`
		ReplicaAcks         int    `json:"replicaAcks"`
		ReplicaAckTimeoutMs int64  `json:"replicaAckTimeoutMs"`
		TLSCA               string `json:"tlsCa"`
		// ProtocolForNewQueues: 2 or 3 (0, absent: DELAYQ_PROTOCOL, else 3)
		ProtocolForNewQueues int `json:"protocolForNewQueues"`
	} `json:"options"`
}

type taskSpec struct {
	ID                string   `json:"id"`
	DelayMs           *int64   `json:"delayMs"`
	DueAt             *int64   `json:"dueAt"`
	Payload           *string  `json:"payload"`
	Priority          int      `json:"priority"`
	Group             string   `json:"group"`
	ExpiresAt         *int64   `json:"expiresAt"`
	OnExpiry          string   `json:"onExpiry"`
	MaxAttempts       *int     `json:"maxAttempts"`
	BackoffMs         *int64   `json:"backoffMs"`
	BackoffMaxMs      *int64   `json:"backoffMaxMs"`
	BackoffMultiplier *float64 `json:"backoffMultiplier"`
	Traceparent       string   `json:"traceparent"`
	Tracestate        string   `json:"tracestate"`
}

type operation struct {
	Op          string     `json:"op"`
	ID          string     `json:"id"`
	OnDuplicate string     `json:"onDuplicate"`
	Tasks       []taskSpec `json:"tasks"`
	DelayMs     *int64     `json:"delayMs"`
	DueAt       *int64     `json:"dueAt"`
}

func millis(ms *int64) *time.Duration {
	if ms == nil {
		return nil
	}
	d := time.Duration(*ms) * time.Millisecond
	return &d
}

func when(delayMs, dueAt *int64) delayq.When {
	w := delayq.When{}
	if delayMs != nil {
		w.Delay = *millis(delayMs)
	}
	if dueAt != nil {
		w.DueAt = time.UnixMilli(*dueAt)
	}
	return w
}

func (s taskSpec) task() delayq.Task {
	w := when(s.DelayMs, s.DueAt)
	t := delayq.Task{ID: s.ID, Delay: w.Delay, DueAt: w.DueAt, Payload: s.Payload, Priority: delayq.Priority(s.Priority),
		Group: s.Group, OnExpiry: s.OnExpiry, MaxAttempts: s.MaxAttempts, Backoff: millis(s.BackoffMs),
		BackoffMax: millis(s.BackoffMaxMs), BackoffMultiplier: s.BackoffMultiplier, Traceparent: s.Traceparent, Tracestate: s.Tracestate}
	if s.ExpiresAt != nil {
		t.ExpiresAt = time.UnixMilli(*s.ExpiresAt)
	}
	return t
}

func epochMillis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func answer(ctx context.Context, q *delayq.Queue, op operation) (any, error) {
	switch op.Op {
	case "scripts":
		shas := map[string]string{}
		for name, s := range delayq.Scripts() {
			shas[name] = s.SHA
		}
		return shas, nil
	case "enqueue":
		tasks := make([]delayq.Task, len(op.Tasks))
		for i, s := range op.Tasks {
			tasks[i] = s.task()
		}
		results, err := q.EnqueueMany(ctx, tasks, delayq.DuplicatePolicy(op.OnDuplicate))
		if err != nil {
			return nil, err
		}
		out := make([]map[string]any, len(results))
		for i, r := range results {
			out[i] = map[string]any{"id": r.ID, "status": r.Status, "dueAt": epochMillis(r.DueAt)}
		}
		return out, nil
	case "cancel":
		return q.Cancel(ctx, op.ID)
	case "reschedule":
		r, err := q.Reschedule(ctx, op.ID, when(op.DelayMs, op.DueAt))
		if err != nil {
			return nil, err
		}
		return map[string]any{"status": r.Status, "dueAt": epochMillis(r.DueAt)}, nil
	case "inspect":
		i, err := q.Inspect(ctx, op.ID)
		if err != nil {
			return nil, err
		}
		info := map[string]any{"id": i.ID, "shard": i.Shard, "state": i.State, "score": i.Score, "priority": i.Priority,
			"attempts": i.Attempts, "lastError": i.LastError, "rawRecord": i.RawRecord, "payload": nil, "enqueuedAt": nil}
		if i.Record != nil {
			info["payload"] = i.Record.Payload
			info["enqueuedAt"] = i.Record.EnqueuedAt
		}
		info["completion"] = nil
		if c := i.Completion; c != nil {
			info["completion"] = map[string]any{"finishedAt": c.FinishedAt, "attempts": c.Attempts, "handlerMs": c.HandlerMs,
				"worker": c.Worker, "result": c.Result, "truncated": c.Truncated}
		}
		return info, nil
	case "stats":
		s, err := q.Stats(ctx)
		if err != nil {
			return nil, err
		}
		return map[string]any{"scheduled": s.Scheduled, "due": s.Due, "inflight": s.InFlight, "dead": s.Dead}, nil
	}
	return nil, fmt.Errorf("unknown op %s", op.Op)
}

func errorAnswer(err error) map[string]any {
	kind := delayq.JavaName(err)
	if kind == "" {
		kind = fmt.Sprintf("%T", err)
	}
	var field any
	if e, ok := err.(*delayq.InvalidInputError); ok {
		field = e.Field
	}
	return map[string]any{"error": map[string]any{"type": kind, "message": err.Error(), "field": field}}
}

func main() {
	in := bufio.NewReader(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	ctx := context.Background()
	line, err := in.ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(os.Stderr, "no configuration line:", err)
		os.Exit(1)
	}
	var c config
	if err := json.Unmarshal([]byte(line), &c); err != nil {
		fmt.Fprintln(os.Stderr, "bad configuration line:", err)
		os.Exit(1)
	}
	q, err := delayq.Connect(ctx, c.URL, delayq.Options{Queue: c.Queue, Shards: c.Shards, MaxPayloadBytes: c.Options.MaxPayloadBytes,
		Timeout: time.Duration(c.Options.TimeoutMs) * time.Millisecond, ReplicaAcks: c.Options.ReplicaAcks,
		ReplicaAckTimeout: time.Duration(c.Options.ReplicaAckTimeoutMs) * time.Millisecond, TLSCA: c.Options.TLSCA,
		ProtocolForNewQueues: c.Options.ProtocolForNewQueues})
	if err != nil {
		_ = out.Encode(errorAnswer(err))
		return
	}
	defer q.Close()
	_ = out.Encode(map[string]any{"ok": "connected"})
	for {
		line, err := in.ReadString('\n')
		if strings.TrimSpace(line) != "" {
			var op operation
			if e := json.Unmarshal([]byte(line), &op); e != nil {
				_ = out.Encode(errorAnswer(e))
			} else if value, e := answer(ctx, q, op); e != nil {
				_ = out.Encode(errorAnswer(e))
			} else {
				_ = out.Encode(map[string]any{"ok": value})
			}
		}
		if err != nil {
			return
		}
	}
}
