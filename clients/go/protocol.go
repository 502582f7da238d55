package delayq

import (
	"fmt"
	"hash/crc32"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The delayq protocol, version 2, as pure functions: validation, shard math, keys and limits. No I/O. Mirrors core's
// Java classes of the same job (Sharding, RecordBuckets, ShardKeys) and the Python and Node libraries; the shared
// vectors (clients/protocol-vectors.json) hold them to the same answers.

const (
	// ProtocolVersion is protocol 2's key layout and record format, which this client speaks to a queue whose meta
	// records it and records for a queue it creates only when asked (Options.ProtocolForNewQueues, DELAYQ_PROTOCOL);
	// by default a new queue is recorded as BucketedProtocolVersion (protocol3.go).
	ProtocolVersion = 2
	// MaxPerCall is the most tasks one enqueue script call carries.
	MaxPerCall = 500
	// MaxShards is the most shards a queue may have.
	MaxShards = 1024
	// MaxIDBytes bounds a task id (UTF-8).
	MaxIDBytes = 256
	// DefaultMaxPayloadBytes is the payload limit unless Options.MaxPayloadBytes says otherwise.
	DefaultMaxPayloadBytes = 64 * 1024

	maxQueueLength = 40
	recordBuckets  = 2039
	// 9999-12-31T23:59:59.999Z, exact as a double score
	maxEpochMillis = 253402300799999
)

var queueName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// Priority: when due tasks pile up, higher levels are claimed first; priority never makes a task fire early.
type Priority int

const (
	Normal  Priority = 0
	High    Priority = 1
	Highest Priority = 2
)

// DuplicatePolicy is what an enqueue does when a task with the same id exists (the scripts' wire names).
type DuplicatePolicy string

const (
	// Reject (the default) answers Duplicate and leaves the task as it is.
	Reject DuplicatePolicy = "reject"
	// Replace replaces a scheduled or dead task (InFlight when it runs).
	Replace DuplicatePolicy = "replace"
	// KeepEarlier moves a scheduled task earlier (Earlier) or keeps it (Kept).
	KeepEarlier DuplicatePolicy = "keep-earlier"
	// Debounce replaces a waiting task (Replaced) and moves its due time to the new one, but never past the
	// deadline the burst's first enqueue fixed (that enqueue's time + Task.DebounceMaxWait); a running task is
	// refused (InFlight). Every task needs DebounceMaxWait, and DebounceMaxWait needs this policy.
	Debounce DuplicatePolicy = "debounce"
)

func requireQueue(name string) error {
	if name == "" {
		return invalid("queue", "must not be empty")
	}
	if n := utf8.RuneCountInString(name); n > maxQueueLength {
		return invalid("queue", "must be at most %d characters, got %d", maxQueueLength, n)
	}
	if !queueName.MatchString(name) {
		return invalid("queue", "must be a lower-case DNS label (a-z, 0-9 and '-', starting and ending with a letter or digit), got '%s'", name)
	}
	return nil
}

func requireShards(shards int) error {
	if shards < 1 || shards > MaxShards {
		return invalid("shards", "must be between 1 and %d, got %d", MaxShards, shards)
	}
	return nil
}

func requireText(text, field string) error {
	if !utf8.ValidString(text) {
		return invalid(field, "must be valid Unicode text (it holds invalid UTF-8)")
	}
	return nil
}

// RequireID checks a task id with the Java client's rules.
func RequireID(id string) error {
	if id == "" {
		return invalid("id", "must not be empty")
	}
	if err := requireText(id, "id"); err != nil {
		return err
	}
	if len(id) > MaxIDBytes {
		return invalid("id", "must be at most %d bytes of UTF-8, got %d", MaxIDBytes, len(id))
	}
	return nil
}

func requirePriority(level Priority) error {
	if level < 0 || level > 2 {
		return invalid("priority", "must be 0 (normal), 1 (high) or 2 (highest), got %d", level)
	}
	return nil
}

func requirePayload(payload *string, maxBytes int) error {
	if payload == nil {
		return nil
	}
	if err := requireText(*payload, "payload"); err != nil {
		return err
	}
	if len(*payload) > maxBytes {
		return invalid("payload", "must be at most %d bytes of UTF-8 (the client's maxPayloadBytes), got %d", maxBytes, len(*payload))
	}
	return nil
}

func requirePolicy(policy DuplicatePolicy) (DuplicatePolicy, error) {
	switch policy {
	case "":
		return Reject, nil
	case Reject, Replace, KeepEarlier, Debounce:
		return policy, nil
	}
	return "", invalid("duplicatePolicy", "must be one of reject, replace, keep-earlier, debounce, got %q", string(policy))
}

// requireDebounce: the Debounce policy and a task's DebounceMaxWait go together, one without the other is refused.
func requireDebounce(policy DuplicatePolicy, tasks []Task) error {
	for _, t := range tasks {
		if policy == Debounce && t.DebounceMaxWait == nil {
			return invalid("debounceMaxWaitMs", "is required with the debounce duplicate policy (Task.DebounceMaxWait), missing for task %s", t.ID)
		}
		if policy != Debounce && t.DebounceMaxWait != nil {
			return invalid("duplicatePolicy", "must be debounce for a task with a debounce wait (task %s), got %s", t.ID, string(policy))
		}
	}
	return nil
}

// groupProblem is core's TaskGroup rule: 1 to 64 ASCII letters, digits and - _ . : @ / (it becomes part of key names).
func groupProblem(group string) string {
	shown := group
	if len(shown) > 40 {
		shown = shown[:40] + "..."
	}
	if len(group) > 64 {
		return fmt.Sprintf("must be at most 64 bytes, got %d (\"%s\")", len(group), shown)
	}
	for i, c := range group {
		ok := (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strings.ContainsRune("-_.:@/", c)
		if !ok {
			what := fmt.Sprintf("'%c'", c)
			if c < 0x20 || c > 0x7e {
				what = fmt.Sprintf("U+%04X", c)
			}
			return fmt.Sprintf("may hold only ASCII letters, digits and - _ . : @ /, got %s at offset %d of \"%s\"", what, i, shown)
		}
	}
	return ""
}

// millisOf is a time as epoch milliseconds, refused outside 1970..9999 (the scores' range) with field's name.
func millisOf(t time.Time, field string) (int64, error) {
	ms := t.UnixMilli()
	if t.Before(time.UnixMilli(0)) || ms > maxEpochMillis {
		return 0, invalid(field, "must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, got %s", instant(t))
	}
	return ms, nil
}

// When is a due time: after Delay (measured on the Redis server's clock) or at DueAt; neither means now.
type When struct {
	Delay time.Duration
	DueAt time.Time
}

// In is a due time after d, on the Redis server's clock.
func In(d time.Duration) When { return When{Delay: d} }

// At is a due time at t.
func At(t time.Time) When { return When{DueAt: t} }

// timing is the script's (timing, ms): ("in", delay ms), the due time computed inside the script from the Redis
// server's clock, or ("at", epoch ms).
func (w When) timing(nowMs int64) (string, int64, error) {
	if !w.DueAt.IsZero() {
		if w.Delay != 0 {
			return "", 0, invalid("schedule", "give a delay or a due time (dueAt), not both")
		}
		ms, err := millisOf(w.DueAt, "dueAt")
		return "at", ms, err
	}
	ms := w.Delay.Milliseconds()
	if w.Delay < 0 {
		return "", 0, invalid("delay", "must not be negative, got %d ms", ms)
	}
	if ms > maxEpochMillis-nowMs {
		return "", 0, invalid("delay", "puts the due time beyond 9999-12-31T23:59:59.999Z, got %d ms", ms)
	}
	return "in", ms, nil
}

// instant writes a time as Java's Instant.toString does (the messages match core's).
func instant(t time.Time) string {
	t = t.UTC().Truncate(time.Millisecond)
	if t.Nanosecond() == 0 {
		return t.Format("2006-01-02T15:04:05Z")
	}
	return t.Format("2006-01-02T15:04:05.000Z")
}

// javaDouble is Java's Double.toString for the numbers the messages show (1000 -> "1000.0").
func javaDouble(m float64) string {
	if m == math.Trunc(m) && !math.IsInf(m, 0) {
		return strconv.FormatFloat(m, 'f', 1, 64)
	}
	return strconv.FormatFloat(m, 'f', -1, 64)
}

// ---- shard math and keys ----

// CRC32 is CRC-32/IEEE of the bytes (zlib's, Java's CRC32).
func CRC32(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// ShardOf is the shard of an id in a queue of n shards: CRC-32 of its UTF-8 bytes mod n.
func ShardOf(id string, shards int) int {
	return int(crc32.ChecksumIEEE([]byte(id)) % uint32(shards))
}

// BucketOf is the record hash of the id within its shard: h = (h * 31 + byte) mod 2^24, then h mod 2039.
func BucketOf(id string) int {
	h := 0
	for _, b := range []byte(id) {
		h = (h*31 + int(b)) % 16777216
	}
	return h % recordBuckets
}

func metaKey(queue string) string { return "dq:{" + queue + "}:meta" }

// shardPrefix starts every key of a shard: "dq:{<queue>:<shard>}:" (its hash tag keeps a shard on one Cluster slot).
func shardPrefix(queue string, shard int) string {
	return "dq:{" + queue + ":" + strconv.Itoa(shard) + "}:"
}

// shardKeys are KEYS[1..10] of every protocol-2 shard script, in include/shard_keys.lua's order.
func shardKeys(queue string, shard int) []string {
	prefix := shardPrefix(queue, shard)
	names := []string{"due", "due:p1", "due:p2", "inflight", "tasks", "attempts", "errors", "dead", "marker", "rate"}
	keys := make([]string, len(names))
	for i, n := range names {
		keys[i] = prefix + n
	}
	return keys
}
