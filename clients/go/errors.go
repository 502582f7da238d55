package delayq

import "fmt"

// The errors delayq returns on purpose. Their messages are those of the Java client (io.delayq.*Exception) and of
// the Python and Node libraries, so that logs and runbooks read the same in every language; JavaName gives the
// Java class each one mirrors.

// InvalidInputError is bad input, named by the field and the rule it broke; nothing was written to Redis.
type InvalidInputError struct {
	Field string
	Rule  string
}

func invalid(field, format string, args ...any) *InvalidInputError {
	return &InvalidInputError{Field: field, Rule: fmt.Sprintf(format, args...)}
}

func (e *InvalidInputError) Error() string { return e.Field + ": " + e.Rule }

// ShardCountMismatchError: the client is configured with a shard count the queue in Redis never had; writing would
// put tasks where no worker looks. A count the queue had before a reshard is not refused (the client follows the
// layout in Redis).
type ShardCountMismatchError struct {
	Queue      string
	Configured int
	Recorded   int
}

func (e *ShardCountMismatchError) Error() string {
	return fmt.Sprintf("shards: queue '%s' has %d shards in Redis (dq:{%s}:meta) and never had %d, "+
		"the count this client is configured with; use %d (or a count the queue had before a reshard): "+
		"the client reads the queue's layout from Redis and follows it, and the count changes only through a "+
		"reshard (delayq reshard %s --to N)", e.Queue, e.Recorded, e.Queue, e.Configured, e.Recorded, e.Queue)
}

// ProtocolVersionMismatchError: the queue in Redis was written by a delayq of another protocol version.
type ProtocolVersionMismatchError struct {
	Queue     string
	Supported int
	Recorded  int
}

func (e *ProtocolVersionMismatchError) Error() string {
	return fmt.Sprintf("protocol: queue '%s' uses delayq protocol version %d in Redis, this client speaks version %d; "+
		"the key layout and record format differ between versions, so every producer and worker of a queue must speak the same one",
		e.Queue, e.Recorded, e.Supported)
}

// ReplicaAckError: an enqueue reached the primary, but fewer replicas than required confirmed it in time. Results
// holds what the primary answered; retrying is safe (ids are deduplicated).
type ReplicaAckError struct {
	Shard        int
	Results      []EnqueueResult
	Required     int
	Acknowledged int
	TimeoutMs    int64
}

func (e *ReplicaAckError) Error() string {
	return fmt.Sprintf("enqueue of %d task(s) on shard %d reached the primary, but only %d of the %d "+
		"required replica(s) acknowledged it within %d ms (replicaAcks): it may be lost if the primary fails now; "+
		"retrying is safe, ids are deduplicated", len(e.Results), e.Shard, e.Acknowledged, e.Required, e.TimeoutMs)
}

// LayoutChangedError: an operation could not settle on a layout in time (the layout kept changing, or a task stayed
// in a stopped mover's hands). Nothing was written; retrying is safe.
type LayoutChangedError struct{ Message string }

func (e *LayoutChangedError) Error() string { return e.Message }

// MalformedRecordError: a stored record that does not follow the protocol (a worker dead-letters such a task).
type MalformedRecordError struct{ Message string }

func (e *MalformedRecordError) Error() string { return e.Message }

// Error is any other failure delayq reports itself (a connection that cannot be used, a library without scripts).
type Error struct{ Message string }

func (e *Error) Error() string { return e.Message }

// JavaName is the Java client's exception class for one of this package's errors ("" for any other error).
func JavaName(err error) string {
	switch err.(type) {
	case *InvalidInputError:
		return "InvalidInputException"
	case *ShardCountMismatchError:
		return "ShardCountMismatchException"
	case *ProtocolVersionMismatchError:
		return "ProtocolVersionMismatchException"
	case *ReplicaAckError:
		return "ReplicaAckException"
	case *LayoutChangedError:
		return "LayoutChangedException"
	case *MalformedRecordError:
		return "MalformedRecordException"
	case *Error:
		return "DelayQueueException"
	}
	return ""
}
