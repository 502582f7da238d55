package delayq

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gomodule/redigo/redis"
)

// Every operation on a real Redis: the one DELAYQ_TEST_REDIS_URL names (the interop module's GoClientTest passes its
// own), else a redis-server from PATH started on a free loopback port; never a mock. Without either the tests are
// skipped, except under CI=true, where they fail: CI must run them. Queue names are unique per run, so a shared
// server is fine.

type redisServer struct {
	url   string
	admin redis.Conn
}

func startRedis(t *testing.T) *redisServer {
	t.Helper()
	if url := os.Getenv("DELAYQ_TEST_REDIS_URL"); url != "" {
		conn, err := redis.DialURL(url)
		if err != nil {
			t.Fatalf("DELAYQ_TEST_REDIS_URL=%s: %v", url, err)
		}
		t.Cleanup(func() { conn.Close() })
		return &redisServer{url: url, admin: conn}
	}
	binary := os.Getenv("DELAYQ_REDIS_SERVER")
	if binary == "" {
		binary, _ = exec.LookPath("redis-server")
	}
	if binary == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server is not on PATH (Debian: apt-get install redis-server); CI must run these tests")
		}
		t.Skip("redis-server is not on PATH (Debian: apt-get install redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(binary, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	url := fmt.Sprintf("redis://127.0.0.1:%d", port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		conn, err := redis.DialURL(url)
		if err == nil {
			if _, err = conn.Do("PING"); err == nil {
				t.Cleanup(func() { conn.Close() })
				return &redisServer{url: url, admin: conn}
			}
			conn.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server did not start: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var run = time.Now().UnixNano() % 1_000_000

// unique is a queue name of this run.
func unique(name string) string { return fmt.Sprintf("%s-%d", name, run) }

// connect connects with the default options: a queue it creates is recorded as protocol 3.
func connect(t *testing.T, r *redisServer, queue string, shards int) *Queue {
	t.Helper()
	return connectWith(t, r, Options{Queue: queue, Shards: shards})
}

// connect2 connects with ProtocolForNewQueues 2: a queue it creates is recorded as protocol 2, for the tests that read
// protocol 2's keys.
func connect2(t *testing.T, r *redisServer, queue string, shards int) *Queue {
	t.Helper()
	return connectWith(t, r, Options{Queue: queue, Shards: shards, ProtocolForNewQueues: ProtocolVersion})
}

func connectWith(t *testing.T, r *redisServer, o Options) *Queue {
	t.Helper()
	q, err := Connect(context.Background(), r.url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}

func TestEveryOperationOnARealRedis(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("orders")
	q := connect2(t, r, name, 8)
	if meta, _ := redis.StringMap(r.admin.Do("HGETALL", metaKey(name))); meta["shards"] != "8" || meta["protocol"] != "2" {
		t.Fatalf("meta %v", meta)
	}
	due := time.Now().Add(time.Hour).Truncate(time.Millisecond)
	results, err := q.EnqueueMany(ctx, []Task{
		{ID: "order-8812", Delay: 30 * time.Minute, Payload: Ptr(`{"action":"cancel-if-unpaid"}`)},
		{ID: "payout-W-17", DueAt: due, Priority: Highest, Payload: Ptr("pay")},
		{ID: "tenant-task", DueAt: due, Group: "tenant-42", MaxAttempts: Ptr(3)},
	}, Reject)
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range results {
		if res.Status != Added {
			t.Errorf("%+v", res)
		}
	}
	if !results[1].DueAt.Equal(due) {
		t.Errorf("due %v, want %v", results[1].DueAt, due)
	}
	// the record is where core's key layout puts it
	shard := ShardOf("payout-W-17", 8)
	stored, err := redis.String(r.admin.Do("HGET", fmt.Sprintf("dq:{%s:%d}:tasks:%d", name, shard, BucketOf("payout-W-17")), "payout-W-17"))
	if err != nil || !strings.HasPrefix(stored, "2") || !strings.HasSuffix(stored, ":pay") {
		t.Errorf("stored %q (%v)", stored, err)
	}
	if n, _ := redis.Int(r.admin.Do("ZCARD", fmt.Sprintf("dq:{%s:%d}:due:p2", name, shard))); n != 1 {
		t.Errorf("due:p2 holds %d", n)
	}

	for _, c := range []struct {
		policy DuplicatePolicy
		delay  time.Duration
		want   EnqueueStatus
	}{{Reject, time.Minute, Duplicate}, {KeepEarlier, time.Hour, Kept}, {KeepEarlier, time.Minute, Earlier}, {Replace, 2 * time.Hour, Replaced}} {
		res, err := q.Enqueue(ctx, Task{ID: "order-8812", Delay: c.delay, Payload: Ptr("again")}, c.policy)
		if err != nil || res.Status != c.want {
			t.Errorf("%s: %+v (%v), want %s", c.policy, res, err, c.want)
		}
	}

	info, err := q.Inspect(ctx, "payout-W-17")
	if err != nil || info.State != Scheduled || info.Score != due.UnixMilli() || info.Priority != Highest || info.Shard != shard ||
		info.Record == nil || *info.Record.Payload != "pay" {
		t.Errorf("%+v (%v)", info, err)
	}
	grouped, _ := q.Inspect(ctx, "tenant-task")
	if grouped.State != Scheduled || !strings.Contains(*grouped.RawRecord, `"maxAttempts":3,"group":"tenant-42"`) {
		t.Errorf("%+v %s", grouped, *grouped.RawRecord)
	}
	moved, err := q.Reschedule(ctx, "payout-W-17", At(due.Add(5*time.Millisecond)))
	if err != nil || moved.Status != Rescheduled || !moved.DueAt.Equal(due.Add(5*time.Millisecond)) {
		t.Errorf("%+v (%v)", moved, err)
	}
	if res, _ := q.Reschedule(ctx, "nobody", In(time.Second)); res.Status != RescheduleUnknown {
		t.Errorf("%+v", res)
	}
	stats, err := q.Stats(ctx)
	if err != nil || stats.Scheduled != 3 || len(stats.Shards) != 8 {
		t.Errorf("%+v (%v)", stats, err)
	}
	if res, err := q.Cancel(ctx, "payout-W-17"); err != nil || res != Cancelled {
		t.Errorf("%s (%v)", res, err)
	}
	if res, _ := q.Cancel(ctx, "payout-W-17"); res != CancelUnknown {
		t.Errorf("%s", res)
	}
	if info, _ := q.Inspect(ctx, "payout-W-17"); info.State != StateUnknown || info.Shard != shard {
		t.Errorf("%+v", info)
	}

	// a restart or SCRIPT FLUSH forgets the scripts: the next call sends them in full once
	if _, err := r.admin.Do("SCRIPT", "FLUSH"); err != nil {
		t.Fatal(err)
	}
	if res, err := q.Enqueue(ctx, Task{ID: "after-flush"}, Reject); err != nil || res.Status != Added {
		t.Errorf("%+v (%v)", res, err)
	}
	// a refused batch writes nothing
	if _, err := q.EnqueueMany(ctx, []Task{{ID: "good"}, {ID: "bad", Priority: 5}}, Reject); err == nil {
		t.Error("a bad batch was accepted")
	}
	if info, _ := q.Inspect(ctx, "good"); info.State != StateUnknown {
		t.Errorf("half a batch written: %+v", info)
	}
}

func TestInspectShowsASucceededTasksCompletionRecord(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("refunds")
	q := connect2(t, r, name, 4)
	now, err := redis.Int64s(r.admin.Do("TIME"))
	if err != nil {
		t.Fatal(err)
	}
	ms := now[0]*1000 + now[1]/1000
	// the record as core's ack.lua keeps it while the queue keeps results
	prefix := fmt.Sprintf("dq:{%s:%d}:", name, ShardOf("refund-7", 4))
	if _, err := r.admin.Do("HSET", prefix+"done", "refund-7", fmt.Sprintf("%d|2|35|0|worker-a1b2c3|refund r-91 | issued ✓", ms)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.admin.Do("ZADD", prefix+"done:at", ms, "refund-7"); err != nil {
		t.Fatal(err)
	}
	info, err := q.Inspect(ctx, "refund-7")
	if err != nil {
		t.Fatal(err)
	}
	want := Completion{FinishedAt: ms, Attempts: 2, HandlerMs: 35, Worker: "worker-a1b2c3", Result: "refund r-91 | issued ✓"}
	if info.State != StateSucceeded || info.Score != ms || info.Attempts != 2 || info.Completion == nil || *info.Completion != want {
		t.Errorf("succeeded task: %+v, completion %+v", info, info.Completion)
	}
	if _, err := q.Enqueue(ctx, Task{ID: "refund-7", Delay: time.Hour}, Reject); err != nil {
		t.Fatal(err)
	}
	if again, _ := q.Inspect(ctx, "refund-7"); again.State != Scheduled || again.Completion == nil || again.Completion.Result != want.Result {
		t.Errorf("enqueued again: %+v", again)
	}
	if none, _ := q.Inspect(ctx, "never-seen"); none.State != StateUnknown || none.Completion != nil {
		t.Errorf("unknown: %+v", none)
	}
}

func TestAQueueOfAnotherShardCountOrProtocolIsRefused(t *testing.T) {
	r := startRedis(t)
	name, legacy := unique("counted"), unique("legacy")
	connect2(t, r, name, 16)
	_, err := Connect(context.Background(), r.url, Options{Queue: name, Shards: 8})
	var mismatch *ShardCountMismatchError
	if !errors.As(err, &mismatch) || mismatch.Recorded != 16 || mismatch.Configured != 8 {
		t.Errorf("%v", err)
	}
	if _, err := r.admin.Do("HSET", metaKey(legacy), "shards", "4", "protocol", "1"); err != nil {
		t.Fatal(err)
	}
	_, err = Connect(context.Background(), r.url, Options{Queue: legacy, Shards: 4})
	var protocol *ProtocolVersionMismatchError
	if !errors.As(err, &protocol) || protocol.Recorded != 1 {
		t.Errorf("%v", err)
	}
	_, err = Connect(context.Background(), "redis://127.0.0.1:1", Options{Queue: "orders", Shards: 4, Timeout: time.Second})
	var failed *Error
	if !errors.As(err, &failed) || !strings.HasPrefix(err.Error(), "cannot use Redis at redis://127.0.0.1:1: ") {
		t.Errorf("%v", err)
	}
}

func TestAShardOfAnotherLayoutEpochMakesTheClientReadTheLayoutAgain(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("grown")
	q := connect2(t, r, name, 4)
	// what a finished grow from 4 to 16 shards leaves in the meta hash and on the shards (core's reshard_finish)
	if _, err := r.admin.Do("HSET", metaKey(name), "shards", "16", "layout", "2", "layouts", "4,16"); err != nil {
		t.Fatal(err)
	}
	for s := 0; s < 16; s++ {
		if _, err := r.admin.Do("HSET", fmt.Sprintf("dq:{%s:%d}:layout", name, s), "stamp", "2 16 0"); err != nil {
			t.Fatal(err)
		}
	}
	res, err := q.Enqueue(ctx, Task{ID: "t-1", Delay: time.Hour}, Reject)
	if err != nil || res.Status != Added {
		t.Fatalf("%+v (%v)", res, err)
	}
	if q.Shards() != 16 || q.Layout().Epoch != 2 {
		t.Errorf("layout %+v", q.Layout())
	}
	if info, _ := q.Inspect(ctx, "t-1"); info.Shard != ShardOf("t-1", 16) {
		t.Errorf("%+v", info)
	}
}

func TestDebounceMovesTheDueTimeButNeverPastTheBurstsDeadline(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	q := connect2(t, r, unique("searches"), 4)
	wait := Ptr(time.Minute)
	first, err := q.Enqueue(ctx, Task{ID: "reindex-7", Delay: 10 * time.Second, Payload: Ptr("v1"), DebounceMaxWait: wait}, Debounce)
	if err != nil || first.Status != Added {
		t.Fatalf("%+v (%v)", first, err)
	}
	moved, err := q.Enqueue(ctx, Task{ID: "reindex-7", Delay: 20 * time.Second, Payload: Ptr("v2"), DebounceMaxWait: wait}, Debounce)
	if err != nil || moved.Status != Replaced || !moved.DueAt.After(first.DueAt) {
		t.Fatalf("second enqueue: %+v (%v), first due %v", moved, err, first.DueAt)
	}
	// an hour later than the first enqueue is past its deadline (first enqueue + 1 min): the deadline wins
	capped, err := q.Enqueue(ctx, Task{ID: "reindex-7", Delay: time.Hour, Payload: Ptr("v3"), DebounceMaxWait: wait}, Debounce)
	if err != nil || capped.Status != Replaced {
		t.Fatalf("third enqueue: %+v (%v)", capped, err)
	}
	deadline := first.DueAt.Add(-10 * time.Second).Add(time.Minute)
	if capped.DueAt.After(deadline) || capped.DueAt.Before(deadline.Add(-time.Second)) {
		t.Errorf("capped due %v, want the burst's deadline %v", capped.DueAt, deadline)
	}
	info, err := q.Inspect(ctx, "reindex-7")
	if err != nil || info.Record == nil || *info.Record.Payload != "v3" || info.Score != capped.DueAt.UnixMilli() {
		t.Errorf("%+v (%v)", info, err)
	}

	_, err = q.Enqueue(ctx, Task{ID: "reindex-8", Delay: time.Second}, Debounce)
	refused(t, err, "debounceMaxWaitMs", "debounceMaxWaitMs: is required with the debounce duplicate policy (Task.DebounceMaxWait), missing for task reindex-8")
	_, err = q.Enqueue(ctx, Task{ID: "reindex-8", Delay: time.Second, DebounceMaxWait: wait}, Replace)
	refused(t, err, "duplicatePolicy", "duplicatePolicy: must be debounce for a task with a debounce wait (task reindex-8), got replace")
	_, err = q.Enqueue(ctx, Task{ID: "reindex-8", Delay: time.Second, DebounceMaxWait: Ptr(31 * 24 * time.Hour)}, Debounce)
	refused(t, err, "debounceMaxWaitMs", "debounceMaxWaitMs: must be 1 to 2592000000 ms (30 days), got 2678400000")
}
