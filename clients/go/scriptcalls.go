package delayq

import "strconv"

// scriptCall is one script call on a shard: the script's name (Scripts), its KEYS and its ARGV.
type scriptCall struct {
	script     string
	keys, args []string
}

// shardScripts are the script calls of one protocol, for the operations this library offers. The queue's meta says
// which protocol a queue speaks (protocol2Scripts, protocol3Scripts); routing, batching and parsing the answers are
// the same for both, as protocol 3's scripts answer in protocol 2's shapes.
type shardScripts interface {
	enqueue(shard int, policy DuplicatePolicy, batch []preparedTask, enqueuedAt, epoch int64, presentOnly bool) scriptCall
	cancel(shard int, id string, epoch int64) scriptCall
	reschedule(shard int, id, timing string, ms, epoch int64) scriptCall
	inspect(shard int, id string, epoch int64) scriptCall
	stats(shard int) scriptCall
}

// scriptsFor answers the script calls of the protocol a queue's meta records (a protocol checkMeta accepted).
func scriptsFor(protocol int, queue string) shardScripts {
	if protocol == BucketedProtocolVersion {
		return protocol3Scripts{queue}
	}
	return protocol2Scripts{queue}
}

// protocol2Scripts: every call takes the shard's ten keys (shardKeys) and, by id, the caller's layout epoch.
type protocol2Scripts struct{ queue string }

func (p protocol2Scripts) enqueue(shard int, policy DuplicatePolicy, batch []preparedTask, enqueuedAt, epoch int64, presentOnly bool) scriptCall {
	return scriptCall{"enqueue", shardKeys(p.queue, shard), enqueueArgs(policy, batch, enqueuedAt, epoch, presentOnly)}
}

func (p protocol2Scripts) cancel(shard int, id string, epoch int64) scriptCall {
	return scriptCall{"cancel", shardKeys(p.queue, shard), []string{id, strconv.FormatInt(epoch, 10)}}
}

func (p protocol2Scripts) reschedule(shard int, id, timing string, ms, epoch int64) scriptCall {
	return scriptCall{"reschedule", shardKeys(p.queue, shard), []string{id, timing, strconv.FormatInt(ms, 10), strconv.FormatInt(epoch, 10)}}
}

func (p protocol2Scripts) inspect(shard int, id string, epoch int64) scriptCall {
	return scriptCall{"inspect", shardKeys(p.queue, shard), []string{id, strconv.FormatInt(epoch, 10)}}
}

func (p protocol2Scripts) stats(shard int) scriptCall {
	return scriptCall{"stats", shardKeys(p.queue, shard), nil}
}
