package delayq

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"delayq.io/go/delayq/internal/luasource"
)

// The protocol as pure functions: the vectors shared with Java, Python and Node, validation rules, batching and
// layouts; no Redis needed.

type vectors struct {
	IDs []struct {
		ID      string         `json:"id"`
		CRC32   uint32         `json:"crc32"`
		Bucket  int            `json:"bucket"`
		ShardOf map[string]int `json:"shardOf"`
	} `json:"ids"`
	Records []struct {
		Payload    *string  `json:"payload"`
		EnqueuedAt int64    `json:"enqueuedAt"`
		Priority   Priority `json:"priority"`
		Encoded    string   `json:"encoded"`
	} `json:"records"`
	RecordsWithOptions []struct {
		Task struct {
			recordOptions
			Payload    *string  `json:"payload"`
			EnqueuedAt int64    `json:"enqueuedAt"`
			Priority   Priority `json:"priority"`
		} `json:"task"`
		Encoded string `json:"encoded"`
	} `json:"recordsWithOptions"`
	InvalidOptions []struct {
		Options recordOptions `json:"options"`
		Field   string        `json:"field"`
		Message string        `json:"message"`
	} `json:"invalidOptions"`
}

func loadVectors(t *testing.T) vectors {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "protocol-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.IDs) == 0 || len(v.Records) == 0 || len(v.RecordsWithOptions) < 3 || len(v.InvalidOptions) == 0 {
		t.Fatalf("protocol-vectors.json lost its vectors: %+v", v)
	}
	return v
}

func refused(t *testing.T, err error, field, message string) {
	t.Helper()
	var invalid *InvalidInputError
	if !errors.As(err, &invalid) {
		t.Fatalf("want InvalidInputError %q, got %v", message, err)
	}
	if invalid.Field != field || err.Error() != message {
		t.Fatalf("want %s / %q, got %s / %q", field, message, invalid.Field, err.Error())
	}
}

func TestShardsAndBucketsMatchTheSharedVectors(t *testing.T) {
	for _, v := range loadVectors(t).IDs {
		if got := CRC32([]byte(v.ID)); got != v.CRC32 {
			t.Errorf("crc32(%s) = %d, want %d", v.ID, got, v.CRC32)
		}
		if got := BucketOf(v.ID); got != v.Bucket {
			t.Errorf("bucket(%s) = %d, want %d", v.ID, got, v.Bucket)
		}
		for n, want := range v.ShardOf {
			shards, _ := strconv.Atoi(n)
			if got := ShardOf(v.ID, shards); got != want {
				t.Errorf("shardOf(%s, %d) = %d, want %d", v.ID, shards, got, want)
			}
		}
	}
}

func TestRecordsAreEncodedAndDecodedAsTheVectorsSay(t *testing.T) {
	for _, v := range loadVectors(t).Records {
		if got := encodeRecord(v.Payload, v.EnqueuedAt, v.Priority, recordOptions{}); got != v.Encoded {
			t.Errorf("encoded %q, want %q", got, v.Encoded)
		}
		r, err := DecodeRecord(v.Encoded)
		if err != nil || r.EnqueuedAt != v.EnqueuedAt || r.Priority != v.Priority || (r.Payload == nil) != (v.Payload == nil) ||
			(r.Payload != nil && *r.Payload != *v.Payload) {
			t.Errorf("decoded %q as %+v (%v)", v.Encoded, r, err)
		}
	}
	r, err := DecodeRecord(`{"payload":"cancel-if-unpaid","enqueuedAt":"1764460000000","priority":1,"x":1}`)
	if err != nil || *r.Payload != "cancel-if-unpaid" || r.EnqueuedAt != 1764460000000 || r.Priority != High {
		t.Errorf("decoded %+v (%v)", r, err)
	}
	var malformed *MalformedRecordError
	if _, err := DecodeRecord("xyz"); !errors.As(err, &malformed) {
		t.Errorf("xyz: %v", err)
	}
}

func TestRecordsWithOptionsAreEncodedAsTheVectorsSayAndInvalidOptionsRefusedWithCoresMessages(t *testing.T) {
	v := loadVectors(t)
	for _, w := range v.RecordsWithOptions {
		o, err := requireOptions(w.Task.recordOptions)
		if err != nil {
			t.Fatal(err)
		}
		if got := encodeRecord(w.Task.Payload, w.Task.EnqueuedAt, w.Task.Priority, o); got != w.Encoded {
			t.Errorf("encoded %s, want %s", got, w.Encoded)
		}
	}
	for _, w := range v.InvalidOptions {
		_, err := requireOptions(w.Options)
		refused(t, err, w.Field, w.Message)
	}
}

func TestATasksOptionsBecomeRecordFieldsAndItsExpiryIsJudgedAgainstItsDueTime(t *testing.T) {
	now := int64(1764460000000)
	tp := "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	p, err := prepareTask(Task{ID: "pay-1", DueAt: time.UnixMilli(now + 1000), Payload: Ptr("x"), ExpiresAt: time.UnixMilli(now + 3600000),
		OnExpiry: "discard", MaxAttempts: Ptr(10), Backoff: Ptr(2 * time.Second), BackoffMax: Ptr(10 * time.Minute),
		BackoffMultiplier: Ptr(3.0), Traceparent: tp}, 65536, now)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"payload":"x","enqueuedAt":1764460000000,"expiresAt":1764463600000,"onExpiry":"discard","maxAttempts":10,` +
		`"backoffMs":2000,"backoffMaxMs":600000,"backoffMultiplier":3,"traceparent":"` + tp + `"}`
	if got := encodeRecord(p.payload, now, p.priority, p.options); got != want {
		t.Errorf("got %s", got)
	}
	plain, _ := prepareTask(Task{ID: "pay-2", Payload: Ptr("x")}, 65536, now)
	if got := encodeRecord(plain.payload, now, 0, plain.options); got != "0mikxxdds:x" {
		t.Errorf("got %s", got)
	}
	grouped, _ := prepareTask(Task{ID: "g", Payload: Ptr("<&>"), Group: "tenant-42"}, 65536, now)
	if got := encodeRecord(grouped.payload, now, 0, grouped.options); got != `{"payload":"<&>","enqueuedAt":1764460000000,"group":"tenant-42"}` {
		t.Errorf("got %s", got)
	}
	check := func(message string, task Task) {
		t.Helper()
		task.ID = "t"
		_, err := prepareTask(task, 65536, now)
		refused(t, err, strings.SplitN(message, ":", 2)[0], message)
	}
	check("expiresAt: must be after the task's dueAt (2025-11-29T23:46:41Z), got 2025-11-29T23:46:40Z: the task would expire before it could run",
		Task{DueAt: time.UnixMilli(now + 1000), ExpiresAt: time.UnixMilli(now)})
	check("expiresAt: must be after the task's due time (now + delay) (2025-11-30T00:46:40Z), got 2025-11-29T23:56:40Z: the task would expire before it could run",
		Task{Delay: time.Hour, ExpiresAt: time.UnixMilli(now + 600000)})
	check("expiresAt: is in the past (2025-11-29T23:46:30Z)", Task{DueAt: time.UnixMilli(now - 20000), ExpiresAt: time.UnixMilli(now - 10000)})
	check("backoffMs: must not be negative, got -1000 ms", Task{Backoff: Ptr(-time.Second)})
	check("maxAttempts: must be 1 to 1000, got 0", Task{MaxAttempts: Ptr(0)})
	check("group: cannot be combined with priority 1: a grouped task has priority 0 (groups are served round robin, each in due-time order)",
		Task{Group: "tenant-42", Priority: High})
	check(`group: may hold only ASCII letters, digits and - _ . : @ /, got ' ' at offset 6 of "tenant 42"`, Task{Group: "tenant 42"})
}

func TestIDsQueuesShardsPrioritiesAndPayloadsFollowTheJavaRules(t *testing.T) {
	refused(t, RequireID(""), "id", "id: must not be empty")
	refused(t, RequireID(strings.Repeat("é", 129)), "id", "id: must be at most 256 bytes of UTF-8, got 258")
	if err := RequireID(strings.Repeat("é", 128)); err != nil {
		t.Error(err)
	}
	refused(t, RequireID("a\xffb"), "id", "id: must be valid Unicode text (it holds invalid UTF-8)")
	refused(t, requireQueue(strings.Repeat("q", 41)), "queue", "queue: must be at most 40 characters, got 41")
	refused(t, requireQueue("Orders"), "queue",
		"queue: must be a lower-case DNS label (a-z, 0-9 and '-', starting and ending with a letter or digit), got 'Orders'")
	refused(t, requireShards(0), "shards", "shards: must be between 1 and 1024, got 0")
	refused(t, requirePriority(3), "priority", "priority: must be 0 (normal), 1 (high) or 2 (highest), got 3")
	refused(t, requirePayload(Ptr("ééé"), 4), "payload", "payload: must be at most 4 bytes of UTF-8 (the client's maxPayloadBytes), got 6")
	_, err := requirePolicy("overwrite")
	refused(t, err, "duplicatePolicy", `duplicatePolicy: must be one of reject, replace, keep-earlier, debounce, got "overwrite"`)
	if p, _ := requirePolicy(""); p != Reject {
		t.Errorf("default policy %s", p)
	}
	_, err = checkOptions(Options{Queue: "orders", Shards: 4, ReplicaAcks: 1, ReplicaAckTimeout: 10 * time.Second})
	refused(t, err, "replicaAcks.timeout", "replicaAcks.timeout: must be shorter than the client's timeout (10000 ms), got 10000 ms")
	_, err = checkOptions(Options{Queue: "orders", Shards: 4, MaxPayloadBytes: Ptr(0)})
	refused(t, err, "maxPayloadBytes", "maxPayloadBytes: must be between 1 and 536870912, got 0")
}

func TestADelayIsSentAsIsForTheScriptToAddToTheRedisClockADueTimeAsEpochMs(t *testing.T) {
	timing := func(w When) string {
		kind, ms, err := w.timing(0)
		if err != nil {
			return err.Error()
		}
		return kind + " " + strconv.FormatInt(ms, 10)
	}
	for w, want := range map[When]string{
		In(30 * time.Minute): "in 1800000",
		{}:                   "in 0",
		At(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)): "at 1796119200000",
		In(-time.Second):                     "delay: must not be negative, got -1000 ms",
		{Delay: 1, DueAt: time.UnixMilli(1)}: "schedule: give a delay or a due time (dueAt), not both",
		At(time.UnixMilli(-1)):               "dueAt: must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, got 1969-12-31T23:59:59.999Z",
	} {
		if got := timing(w); got != want {
			t.Errorf("%+v: got %q, want %q", w, got, want)
		}
	}
}

func TestABatchIsCheckedWholeAndSplitPerShardInCallsOfAtMost500InInputOrder(t *testing.T) {
	if _, err := prepare([]Task{{ID: "ok"}, {ID: "bad", Priority: 7}}, 100, 0); err == nil {
		t.Error("a batch with a bad task was accepted")
	}
	indexes := make([]int, 1200)
	for i := range indexes {
		indexes[i] = i
	}
	calls := groupCalls(indexes, func(int) int { return 0 })
	if len(calls) != 3 || len(calls[0].indexes) != 500 || len(calls[1].indexes) != 500 || len(calls[2].indexes) != 200 {
		t.Fatalf("calls %d", len(calls))
	}
	for n, c := range calls {
		for j, i := range c.indexes {
			if i != n*500+j {
				t.Fatalf("call %d holds %d at %d", n, i, j)
			}
		}
	}
}

func TestTheURLSchemesAndBadURLsNameTheFieldWithoutThePassword(t *testing.T) {
	for _, ok := range []string{"redis://localhost:6379/2", "rediss://user:pw@redis.prod:6380", "redis-cluster://10.0.0.1:7000,10.0.0.2:7000"} {
		if _, err := parseURL(ok); err != nil {
			t.Errorf("a documented URL refused: %v", err)
		}
	}
	_, err := parseURL("http://app:secret@localhost")
	refused(t, err, "redis", "redis: must start with redis://, rediss://, redis-cluster:// or rediss-cluster://, got http://app:***@localhost")
	_, err = parseURL("redis-cluster://app:secret@h1:7000,h2")
	refused(t, err, "redis", "redis: a cluster node must be host:port, got 'h2' in redis-cluster://app:***@h1:7000,h2")
	_, err = parseURL("redis-cluster://app:secret@")
	refused(t, err, "redis", "redis: a cluster URL needs at least one host:port: redis-cluster://app:***@")
	e, _ := parseURL("rediss-cluster://app:s%40cret@h1:7000,h2:7001/")
	if !e.cluster || !e.tls || e.username != "app" || e.password != "s@cret" || strings.Join(e.nodes, ",") != "h1:7000,h2:7001" {
		t.Errorf("rediss-cluster URL read as %+v", e)
	}
	e, _ = parseURL("redis-cluster://onlypassword@h1:7000")
	if e.username != "" || e.password != "onlypassword" || e.tls {
		t.Errorf("redis-cluster URL with a password only read as %+v", e)
	}
	if got := Redact("redis://app:secret@h:1"); got != "redis://app:***@h:1" {
		t.Error(got)
	}
	if got := Redact("redis://secret@h:1"); got != "redis://***@h:1" {
		t.Error(got)
	}
}

func TestWhereAnIDAddressedOperationLooksBeforeDuringAndAfterAGrow(t *testing.T) {
	differs := func(prefix string, same bool) string {
		for n := 0; ; n++ {
			id := prefix + strconv.Itoa(n)
			if (ShardOf(id, 4) == ShardOf(id, 16)) == same {
				return id
			}
		}
	}
	meta := func(v ...any) []any { return v }
	if l := layoutFromMeta(meta(int64(4), int64(2))); l.Epoch != 0 || l.Shards != 4 || l.From != 0 || len(l.History) != 1 {
		t.Errorf("%+v", l)
	}
	if l := layoutFromMeta(meta(int64(16), int64(2), int64(1), []byte("4,16"), []byte("4 16"), int64(3), int64(7))); l.Epoch != 1 ||
		l.Shards != 16 || l.From != 4 || len(l.History) != 2 {
		t.Errorf("%+v", l)
	}
	during := layoutFromMeta(meta(int64(16), int64(2), int64(1), []byte("4,16"), []byte("4 16")))
	after := layoutFromMeta(meta(int64(16), int64(2), int64(2), []byte("4,16"), []byte("")))
	id := differs("t-", false)
	oldShard, newShard := ShardOf(id, 4), ShardOf(id, 16)
	if o := during.lookupOrder(id); len(o) != 2 || o[0] != oldShard || o[1] != newShard {
		t.Errorf("during: %v", o)
	}
	if during.oldShardOf(id) != oldShard || after.oldShardOf(id) != -1 {
		t.Error("old shard")
	}
	if o := after.lookupOrder(id); len(o) != 2 || o[0] != newShard || o[1] != oldShard {
		t.Errorf("after: %v", o)
	}
	same := differs("s-", true)
	if o := during.lookupOrder(same); during.oldShardOf(same) != -1 || len(o) != 1 || o[0] != ShardOf(same, 16) {
		t.Errorf("same: %v", o)
	}
	if l, err := checkMeta(meta(int64(16), int64(2), int64(2), []byte("4,16"), []byte("")), "orders", 4, BucketedProtocolVersion); err != nil || l.Shards != 16 {
		t.Errorf("%+v %v", l, err)
	}
	var mismatch *ShardCountMismatchError
	if _, err := checkMeta(meta(int64(16), int64(2), int64(2), []byte("4,16"), []byte("")), "orders", 8, BucketedProtocolVersion); !errors.As(err, &mismatch) ||
		!strings.Contains(err.Error(), "has 16 shards in Redis") {
		t.Error(err)
	}
	p, _ := prepare([]Task{{ID: "a", Payload: Ptr("x")}}, 100, 1000)
	if a := enqueueArgs(Reject, p, 1000, 3, true); a[len(a)-2] != "3" || a[len(a)-1] != "present" {
		t.Error(a)
	}
	if a := enqueueArgs(Reject, p, 1000, 0, false); a[len(a)-2] != "0" || a[len(a)-1] != "" {
		t.Error(a)
	}
}

// One source of truth: the embedded scripts are core's files as assembled now; a build made before a script changed
// fails here until go generate runs again.
func TestTheEmbeddedScriptsAreCoresScriptsExactly(t *testing.T) {
	core := luasource.CoreDir(".")
	if _, err := os.Stat(core); err != nil {
		t.Skipf("core's scripts are not beside this package (%s): not a delayq checkout", core)
	}
	want, err := luasource.Assemble(core)
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) != len(want) {
		t.Errorf("embedded %d scripts, core has %d: run go generate in clients/go", len(scripts), len(want))
	}
	for name, text := range want {
		if scripts[name].Source != text {
			t.Errorf("script %s differs from core's: run go generate in clients/go", name)
		}
	}
	if strings.Contains(scripts["enqueue"].Source, "--@include") {
		t.Error("enqueue's includes were not pasted in")
	}
}
