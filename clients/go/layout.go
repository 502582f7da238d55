package delayq

import (
	"strconv"
	"strings"
)

// Layout is a queue's shard layout as its meta hash records it, and where an id-addressed operation must look
// (docs/protocol.md, "Layouts and resharding"). Mirrors core's io.delayq.layout.Layout.
type Layout struct {
	// Epoch is 0 for a queue never resharded, +1 when a migration starts, +1 again when it ends.
	Epoch int64
	// Shards is the current count (during a migration already the new one).
	Shards int
	// From is 0 outside a migration, else the count it grows from.
	From int
	// History holds every count the queue had, oldest first.
	History []int
}

func initialLayout(shards int) Layout { return Layout{Shards: shards, History: []int{shards}} }

// layoutFromMeta reads meta.lua's reply: [shards, protocol, layout epoch, layouts ("4,16"), migration ("4 16"), moved, left].
func layoutFromMeta(reply []any) Layout {
	shards := int(integer(at(reply, 0)))
	var history []int
	for _, n := range strings.Split(text(at(reply, 3)), ",") {
		if v, err := strconv.Atoi(strings.TrimSpace(n)); err == nil {
			history = append(history, v)
		}
	}
	if len(history) == 0 {
		history = []int{shards}
	}
	from := 0
	if migration := strings.Fields(text(at(reply, 4))); len(migration) > 0 {
		from, _ = strconv.Atoi(migration[0])
	}
	return Layout{Epoch: integer(at(reply, 2)), Shards: shards, From: from, History: history}
}

// Migrating tells whether a reshard is moving tasks.
func (l Layout) Migrating() bool { return l.From > 0 }

// ShardOf is the id's shard in this layout (the new one during a migration).
func (l Layout) ShardOf(id string) int { return ShardOf(id, l.Shards) }

// oldShardOf is, during a migration, the shard an enqueue asks first with "present only"; -1 when there is none.
func (l Layout) oldShardOf(id string) int {
	if !l.Migrating() {
		return -1
	}
	if old := ShardOf(id, l.From); old != l.ShardOf(id) {
		return old
	}
	return -1
}

// lookupOrder is the shards a cancel, reschedule or inspect tries, in order; the first that holds the id answers.
// During a migration the old shard, then the new one; always then the id's shard under every earlier count (what a
// stale hand-written producer, or a task in flight during the move, left behind).
func (l Layout) lookupOrder(id string) []int {
	var counts []int
	if l.Migrating() {
		counts = append(counts, l.From)
	}
	counts = append(counts, l.Shards)
	for i := len(l.History) - 1; i >= 0; i-- {
		counts = append(counts, l.History[i])
	}
	var order []int
	seen := map[int]bool{}
	for _, n := range counts {
		if s := ShardOf(id, n); !seen[s] {
			seen[s] = true
			order = append(order, s)
		}
	}
	return order
}

// protocolFromMeta is the protocol meta.lua's reply records (0 when none).
func protocolFromMeta(reply []any) int { return int(integer(at(reply, 1))) }

// speaks tells whether this client speaks a protocol a queue's meta records.
func speaks(protocol int) bool {
	return protocol == ProtocolVersion || protocol == BucketedProtocolVersion
}

// checkMeta is the layout meta.lua answered; it refuses a protocol this client does not speak, or a shard count the
// queue never had (a count it had before a reshard is followed: the layout is the meta's, as in core's
// QueueProtocol.verifyMeta). A refused protocol is named against newQueueProtocol, the one this client records for
// new queues, as core names it.
func checkMeta(reply []any, queue string, shards int, newQueueProtocol int) (Layout, error) {
	l := layoutFromMeta(reply)
	known := l.Shards == shards
	for _, n := range l.History {
		known = known || n == shards
	}
	if !known {
		return l, &ShardCountMismatchError{Queue: queue, Configured: shards, Recorded: l.Shards}
	}
	if v := protocolFromMeta(reply); !speaks(v) {
		return l, &ProtocolVersionMismatchError{Queue: queue, Supported: newQueueProtocol, Recorded: v}
	}
	return l, nil
}

// ---- reply values (redigo answers int64, []byte, nil and []any) ----

func at(reply []any, i int) any {
	if i < len(reply) {
		return reply[i]
	}
	return nil
}

func integer(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case []byte:
		i, _ := strconv.ParseInt(string(n), 10, 64)
		return i
	case string:
		i, _ := strconv.ParseInt(n, 10, 64)
		return i
	}
	return 0
}

func text(v any) string {
	switch s := v.(type) {
	case []byte:
		return string(s)
	case string:
		return s
	case int64:
		return strconv.FormatInt(s, 10)
	}
	return ""
}

func nullableText(v any) *string {
	if v == nil {
		return nil
	}
	s := text(v)
	return &s
}
