package delayq

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Task records (protocol.md, "Task records") and per-task options ("Per-task options"), encoded as core's
// TaskRecord writes them: compact `<priority digit><enqueuedAt base 36>:<payload>` when there is a payload and no
// option, else JSON with core's field order.

const (
	minEpochMillis = 946684800000 // 2000-01-01: an earlier "epoch ms" is almost surely seconds
	maxAttempts    = 1000
	maxBackoffMs   = 30 * 24 * 3600 * 1000
	maxTracestate  = 512
	compactRule    = "task record must be JSON (starting with '{') or compact '<priority 0-2><enqueuedAt in base 36>:<payload>'"
)

var traceparentFormat = regexp.MustCompile(`^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-[\s\S]*)?$`)

// recordOptions are a record's option fields (core's names); nil: not set.
type recordOptions struct {
	ExpiresAt         *int64   `json:"expiresAt"`
	OnExpiry          *string  `json:"onExpiry"`
	MaxAttempts       *int64   `json:"maxAttempts"`
	BackoffMs         *int64   `json:"backoffMs"`
	BackoffMaxMs      *int64   `json:"backoffMaxMs"`
	BackoffMultiplier *float64 `json:"backoffMultiplier"`
	Traceparent       *string  `json:"traceparent"`
	Tracestate        *string  `json:"tracestate"`
	Group             *string  `json:"group"`
	DedupWindowMs     *int64   `json:"dedupWindowMs"`
	DebounceMaxWaitMs *int64   `json:"debounceMaxWaitMs"`
}

// maxWindowMs is the longest dedup window and debounce wait (core's TaskOptions.MAX_WINDOW_MS, 30 days).
const maxWindowMs = 30 * 24 * 3600 * 1000

func (o recordOptions) any() bool {
	return o.ExpiresAt != nil || o.OnExpiry != nil || o.MaxAttempts != nil || o.BackoffMs != nil || o.BackoffMaxMs != nil ||
		o.BackoffMultiplier != nil || o.Traceparent != nil || o.Tracestate != nil || o.Group != nil ||
		o.DedupWindowMs != nil || o.DebounceMaxWaitMs != nil
}

func traceparentProblem(value string) string {
	shown := value
	if len(shown) > 80 {
		shown = shown[:80] + "..."
	}
	m := traceparentFormat.FindStringSubmatch(value)
	switch {
	case m == nil:
		return fmt.Sprintf("must be a W3C traceparent, 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags> in lower case, got \"%s\"", shown)
	case m[1] == "ff":
		return fmt.Sprintf("version ff is invalid (W3C trace context), got \"%s\"", shown)
	case m[1] == "00" && m[5] != "":
		return fmt.Sprintf("a version 00 traceparent is exactly 55 characters, got %d", len(value))
	case strings.Trim(m[2], "0") == "":
		return "trace id must not be all zeros"
	case strings.Trim(m[3], "0") == "":
		return "parent id must not be all zeros"
	}
	return ""
}

// requireOptions checks the record's option fields with core's rules and messages; it answers them as stored
// (onExpiry "dead-letter", the default, and an empty tracestate are not written).
func requireOptions(o recordOptions) (recordOptions, error) {
	if at := o.ExpiresAt; at != nil && (*at < minEpochMillis || *at > maxEpochMillis) {
		hint := ""
		if *at > 0 && *at < minEpochMillis/100 {
			hint = " (seconds instead of ms?)"
		}
		return o, invalid("expiresAt", "must be epoch milliseconds between 2000-01-01 and 9999-12-31 (%d to %d), got %d%s",
			int64(minEpochMillis), int64(maxEpochMillis), *at, hint)
	}
	if n := o.MaxAttempts; n != nil && (*n < 1 || *n > maxAttempts) {
		return o, invalid("maxAttempts", "must be 1 to %d, got %d", maxAttempts, *n)
	}
	for _, f := range []struct {
		name string
		ms   *int64
	}{{"backoffMs", o.BackoffMs}, {"backoffMaxMs", o.BackoffMaxMs}} {
		if f.ms != nil && (*f.ms < 0 || *f.ms > maxBackoffMs) {
			return o, invalid(f.name, "must be 0 to %d ms (30 days), got %d", int64(maxBackoffMs), *f.ms)
		}
	}
	for _, f := range []struct {
		name string
		ms   *int64
	}{{"dedupWindowMs", o.DedupWindowMs}, {"debounceMaxWaitMs", o.DebounceMaxWaitMs}} {
		if f.ms != nil && (*f.ms < 1 || *f.ms > maxWindowMs) {
			return o, invalid(f.name, "must be 1 to %d ms (30 days), got %d", int64(maxWindowMs), *f.ms)
		}
	}
	if m := o.BackoffMultiplier; m != nil && !(*m >= 1 && *m <= 100) {
		return o, invalid("backoffMultiplier", "must be a number from 1 to 100, got %s", javaDouble(*m))
	}
	if o.BackoffMs != nil && o.BackoffMaxMs != nil && *o.BackoffMaxMs < *o.BackoffMs {
		return o, invalid("backoffMaxMs", "must not be below backoffMs (%d), got %d", *o.BackoffMs, *o.BackoffMaxMs)
	}
	if o.OnExpiry != nil {
		if *o.OnExpiry != "dead-letter" && *o.OnExpiry != "discard" {
			return o, invalid("onExpiry", "must be \"dead-letter\" or \"discard\", got \"%s\"", *o.OnExpiry)
		}
		if o.ExpiresAt == nil {
			return o, invalid("onExpiry", "needs an expiresAt")
		}
		if *o.OnExpiry == "dead-letter" {
			o.OnExpiry = nil // the default: not stored, as core does
		}
	}
	if o.Tracestate != nil && o.Traceparent == nil {
		return o, invalid("tracestate", "needs a traceparent")
	}
	if o.Traceparent != nil {
		if problem := traceparentProblem(*o.Traceparent); problem != "" {
			return o, invalid("traceparent", "%s", problem)
		}
	}
	if s := o.Tracestate; s != nil {
		if n := len([]rune(*s)); n > maxTracestate {
			return o, invalid("tracestate", "must be at most %d characters (the W3C limit), got %d", maxTracestate, n)
		}
		for i, c := range []rune(*s) {
			if c < 0x20 || c > 0x7e {
				return o, invalid("tracestate", "must be printable ASCII (W3C list of key=value), got character U+%04X at %d", c, i)
			}
		}
		if *s == "" {
			o.Tracestate = nil
		}
	}
	if o.Group != nil {
		if *o.Group == "" {
			o.Group = nil
		} else if problem := groupProblem(*o.Group); problem != "" {
			return o, invalid("group", "%s", problem)
		}
	}
	return o, nil
}

// encodeRecord is the record a client writes: compact with a payload and no option, else JSON (payload,
// enqueuedAt, priority, then the options in core's order).
func encodeRecord(payload *string, enqueuedAt int64, priority Priority, o recordOptions) string {
	if payload != nil && !o.any() {
		return strconv.Itoa(int(priority)) + strconv.FormatInt(enqueuedAt, 36) + ":" + *payload
	}
	var b strings.Builder
	b.WriteByte('{')
	field := func(name, value string) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(quote(name))
		b.WriteByte(':')
		b.WriteString(value)
	}
	num := func(name string, v *int64) {
		if v != nil {
			field(name, strconv.FormatInt(*v, 10))
		}
	}
	text := func(name string, v *string) {
		if v != nil {
			field(name, quote(*v))
		}
	}
	text("payload", payload)
	field("enqueuedAt", strconv.FormatInt(enqueuedAt, 10))
	if priority != 0 {
		field("priority", strconv.Itoa(int(priority)))
	}
	num("expiresAt", o.ExpiresAt)
	text("onExpiry", o.OnExpiry)
	num("maxAttempts", o.MaxAttempts)
	num("backoffMs", o.BackoffMs)
	num("backoffMaxMs", o.BackoffMaxMs)
	if o.BackoffMultiplier != nil {
		// a whole multiplier as an integer ("3", not "3.0"), as core, JSON.stringify and Python write it
		field("backoffMultiplier", strconv.FormatFloat(*o.BackoffMultiplier, 'f', -1, 64))
	}
	text("traceparent", o.Traceparent)
	text("tracestate", o.Tracestate)
	text("group", o.Group)
	num("dedupWindowMs", o.DedupWindowMs)
	num("debounceMaxWaitMs", o.DebounceMaxWaitMs)
	b.WriteByte('}')
	return b.String()
}

// quote is a JSON string as JSON.stringify writes it (UTF-8 as is; no HTML escaping, unlike encoding/json).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if c < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, c)
			} else {
				b.WriteRune(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Record is what a stored task record holds for a producer: its payload (nil: none), when it was enqueued (epoch
// ms on the producer's clock, 0: unknown) and its priority.
type Record struct {
	Payload    *string
	EnqueuedAt int64
	Priority   Priority
}

// DecodeRecord reads a stored record in either form; empty (a bare ZADD task) is an empty record.
func DecodeRecord(stored string) (Record, error) {
	if stored == "" {
		return Record{}, nil
	}
	switch first := stored[0]; {
	case first == '{':
		var fields map[string]any
		dec := json.NewDecoder(strings.NewReader(stored))
		dec.UseNumber()
		if err := dec.Decode(&fields); err != nil {
			return Record{}, &MalformedRecordError{"task record is not valid JSON: " + err.Error()}
		}
		r := Record{}
		switch p := fields["payload"].(type) {
		case nil:
		case string:
			r.Payload = &p
		default:
			text := fmt.Sprint(p)
			r.Payload = &text
		}
		r.EnqueuedAt = wholeNumber(fields["enqueuedAt"])
		if p, ok := fields["priority"].(json.Number); ok {
			if f, err := p.Float64(); err == nil {
				r.Priority = Priority(max(0, min(2, int(f))))
			}
		}
		return r, nil
	case first < '0' || first > '2':
		return Record{}, &MalformedRecordError{fmt.Sprintf("%s; it starts with '%c'", compactRule, first)}
	}
	colon := strings.IndexByte(stored[1:], ':')
	if colon < 0 {
		return Record{}, &MalformedRecordError{compactRule + "; the ':' before the payload is missing"}
	}
	digits := stored[1 : colon+1]
	at, err := strconv.ParseInt(digits, 36, 64)
	if err != nil || strings.ContainsAny(digits, "+-") {
		return Record{}, &MalformedRecordError{fmt.Sprintf("%s; enqueuedAt '%s' is not a base-36 number", compactRule, digits)}
	}
	payload := stored[colon+2:]
	return Record{Payload: &payload, EnqueuedAt: at, Priority: Priority(stored[0] - '0')}, nil
}

// wholeNumber reads a JSON number or its digits in a string (as the protocol allows), 0 otherwise.
func wholeNumber(v any) int64 {
	switch n := v.(type) {
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i
		}
	case string:
		if i, err := strconv.ParseInt(n, 10, 64); err == nil {
			return i
		}
	}
	return 0
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// ---- a task to enqueue ----

// Task is a task to enqueue: due after Delay (measured on the Redis server's clock) or at DueAt; neither means now.
type Task struct {
	ID    string
	Delay time.Duration
	DueAt time.Time
	// Payload is the task's text; nil: none (Ptr("...") makes one).
	Payload  *string
	Priority Priority
	// Group puts the task into a group (a tenant): claimed fairly against other groups, under their rate limit.
	// 1 to 64 ASCII letters, digits and - _ . : @ /; not with a priority other than Normal.
	Group string
	// ExpiresAt: the task is not run if not started by then (zero: no expiry); OnExpiry "dead-letter" (default)
	// or "discard".
	ExpiresAt time.Time
	OnExpiry  string
	// MaxAttempts, Backoff, BackoffMax and BackoffMultiplier replace the worker's retry settings for this task.
	MaxAttempts       *int
	Backoff           *time.Duration
	BackoffMax        *time.Duration
	BackoffMultiplier *float64
	// Traceparent and Tracestate: the W3C trace context the worker's delivery span joins.
	Traceparent string
	Tracestate  string
	// DedupWindow: after the task is acked, cancelled or dead-lettered, an enqueue of its id is refused (status
	// "window") for this long, whatever the duplicate policy; 1 ms to 30 days (nil: none).
	DedupWindow *time.Duration
	// DebounceMaxWait: with the Debounce policy, the latest the task fires after its burst's first enqueue;
	// 1 ms to 30 days (nil: none; required by Debounce, refused by the other policies).
	DebounceMaxWait *time.Duration
}

// Ptr is a pointer to v, for the optional fields of Task.
func Ptr[T any](v T) *T { return &v }

// preparedTask is a validated task with its script arguments.
type preparedTask struct {
	id       string
	timing   string
	ms       int64
	payload  *string
	priority Priority
	options  recordOptions
}

func durationOption(d *time.Duration, field string) (*int64, error) {
	if d == nil {
		return nil, nil
	}
	ms := d.Milliseconds()
	if *d < 0 {
		return nil, invalid(field, "must not be negative, got %d ms", ms)
	}
	return &ms, nil
}

func prepareTask(t Task, maxPayloadBytes int, nowMs int64) (preparedTask, error) {
	p := preparedTask{id: t.ID, payload: t.Payload, priority: t.Priority}
	if err := RequireID(t.ID); err != nil {
		return p, err
	}
	var err error
	if p.timing, p.ms, err = (When{t.Delay, t.DueAt}).timing(nowMs); err != nil {
		return p, err
	}
	if err := requirePayload(t.Payload, maxPayloadBytes); err != nil {
		return p, err
	}
	if err := requirePriority(t.Priority); err != nil {
		return p, err
	}
	if t.Group != "" && t.Priority != Normal {
		return p, invalid("group", "cannot be combined with priority %d: a grouped task has priority 0 (groups are served round robin, each in due-time order)", t.Priority)
	}
	o := recordOptions{}
	var expiresAt int64
	if !t.ExpiresAt.IsZero() {
		if expiresAt, err = millisOf(t.ExpiresAt, "expiresAt"); err != nil {
			return p, err
		}
		o.ExpiresAt = &expiresAt
	}
	if t.OnExpiry != "" {
		o.OnExpiry = &t.OnExpiry
	}
	if t.MaxAttempts != nil {
		o.MaxAttempts = Ptr(int64(*t.MaxAttempts))
	}
	if o.BackoffMs, err = durationOption(t.Backoff, "backoffMs"); err != nil {
		return p, err
	}
	if o.BackoffMaxMs, err = durationOption(t.BackoffMax, "backoffMaxMs"); err != nil {
		return p, err
	}
	if t.DedupWindow != nil {
		o.DedupWindowMs = Ptr(t.DedupWindow.Milliseconds()) // requireOptions applies the window rule
	}
	if t.DebounceMaxWait != nil {
		o.DebounceMaxWaitMs = Ptr(t.DebounceMaxWait.Milliseconds())
	}
	o.BackoffMultiplier = t.BackoffMultiplier
	if t.Traceparent != "" {
		o.Traceparent = &t.Traceparent
	}
	if t.Tracestate != "" {
		o.Tracestate = &t.Tracestate
	}
	if t.Group != "" {
		o.Group = &t.Group
	}
	if p.options, err = requireOptions(o); err != nil {
		return p, err
	}
	if o.ExpiresAt != nil {
		due, name := p.ms, "dueAt"
		if p.timing == "in" {
			due, name = nowMs+p.ms, "due time (now + delay)"
		}
		if expiresAt <= due {
			return p, invalid("expiresAt", "must be after the task's %s (%s), got %s: the task would expire before it could run",
				name, instant(time.UnixMilli(due)), instant(t.ExpiresAt))
		}
		if expiresAt <= nowMs {
			return p, invalid("expiresAt", "is in the past (%s)", instant(t.ExpiresAt))
		}
	}
	return p, nil
}

// prepare validates a whole batch before anything is sent, so bad input never leaves half a batch written.
func prepare(tasks []Task, maxPayloadBytes int, nowMs int64) ([]preparedTask, error) {
	prepared := make([]preparedTask, len(tasks))
	for i, t := range tasks {
		var err error
		if prepared[i], err = prepareTask(t, maxPayloadBytes, nowMs); err != nil {
			return nil, err
		}
	}
	return prepared, nil
}
