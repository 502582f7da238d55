package delayq

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gomodule/redigo/redis"
)

// Protocol 3 on a real Redis: a queue whose meta records protocol 3 (as core's Java client records it) is spoken to
// with core's p3 scripts, its tasks sit in protocol 3's keys, and every answer is protocol 2's.

// createProtocol3Queue records a queue as protocol 3 the way core does on its first use: meta.lua with protocol 3.
func createProtocol3Queue(t *testing.T, r *redisServer, queue string, shards int) {
	t.Helper()
	if _, err := r.admin.Do("EVAL", scripts["meta"].Source, 1, metaKey(queue), shards, BucketedProtocolVersion); err != nil {
		t.Fatal(err)
	}
}

func connectProtocol3(t *testing.T, r *redisServer, queue string, shards int) *Queue {
	t.Helper()
	createProtocol3Queue(t, r, queue, shards)
	q := connect(t, r, queue, shards)
	if q.Protocol() != BucketedProtocolVersion {
		t.Fatalf("queue %s recorded as protocol 3 is spoken to as protocol %d", queue, q.Protocol())
	}
	return q
}

func serverNow(t *testing.T, r *redisServer) int64 {
	t.Helper()
	now, err := redis.Int64s(r.admin.Do("TIME"))
	if err != nil {
		t.Fatal(err)
	}
	return now[0]*1000 + now[1]/1000
}

// taskPrefix is the prefix of the shard that holds id in a queue of n shards.
func taskPrefix(queue, id string, shards int) string { return shardPrefix(queue, ShardOf(id, shards)) }

// indexedDue is the due time protocol 3's id index holds for id (ix:<h>), "" when it holds none.
func indexedDue(t *testing.T, r *redisServer, prefix, id string) string {
	t.Helper()
	due, err := redis.String(r.admin.Do("HGET", prefix+"ix:"+strconv.Itoa(indexBucketOf(id)), id))
	if errors.Is(err, redis.ErrNil) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return due
}

// waitingBucket is the index (idx, idx1, idx2 or cidx) listing the waiting bucket b:<name> that holds id, and that
// bucket's value for it; "" when no waiting bucket does.
func waitingBucket(t *testing.T, r *redisServer, prefix, id string) (index, value string) {
	t.Helper()
	for _, ix := range []string{"idx", "idx1", "idx2", "cidx"} {
		names, err := redis.Strings(r.admin.Do("ZRANGE", prefix+ix, 0, -1))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			v, err := redis.String(r.admin.Do("HGET", prefix+"b:"+name, id))
			if err == nil {
				return ix, v
			}
		}
	}
	return "", ""
}

// protocol2KeysOf counts the keys protocol 2 would hold id in: its shard's due sets and its record hash.
func protocol2KeysOf(t *testing.T, r *redisServer, prefix, id string) int {
	t.Helper()
	n, err := redis.Int(r.admin.Do("EXISTS", prefix+"due", prefix+"due:p1", prefix+"due:p2", prefix+"tasks:"+strconv.Itoa(BucketOf(id))))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAQueueRecordedAsProtocol3KeepsItsTasksInProtocol3sBuckets(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("p3-orders")
	q := connectProtocol3(t, r, name, 4)
	before := serverNow(t, r)
	urgentAt := time.UnixMilli(before + 5*60*1000 + 17)
	laterAt := time.UnixMilli(before + 2*3600*1000 + 3)
	results, err := q.EnqueueMany(ctx, []Task{
		{ID: "soon-1", Delay: 2 * time.Second, Payload: Ptr("s")},
		{ID: "high-1", Delay: 30 * time.Second, Priority: High, Payload: Ptr("h")},
		{ID: "urgent-1", DueAt: urgentAt, Priority: Highest, Payload: Ptr("u")},
		{ID: "later-1", DueAt: laterAt, Payload: Ptr("l"), MaxAttempts: Ptr(3)},
	}, Reject)
	if err != nil {
		t.Fatal(err)
	}
	after := serverNow(t, r)
	for _, res := range results {
		if res.Status != Added {
			t.Errorf("%+v, want ADDED", res)
		}
	}
	// a delay is counted on the Redis clock, a due time is kept to the millisecond
	if d := results[0].DueAt.UnixMilli(); d < before+2000 || d > after+2000 {
		t.Errorf("soon-1 due %d, want between %d and %d", d, before+2000, after+2000)
	}
	if !results[2].DueAt.Equal(urgentAt) || !results[3].DueAt.Equal(laterAt) {
		t.Errorf("due times %v %v, want %v %v", results[2].DueAt, results[3].DueAt, urgentAt, laterAt)
	}

	// each task in a bucket of its level's index (a minute's when due 10 minutes or more ahead), its due time in the
	// id index, and nothing in protocol 2's keys
	for i, want := range []struct{ id, index, record string }{
		{"soon-1", "idx", ":s"}, {"high-1", "idx1", ":h"}, {"urgent-1", "idx2", ":u"}, {"later-1", "cidx", `"maxAttempts":3}`},
	} {
		prefix := taskPrefix(name, want.id, 4)
		if index, value := waitingBucket(t, r, prefix, want.id); index != want.index || !strings.HasSuffix(value, want.record) {
			t.Errorf("%s waits in %q as %q, want a bucket of %s ending %s", want.id, index, value, want.index, want.record)
		}
		if due := indexedDue(t, r, prefix, want.id); due != strconv.FormatInt(results[i].DueAt.UnixMilli(), 36) {
			t.Errorf("%s: the id index holds %q, want its due time %d in base 36", want.id, due, results[i].DueAt.UnixMilli())
		}
		if n := protocol2KeysOf(t, r, prefix, want.id); n != 0 {
			t.Errorf("%s: %d of protocol 2's keys written on a protocol-3 queue", want.id, n)
		}
	}
	waiting := 0
	for s := 0; s < 4; s++ {
		n, _ := redis.Int(r.admin.Do("GET", shardPrefix(name, s)+"waiting"))
		waiting += n
	}
	if waiting != 4 {
		t.Errorf("protocol 3's waiting counts hold %d tasks, want 4", waiting)
	}
	if meta, _ := redis.StringMap(r.admin.Do("HGETALL", metaKey(name))); meta["protocol"] != "3" || meta["shards"] != "4" {
		t.Errorf("meta %v, want protocol 3 and 4 shards kept", meta)
	}

	// scripts forgotten (a restart, SCRIPT FLUSH): protocol 3's are sent in full once, as protocol 2's
	if _, err := r.admin.Do("SCRIPT", "FLUSH"); err != nil {
		t.Fatal(err)
	}
	if res, err := q.Enqueue(ctx, Task{ID: "after-flush"}, Reject); err != nil || res.Status != Added {
		t.Errorf("%+v (%v)", res, err)
	}
	if index, _ := waitingBucket(t, r, taskPrefix(name, "after-flush", 4), "after-flush"); index != "idx" {
		t.Errorf("after-flush waits in %q, want idx", index)
	}
}

func TestEveryDuplicatePolicyAnswersOnProtocol3AsOnProtocol2(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("p3-policies")
	q := connectProtocol3(t, r, name, 4)
	first, err := q.Enqueue(ctx, Task{ID: "order-8812", Delay: 30 * time.Minute, Payload: Ptr("v1")}, Reject)
	if err != nil || first.Status != Added {
		t.Fatalf("%+v (%v)", first, err)
	}
	for _, c := range []struct {
		policy DuplicatePolicy
		delay  time.Duration
		want   EnqueueStatus
	}{{Reject, time.Minute, Duplicate}, {KeepEarlier, time.Hour, Kept}, {KeepEarlier, time.Minute, Earlier}, {Replace, 2 * time.Hour, Replaced}} {
		res, err := q.Enqueue(ctx, Task{ID: "order-8812", Delay: c.delay, Payload: Ptr("v-" + string(c.policy))}, c.policy)
		if err != nil || res.Status != c.want {
			t.Errorf("%s: %+v (%v), want %s", c.policy, res, err, c.want)
		}
	}
	// a duplicate answers the holding task's due time; replace put the new record in a minute two hours ahead
	info, err := q.Inspect(ctx, "order-8812")
	if err != nil || info.State != Scheduled || info.Record == nil || *info.Record.Payload != "v-replace" {
		t.Errorf("after replace: %+v (%v)", info, err)
	}
	if index, _ := waitingBucket(t, r, taskPrefix(name, "order-8812", 4), "order-8812"); index != "cidx" {
		t.Errorf("the replaced task waits in %q, want cidx", index)
	}
	if dup, _ := q.Enqueue(ctx, Task{ID: "order-8812", Delay: time.Second}, Reject); dup.Status != Duplicate || dup.DueAt.UnixMilli() != info.Score {
		t.Errorf("duplicate %+v, want the holder's due time %d", dup, info.Score)
	}

	wait := Ptr(time.Minute)
	debounced, err := q.Enqueue(ctx, Task{ID: "reindex-7", Delay: 10 * time.Second, Payload: Ptr("v1"), DebounceMaxWait: wait}, Debounce)
	if err != nil || debounced.Status != Added {
		t.Fatalf("%+v (%v)", debounced, err)
	}
	moved, err := q.Enqueue(ctx, Task{ID: "reindex-7", Delay: 20 * time.Second, Payload: Ptr("v2"), DebounceMaxWait: wait}, Debounce)
	if err != nil || moved.Status != Replaced || !moved.DueAt.After(debounced.DueAt) {
		t.Errorf("debounced again: %+v (%v), first due %v", moved, err, debounced.DueAt)
	}

	// a dedup window, started by the cancel, refuses the id in every policy
	windowed, err := q.Enqueue(ctx, Task{ID: "coupon-C-9", Delay: time.Hour, DedupWindow: Ptr(time.Hour)}, Reject)
	if err != nil || windowed.Status != Added {
		t.Fatalf("%+v (%v)", windowed, err)
	}
	if c, err := q.Cancel(ctx, "coupon-C-9"); err != nil || c != Cancelled {
		t.Fatalf("%s (%v)", c, err)
	}
	for _, policy := range []DuplicatePolicy{Reject, Replace, KeepEarlier} {
		if res, err := q.Enqueue(ctx, Task{ID: "coupon-C-9", Delay: time.Minute}, policy); err != nil || res.Status != Window {
			t.Errorf("%s within the dedup window: %+v (%v), want WINDOW", policy, res, err)
		}
	}
}

// claimAll is a worker's claim on a protocol-3 shard (p3/claim.lua): every task due now goes in flight. It answers
// the lease expiry and, by id, the in-flight bucket each task is in.
func claimAll(t *testing.T, r *redisServer, prefix string) (int64, map[string]string) {
	t.Helper()
	s := scripts["p3/claim"]
	reply, err := redis.Values(r.admin.Do("EVAL", s.Source, 1, prefix, 100, 30000, 0, 0, "", 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	flights := map[string]string{}
	for i := 3; i+1 < len(reply); i += 2 {
		fields, _ := redis.Strings(reply[i+1], nil)
		for j := 0; j+1 < len(fields); j += 2 {
			flights[fields[j]] = text(reply[i])
		}
	}
	return integer(reply[0]), flights
}

// deadLetter is a worker's permanent failure of a claimed task (p3/retry.lua): the task becomes a dead letter.
func deadLetter(t *testing.T, r *redisServer, prefix, flight, id, reason string) {
	t.Helper()
	s := scripts["p3/retry"]
	reply, err := redis.Values(r.admin.Do("EVAL", s.Source, 1, prefix, flight, id, indexBucketOf(id), 0, reason, 5, 1, 0, 0, 0))
	if err != nil || text(reply[0]) != "dead" {
		t.Fatalf("retry of %s: %v (%v)", id, reply, err)
	}
}

func TestCancelRescheduleAndInspectOnProtocol3AnswerInProtocol2sWords(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("p3-admin")
	q := connectProtocol3(t, r, name, 1)
	prefix := shardPrefix(name, 0)
	due := time.UnixMilli(serverNow(t, r) + 3600*1000 + 7)
	if _, err := q.EnqueueMany(ctx, []Task{
		{ID: "running-1", Payload: Ptr("r")}, {ID: "failing-1", Payload: Ptr("f")},
	}, Reject); err != nil {
		t.Fatal(err)
	}
	expiry, flights := claimAll(t, r, prefix)
	if flights["running-1"] == "" || flights["failing-1"] == "" {
		t.Fatalf("the claim took %v", flights)
	}
	deadLetter(t, r, prefix, flights["failing-1"], "failing-1", "declined")
	if _, err := q.EnqueueMany(ctx, []Task{
		{ID: "payout-W-17", DueAt: due, Priority: Highest, Payload: Ptr("pay")}, {ID: "due-now", Payload: Ptr("d")},
	}, Reject); err != nil {
		t.Fatal(err)
	}

	// scheduled
	info, err := q.Inspect(ctx, "payout-W-17")
	if err != nil || info.State != Scheduled || info.Score != due.UnixMilli() || info.Priority != Highest || info.Shard != 0 ||
		info.Attempts != 0 || info.Record == nil || *info.Record.Payload != "pay" {
		t.Errorf("scheduled: %+v (%v)", info, err)
	}
	moved, err := q.Reschedule(ctx, "payout-W-17", At(due.Add(5*time.Millisecond)))
	if err != nil || moved.Status != Rescheduled || !moved.DueAt.Equal(due.Add(5*time.Millisecond)) {
		t.Errorf("rescheduled: %+v (%v)", moved, err)
	}
	if got := indexedDue(t, r, prefix, "payout-W-17"); got != strconv.FormatInt(due.UnixMilli()+5, 36) {
		t.Errorf("the id index holds %q after the reschedule", got)
	}
	if later, err := q.Reschedule(ctx, "payout-W-17", In(2*time.Hour)); err != nil || later.Status != Rescheduled || !later.DueAt.After(due) {
		t.Errorf("rescheduled by a delay: %+v (%v)", later, err)
	}
	if index, _ := waitingBucket(t, r, prefix, "payout-W-17"); index != "cidx" {
		t.Errorf("rescheduled two hours ahead, it waits in %q, want cidx", index)
	}

	// in flight: the lease expiry of its bucket, refused by cancel, reschedule and every duplicate policy
	if info, _ := q.Inspect(ctx, "running-1"); info.State != StateInFlight || info.Score != expiry || info.Attempts != 1 ||
		info.Record == nil || *info.Record.Payload != "r" {
		t.Errorf("in flight: %+v, want lease expiry %d", info, expiry)
	}
	if c, err := q.Cancel(ctx, "running-1"); err != nil || c != CancelInFlight {
		t.Errorf("cancel in flight: %s (%v)", c, err)
	}
	if res, err := q.Reschedule(ctx, "running-1", In(time.Minute)); err != nil || res.Status != RescheduleInFlight || res.DueAt.UnixMilli() != expiry {
		t.Errorf("reschedule in flight: %+v (%v)", res, err)
	}
	for _, policy := range []DuplicatePolicy{Replace, KeepEarlier} {
		if res, err := q.Enqueue(ctx, Task{ID: "running-1", Delay: time.Minute}, policy); err != nil || res.Status != InFlight || res.DueAt.UnixMilli() != expiry {
			t.Errorf("%s in flight: %+v (%v), want INFLIGHT at %d", policy, res, err, expiry)
		}
	}

	// dead
	dead, err := q.Inspect(ctx, "failing-1")
	if err != nil || dead.State != StateDead || dead.LastError == nil || *dead.LastError != "declined" {
		t.Errorf("dead: %+v (%v)", dead, err)
	}
	if res, _ := q.Reschedule(ctx, "failing-1", In(time.Minute)); res.Status != RescheduleDead || res.DueAt.UnixMilli() != dead.Score {
		t.Errorf("reschedule dead: %+v, want DEAD at %d", res, dead.Score)
	}
	if res, _ := q.Enqueue(ctx, Task{ID: "failing-1", Delay: time.Minute}, KeepEarlier); res.Status != Dead {
		t.Errorf("keep-earlier of a dead letter: %+v", res)
	}

	// the counts, in protocol 2's answer
	stats, err := q.Stats(ctx)
	if err != nil || len(stats.Shards) != 1 || stats.Scheduled != 1 || stats.Due != 1 || stats.InFlight != 1 || stats.Dead != 1 {
		t.Errorf("stats %+v (%v), want 1 scheduled, 1 due, 1 in flight, 1 dead", stats, err)
	}

	// cancelled: a waiting task and a dead letter go, and the id index forgets them
	for _, id := range []string{"payout-W-17", "failing-1"} {
		if c, err := q.Cancel(ctx, id); err != nil || c != Cancelled {
			t.Errorf("cancel %s: %s (%v)", id, c, err)
		}
		if c, _ := q.Cancel(ctx, id); c != CancelUnknown {
			t.Errorf("cancel %s again: %s", id, c)
		}
		if info, _ := q.Inspect(ctx, id); info.State != StateUnknown || info.Shard != 0 {
			t.Errorf("inspect %s after its cancel: %+v", id, info)
		}
		if got := indexedDue(t, r, prefix, id); got != "" {
			t.Errorf("the id index still holds %s: %q", id, got)
		}
	}
	if res, _ := q.Reschedule(ctx, "nobody", In(time.Second)); res.Status != RescheduleUnknown {
		t.Errorf("reschedule of an unknown id: %+v", res)
	}
}

// A protocol-3 queue grown from 4 to 16 shards (meta and every shard's stamp): a call by id asks the id's shard, then
// its shard under every earlier count, as core's IdRouting does; protocol 3's cancel says "absent" where protocol 2's
// says "unknown", and the lookup goes on.
func TestACallByIDOnProtocol3LooksAtTheIDsShardUnderEveryEarlierCount(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("p3-grown")
	createProtocol3Queue(t, r, name, 16)
	if _, err := r.admin.Do("HSET", metaKey(name), "layout", "2", "layouts", "4,16"); err != nil {
		t.Fatal(err)
	}
	stampShards(t, r, name, 16, "2 16 0")
	q := connect(t, r, name, 4)
	id := "order-1"
	for i := 2; ShardOf(id, 4) == ShardOf(id, 16); i++ {
		id = fmt.Sprintf("order-%d", i)
	}
	// the task waits on its shard under 4, where protocol 3's enqueue put it
	old := shardPrefix(name, ShardOf(id, 4))
	enqueue := scripts["p3/enqueue"]
	if _, err := r.admin.Do("EVAL", enqueue.Source, 1, old, 1, id, indexBucketOf(id), "in", 3600000, "0a:p", 0, 2, ""); err != nil {
		t.Fatal(err)
	}
	if info, err := q.Inspect(ctx, id); err != nil || info.State != Scheduled || info.Shard != ShardOf(id, 4) {
		t.Errorf("inspect: %+v (%v), want scheduled on shard %d", info, err, ShardOf(id, 4))
	}
	if c, err := q.Cancel(ctx, id); err != nil || c != Cancelled {
		t.Errorf("cancel: %s (%v), want it found on its shard under 4", c, err)
	}
	if indexedDue(t, r, old, id) != "" {
		t.Errorf("%s is still indexed on its old shard", id)
	}
	if info, _ := q.Inspect(ctx, id); info.State != StateUnknown || info.Shard != ShardOf(id, 16) {
		t.Errorf("after the cancel: %+v, want unknown on its own shard %d", info, ShardOf(id, 16))
	}
}

// stampShards writes the layout stamp of shards 0..n-1 as core's mover does ("<epoch> <shards> <from>").
func stampShards(t *testing.T, r *redisServer, queue string, n int, stamp string) {
	t.Helper()
	for s := 0; s < n; s++ {
		if _, err := r.admin.Do("HSET", shardPrefix(queue, s)+"layout", "stamp", stamp); err != nil {
			t.Fatal(err)
		}
	}
}

// Protocol 3's calls carry the caller's layout epoch last (an enqueue also where), as core's BucketQueue sends them.
func TestProtocol3sCallsCarryTheLayoutEpochAsProtocol2s(t *testing.T) {
	p := protocol3Scripts{"orders"}
	h := strconv.Itoa(indexBucketOf("b"))
	want := map[string][]string{
		"p3/cancel":     {"b", h, "3"},
		"p3/inspect":    {"b", h, "3"},
		"p3/reschedule": {"b", h, "at", "99", "3"},
	}
	for _, c := range []scriptCall{p.cancel(1, "b", 3), p.inspect(1, "b", 3), p.reschedule(1, "b", "at", 99, 3)} {
		if strings.Join(c.args, ",") != strings.Join(want[c.script], ",") || c.keys[0] != "dq:{orders:1}:" {
			t.Errorf("%s %v %v, want %v", c.script, c.keys, c.args, want[c.script])
		}
	}
	batch := []preparedTask{{id: "a", timing: "in", ms: 5000, priority: 1}}
	for _, tc := range []struct {
		policy  DuplicatePolicy
		present bool
		script  string
		first   string
		tail    string
	}{{Reject, true, "p3/enqueue", "1", "7,present"}, {Replace, false, "p3/enqueue_policy", "replace", "7,"}} {
		c := p.enqueue(2, tc.policy, batch, 1000, 7, tc.present)
		n := len(c.args)
		if c.script != tc.script || c.args[0] != tc.first || strings.Join(c.args[n-2:], ",") != tc.tail || c.args[n-8] != "a" {
			t.Errorf("%s %v", c.script, c.args)
		}
	}
}

// A 1-shard protocol-3 queue grows to 2 while a client of epoch 0 runs: refused (LAYOUT), it reads the meta again;
// during the migration it asks the old shard first ("present"), and after it a call by id finds a task left on its
// shard under the earlier count.
func TestAProtocol3QueueGrownMidWayIsFollowed(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("p3-grows")
	q := connectProtocol3(t, r, name, 1)
	var ids []string // ids whose shard under 2 is 1
	for i := 0; len(ids) < 3; i++ {
		if id := fmt.Sprintf("g-%d", i); ShardOf(id, 2) == 1 {
			ids = append(ids, id)
		}
	}
	kept, fresh, later := ids[0], ids[1], ids[2]
	if res, err := q.Enqueue(ctx, Task{ID: kept, Delay: time.Hour, Payload: Ptr("k")}, Reject); err != nil || res.Status != Added {
		t.Fatalf("%+v (%v)", res, err)
	}
	if _, err := r.admin.Do("HSET", metaKey(name), "shards", "2", "layout", "1", "layouts", "1,2", "migration", "1 2"); err != nil {
		t.Fatal(err)
	}
	stampShards(t, r, name, 2, "1 2 1")
	if res, err := q.Enqueue(ctx, Task{ID: kept}, Reject); err != nil || res.Status != Duplicate {
		t.Errorf("during the migration, again: %+v (%v), want it refused on its old shard", res, err)
	}
	if l := q.Layout(); l.Epoch != 1 || l.Shards != 2 {
		t.Errorf("layout %+v", l)
	}
	if res, err := q.Enqueue(ctx, Task{ID: fresh, Delay: time.Hour}, Reject); err != nil || res.Status != Added ||
		indexedDue(t, r, shardPrefix(name, 1), fresh) == "" {
		t.Errorf("a new id during the migration: %+v (%v), want it on shard 1", res, err)
	}
	// the migration ends, the mover having left kept where it was (a stray under the earlier count)
	if _, err := r.admin.Do("HSET", metaKey(name), "layout", "2"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.admin.Do("HDEL", metaKey(name), "migration"); err != nil {
		t.Fatal(err)
	}
	stampShards(t, r, name, 2, "2 2 0")
	if res, err := q.Enqueue(ctx, Task{ID: later, Delay: time.Hour}, Reject); err != nil || res.Status != Added ||
		indexedDue(t, r, shardPrefix(name, 1), later) == "" || q.Layout().Epoch != 2 {
		t.Errorf("after the migration: %+v (%v), layout %+v, want it on shard 1 at epoch 2", res, err, q.Layout())
	}
	if info, err := q.Inspect(ctx, kept); err != nil || info.State != Scheduled || info.Shard != 0 {
		t.Errorf("inspect %s: %+v (%v), want scheduled on shard 0", kept, info, err)
	}
	if c, err := q.Cancel(ctx, kept); err != nil || c != Cancelled || indexedDue(t, r, shardPrefix(name, 0), kept) != "" {
		t.Errorf("cancel %s: %s (%v)", kept, c, err)
	}
}

// groupBucket is the waiting bucket of a task of group g due at due (within 10 minutes, so in a window of 100 ms), as
// p3/include/buckets.lua names it: 'w', the window's start in base 36, '#<g>', then ':<k>' (the first: 0).
func groupBucket(due int64, g string) (name string, start int64) {
	start = due - due%100
	return "w" + strconv.FormatInt(start, 36) + "#" + g + ":0", start
}

// zscore is a member's score in a ZSET, -1 when it holds none.
func zscore(t *testing.T, r *redisServer, key, member string) int64 {
	t.Helper()
	score, err := redis.Int64(r.admin.Do("ZSCORE", key, member))
	if errors.Is(err, redis.ErrNil) {
		return -1
	}
	if err != nil {
		t.Fatal(err)
	}
	return score
}

func TestAGroupedTaskWaitsInItsGroupsBucketsOnProtocol3(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("p3-groups")
	q := connectProtocol3(t, r, name, 1)
	prefix := shardPrefix(name, 0)
	now := serverNow(t, r)
	// a group key may hold ':' and '@': the scripts read the group between '#' and the last ':<k>'
	const tenant, other = "tenant-42", "eu:acme@2/x"
	first, second := now+60_000+17, now+120_000+42
	results, err := q.EnqueueMany(ctx, []Task{
		{ID: "tenant-task-1", DueAt: time.UnixMilli(first), Group: tenant, Payload: Ptr("a")},
		{ID: "tenant-task-2", DueAt: time.UnixMilli(second), Group: tenant},
		{ID: "other-task", DueAt: time.UnixMilli(second), Group: other, MaxAttempts: Ptr(3)},
		{ID: "plain-task", DueAt: time.UnixMilli(first), Payload: Ptr("p")},
	}, Reject)
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range results {
		if res.Status != Added {
			t.Errorf("%+v, want ADDED", res)
		}
	}

	// each grouped task in its group's bucket of its window, listed in gidx and gx:<group> at the window's start, its
	// record (the JSON form) naming the group, its due time in the id index
	for _, want := range []struct {
		id, group string
		due       int64
	}{{"tenant-task-1", tenant, first}, {"tenant-task-2", tenant, second}, {"other-task", other, second}} {
		bucket, start := groupBucket(want.due, want.group)
		value, err := redis.String(r.admin.Do("HGET", prefix+"b:"+bucket, want.id))
		if err != nil {
			t.Errorf("%s is not in b:%s: %v", want.id, bucket, err)
			continue
		}
		if offset, _ := strconv.ParseInt(value[:2], 36, 64); start+offset != want.due ||
			!strings.HasPrefix(value[2:], "{") || !strings.Contains(value[2:], `"group":"`+want.group+`"`) {
			t.Errorf("%s waits as %q in b:%s, want the offset of %d and a JSON record naming %s", want.id, value, bucket, want.due, want.group)
		}
		if got := zscore(t, r, prefix+"gidx", bucket); got != start {
			t.Errorf("gidx lists %s at %d, want %d", bucket, got, start)
		}
		if got := zscore(t, r, prefix+"gx:"+want.group, bucket); got != start {
			t.Errorf("gx:%s lists %s at %d, want %d", want.group, bucket, got, start)
		}
		if due := indexedDue(t, r, prefix, want.id); due != strconv.FormatInt(want.due, 36) {
			t.Errorf("%s: the id index holds %q, want %d in base 36", want.id, due, want.due)
		}
		if index, _ := waitingBucket(t, r, prefix, want.id); index != "" {
			t.Errorf("%s waits in a bucket of %s, an index of ungrouped tasks", want.id, index)
		}
	}
	if gidx, _ := redis.Int(r.admin.Do("ZCARD", prefix+"gidx")); gidx != 3 {
		t.Errorf("gidx lists %d buckets, want 3", gidx)
	}
	if tenants, _ := redis.Int(r.admin.Do("ZCARD", prefix+"gx:"+tenant)); tenants != 2 {
		t.Errorf("gx:%s lists %d buckets, want its 2 windows", tenant, tenants)
	}
	// each group in the rotation at its earliest window's start
	_, firstStart := groupBucket(first, tenant)
	_, secondStart := groupBucket(second, other)
	if groups, _ := redis.Int64Map(r.admin.Do("ZRANGE", prefix+"groups", 0, -1, "WITHSCORES")); len(groups) != 2 ||
		groups[tenant] != firstStart || groups[other] != secondStart {
		t.Errorf("groups %v, want %s at %d and %s at %d", groups, tenant, firstStart, other, secondStart)
	}
	// a task without a group waits as before
	if index, value := waitingBucket(t, r, prefix, "plain-task"); index != "idx" || !strings.HasSuffix(value, ":p") {
		t.Errorf("plain-task waits in %q as %q, want idx", index, value)
	}
	if n, _ := redis.Int(r.admin.Do("GET", prefix+"waiting")); n != 4 {
		t.Errorf("protocol 3's waiting count is %d, want 4", n)
	}
	if n := protocol2KeysOf(t, r, prefix, "tenant-task-1"); n != 0 {
		t.Errorf("%d of protocol 2's keys written on a protocol-3 queue", n)
	}
	info, err := q.Inspect(ctx, "tenant-task-1")
	if err != nil || info.State != Scheduled || info.Score != first || info.Priority != Normal || info.Record == nil ||
		*info.Record.Payload != "a" {
		t.Errorf("inspect: %+v (%v)", info, err)
	}

	// cancel: the task leaves its bucket; its group's emptied window leaves gidx and gx:<group>, and the group's turn
	// follows its next window; the group's last task gone, gx:<group> and its place in the rotation go too
	if c, err := q.Cancel(ctx, "tenant-task-1"); err != nil || c != Cancelled {
		t.Fatalf("cancel: %s (%v)", c, err)
	}
	firstBucket, _ := groupBucket(first, tenant)
	secondBucket, _ := groupBucket(second, tenant)
	if n, _ := redis.Int(r.admin.Do("EXISTS", prefix+"b:"+firstBucket)); n != 0 || zscore(t, r, prefix+"gidx", firstBucket) != -1 ||
		zscore(t, r, prefix+"gx:"+tenant, firstBucket) != -1 || indexedDue(t, r, prefix, "tenant-task-1") != "" {
		t.Errorf("after its cancel tenant-task-1's window is still there (b:%s, gidx, gx, ix)", firstBucket)
	}
	if got := zscore(t, r, prefix+"groups", tenant); got != secondStart {
		t.Errorf("%s's turn is %d after the cancel, want its next window %d", tenant, got, secondStart)
	}
	// reschedule: the task moves to its group's bucket of its new window, and the group's turn with it
	third := now + 180_000 + 5
	if res, err := q.Reschedule(ctx, "other-task", At(time.UnixMilli(third))); err != nil || res.Status != Rescheduled || res.DueAt.UnixMilli() != third {
		t.Fatalf("reschedule: %+v (%v)", res, err)
	}
	oldBucket, _ := groupBucket(second, other)
	newBucket, thirdStart := groupBucket(third, other)
	if value, err := redis.String(r.admin.Do("HGET", prefix+"b:"+newBucket, "other-task")); err != nil ||
		!strings.Contains(value, `"group":"`+other+`"`) || zscore(t, r, prefix+"gx:"+other, newBucket) != thirdStart ||
		zscore(t, r, prefix+"gx:"+other, oldBucket) != -1 || zscore(t, r, prefix+"groups", other) != thirdStart {
		t.Errorf("rescheduled, other-task waits as %q (%v), want it in b:%s listed at %d, its group's turn with it", value, err, newBucket, thirdStart)
	}
	for _, id := range []string{"tenant-task-2", "other-task"} {
		if c, err := q.Cancel(ctx, id); err != nil || c != Cancelled {
			t.Fatalf("cancel %s: %s (%v)", id, c, err)
		}
	}
	if n, _ := redis.Int(r.admin.Do("EXISTS", prefix+"b:"+secondBucket, prefix+"b:"+newBucket, prefix+"gx:"+tenant, prefix+"gx:"+other,
		prefix+"gidx", prefix+"groups")); n != 0 {
		t.Errorf("%d of the groups' keys (b:%s, b:%s, gx:%s, gx:%s, gidx, groups) left after their last tasks' cancel", n, secondBucket,
			newBucket, tenant, other)
	}
	if c, _ := q.Cancel(ctx, "tenant-task-2"); c != CancelUnknown {
		t.Errorf("cancel again: %s", c)
	}
	if n, _ := redis.Int(r.admin.Do("GET", prefix+"waiting")); n != 1 {
		t.Errorf("protocol 3's waiting count is %d, want plain-task's 1", n)
	}

	// a group still goes with priority 0 only, and its own rule holds, before anything is sent
	_, err = q.EnqueueMany(ctx, []Task{{ID: "plain-2"}, {ID: "tenant-task-3", Group: tenant, Priority: High}}, Reject)
	refused(t, err, "group", "group: cannot be combined with priority 1: a grouped task has priority 0 (groups are served round robin, each in due-time order)")
	_, err = q.Enqueue(ctx, Task{ID: "tenant-task-3", Group: "tenant 42"}, Replace)
	refused(t, err, "group", `group: may hold only ASCII letters, digits and - _ . : @ /, got ' ' at offset 6 of "tenant 42"`)
	if info, _ := q.Inspect(ctx, "plain-2"); info.State != StateUnknown {
		t.Errorf("half a refused batch written: %+v", info)
	}
}

func TestAQueueCreatedAsProtocol2ByOptionKeepsUsingProtocol2sKeys(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("p2-fresh")
	q := connect2(t, r, name, 4)
	if q.Protocol() != ProtocolVersion {
		t.Errorf("protocol %d, want 2", q.Protocol())
	}
	if meta, _ := redis.StringMap(r.admin.Do("HGETALL", metaKey(name))); meta["protocol"] != "2" {
		t.Errorf("meta %v, want protocol 2", meta)
	}
	results, err := q.EnqueueMany(ctx, []Task{{ID: "order-1", Delay: time.Hour, Payload: Ptr("p")}, {ID: "tenant-task", Group: "tenant-42"}}, Reject)
	if err != nil || results[0].Status != Added || results[1].Status != Added {
		t.Fatalf("%+v (%v), want both added: protocol 2 takes groups", results, err)
	}
	prefix := taskPrefix(name, "order-1", 4)
	if score, err := redis.Int64(r.admin.Do("ZSCORE", prefix+"due", "order-1")); err != nil || score == 0 {
		t.Errorf("order-1 is not in protocol 2's due set (%d, %v)", score, err)
	}
	if n, _ := redis.Int(r.admin.Do("HEXISTS", prefix+"tasks:"+strconv.Itoa(BucketOf("order-1")), "order-1")); n != 1 {
		t.Error("order-1's record is not in protocol 2's record hash")
	}
	if due := indexedDue(t, r, prefix, "order-1"); due != "" {
		t.Errorf("protocol 3's id index written on a protocol-2 queue: %q", due)
	}
	if n, _ := redis.Int(r.admin.Do("EXISTS", prefix+"idx", prefix+"cidx", prefix+"waiting")); n != 0 {
		t.Errorf("%d of protocol 3's keys written on a protocol-2 queue", n)
	}
}

func TestAnUnknownProtocolIsStillRefusedNamingTheOneThisClientRecords(t *testing.T) {
	t.Setenv(ProtocolEnv, "")
	r := startRedis(t)
	name := unique("p4")
	if _, err := r.admin.Do("HSET", metaKey(name), "shards", "4", "protocol", "4"); err != nil {
		t.Fatal(err)
	}
	_, err := Connect(context.Background(), r.url, Options{Queue: name, Shards: 4})
	var mismatch *ProtocolVersionMismatchError
	if !errors.As(err, &mismatch) || mismatch.Recorded != 4 || mismatch.Supported != BucketedProtocolVersion ||
		err.Error() != fmt.Sprintf("protocol: queue '%s' uses delayq protocol version 4 in Redis, this client speaks version 3; "+
			"the key layout and record format differ between versions, so every producer and worker of a queue must speak the same one", name) {
		t.Errorf("%v", err)
	}
	// named as the version this client records for a new queue, as core's message does
	_, err = Connect(context.Background(), r.url, Options{Queue: name, Shards: 4, ProtocolForNewQueues: 2})
	if !errors.As(err, &mismatch) || mismatch.Supported != ProtocolVersion || !strings.Contains(err.Error(), "this client speaks version 2;") {
		t.Errorf("%v", err)
	}
}

// metaProtocol is the protocol field of a queue's meta hash ("" when absent).
func metaProtocol(t *testing.T, r *redisServer, queue string) string {
	t.Helper()
	v, err := redis.String(r.admin.Do("HGET", metaKey(queue), "protocol"))
	if errors.Is(err, redis.ErrNil) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestAQueueThisClientCreatesIsRecordedAsProtocol3AndItsFirstTaskWaitsInProtocol3sBuckets(t *testing.T) {
	t.Setenv(ProtocolEnv, "")
	r := startRedis(t)
	ctx := context.Background()
	name := unique("p3-fresh")
	q := connect(t, r, name, 4)
	if got := metaProtocol(t, r, name); got != "3" || q.Protocol() != BucketedProtocolVersion {
		t.Fatalf("meta records protocol %q, spoken %d; want 3", got, q.Protocol())
	}
	res, err := q.Enqueue(ctx, Task{ID: "first", Delay: 30 * time.Second, Payload: Ptr("p")}, Reject)
	if err != nil || res.Status != Added {
		t.Fatalf("%+v (%v)", res, err)
	}
	prefix := taskPrefix(name, "first", 4)
	if index, value := waitingBucket(t, r, prefix, "first"); index != "idx" || !strings.HasSuffix(value, ":p") {
		t.Errorf("first waits in %q (%q), want a window's bucket listed in idx", index, value)
	}
	if due := indexedDue(t, r, prefix, "first"); due != strconv.FormatInt(res.DueAt.UnixMilli(), 36) {
		t.Errorf("id index holds %q, want the due time %d in base 36", due, res.DueAt.UnixMilli())
	}
	if n := protocol2KeysOf(t, r, prefix, "first"); n != 0 {
		t.Errorf("%d of protocol 2's keys written on a new queue", n)
	}
}

func TestProtocolForNewQueuesAndDelayqProtocolPickTheProtocolANewQueueIsRecordedWith(t *testing.T) {
	t.Setenv(ProtocolEnv, "")
	r := startRedis(t)
	ctx := context.Background()
	open := func(queue string, asked int) *Queue {
		t.Helper()
		q, err := Connect(ctx, r.url, Options{Queue: queue, Shards: 4, ProtocolForNewQueues: asked})
		if err != nil {
			t.Fatal(err)
		}
		q.Close()
		return q
	}
	classic, explicit := unique("by-option-2"), unique("by-option-3")
	if q := open(classic, 2); metaProtocol(t, r, classic) != "2" || q.Protocol() != ProtocolVersion {
		t.Errorf("option 2: meta %q, spoken %d", metaProtocol(t, r, classic), q.Protocol())
	}
	if q := open(explicit, 3); metaProtocol(t, r, explicit) != "3" || q.Protocol() != BucketedProtocolVersion {
		t.Errorf("option 3: meta %q, spoken %d", metaProtocol(t, r, explicit), q.Protocol())
	}
	// an existing queue keeps the protocol its meta records, whatever the option says
	if q := open(classic, 0); q.Protocol() != ProtocolVersion {
		t.Errorf("existing protocol-2 queue spoken as %d", q.Protocol())
	}
	if q := open(explicit, 2); q.Protocol() != BucketedProtocolVersion || metaProtocol(t, r, explicit) != "3" {
		t.Errorf("existing protocol-3 queue spoken as %d", q.Protocol())
	}
	// DELAYQ_PROTOCOL when the option is 0; the option wins
	byEnv, optionWins, byEnv3 := unique("by-env-2"), unique("option-wins"), unique("by-env-3")
	t.Setenv(ProtocolEnv, "2")
	open(byEnv, 0)
	open(optionWins, 3)
	t.Setenv(ProtocolEnv, " 3 ")
	open(byEnv3, 0)
	if got := []string{metaProtocol(t, r, byEnv), metaProtocol(t, r, optionWins), metaProtocol(t, r, byEnv3)}; strings.Join(got, ",") != "2,3,3" {
		t.Errorf("recorded %v, want 2,3,3", got)
	}
	refused := unique("refused")
	t.Setenv(ProtocolEnv, "4")
	_, err := Connect(ctx, r.url, Options{Queue: refused, Shards: 4})
	var bad *InvalidInputError
	if !errors.As(err, &bad) || bad.Field != "DELAYQ_PROTOCOL" || err.Error() != "DELAYQ_PROTOCOL: must be 2 or 3, got '4'" {
		t.Errorf("%v", err)
	}
	if got := metaProtocol(t, r, refused); got != "" {
		t.Errorf("a refused client recorded protocol %q", got)
	}
}

func TestABadProtocolForNewQueuesIsRefusedByNameBeforeAnythingIsSent(t *testing.T) {
	t.Setenv(ProtocolEnv, "")
	r := startRedis(t)
	name := unique("bad-protocol")
	for _, asked := range []int{1, 4, -2, 33} {
		_, err := Connect(context.Background(), r.url, Options{Queue: name, Shards: 4, ProtocolForNewQueues: asked})
		var bad *InvalidInputError
		if !errors.As(err, &bad) || bad.Field != "protocolForNewQueues" ||
			err.Error() != fmt.Sprintf("protocolForNewQueues: must be 2 or 3, got %d", asked) || JavaName(err) != "InvalidInputException" {
			t.Errorf("%d: %v", asked, err)
		}
	}
	// checked before connecting: named even where Redis is unreachable
	_, err := Connect(context.Background(), "redis://127.0.0.1:1", Options{Queue: name, Shards: 4, ProtocolForNewQueues: 4})
	if err == nil || err.Error() != "protocolForNewQueues: must be 2 or 3, got 4" {
		t.Errorf("%v", err)
	}
	if got := metaProtocol(t, r, name); got != "" {
		t.Errorf("a refused client recorded protocol %q", got)
	}
}

func TestReplicaAcksOnProtocol3WaitOnTheConnectionThatRanProtocol3sEnqueue(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("p3-acked")
	createProtocol3Queue(t, r, name, 2)
	q, err := Connect(ctx, r.url, Options{Queue: name, Shards: 2, ReplicaAcks: 1, ReplicaAckTimeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	// a server without replicas: the enqueue is written, WAIT answers 0
	_, err = q.Enqueue(ctx, Task{ID: "acked-1", Delay: time.Minute, Priority: High}, KeepEarlier)
	var acks *ReplicaAckError
	if !errors.As(err, &acks) || acks.Acknowledged != 0 || len(acks.Results) != 1 || acks.Results[0].Status != Added {
		t.Fatalf("%v", err)
	}
	if index, _ := waitingBucket(t, r, taskPrefix(name, "acked-1", 2), "acked-1"); index != "idx1" {
		t.Errorf("acked-1 waits in %q, want idx1", index)
	}
}

// The scripts by name: protocol 3's as "p3/<file>", the names core's interop tests compare, beside protocol 2's.
func TestProtocol3sScriptsAreEmbeddedUnderTheirPathBesideProtocol2s(t *testing.T) {
	all := Scripts()
	for _, name := range []string{"enqueue", "cancel", "meta", "p3/enqueue", "p3/enqueue_policy", "p3/cancel", "p3/reschedule",
		"p3/inspect", "p3/stats"} {
		s, ok := all[name]
		if !ok || s.Name != name || len(s.SHA) != 40 || strings.Contains(s.Source, "--@include") {
			t.Errorf("script %s: %v %q %q", name, ok, s.Name, s.SHA)
		}
	}
	if all["enqueue"].SHA == all["p3/enqueue"].SHA {
		t.Error("protocol 3's enqueue is protocol 2's")
	}
}

// The id index bucket h of ix:<h> is core's BucketLayout.indexBucket: crc32(id) % 2039, on the shared vectors' CRCs.
func TestTheIDIndexBucketIsTheSharedCRC32Mod2039(t *testing.T) {
	for _, v := range loadVectors(t).IDs {
		if got := indexBucketOf(v.ID); got != int(v.CRC32%2039) {
			t.Errorf("%q: %d, want %d", v.ID, got, v.CRC32%2039)
		}
	}
}
