package delayq

import (
	"hash/crc32"
	"strconv"
)

// Protocol 3 (docs/protocol3.md): a shard's waiting tasks in hashes of one due window, found by id through the id
// index. A queue is protocol 3 where its meta records it: created so (the default of this library and of core, unless
// Options.ProtocolForNewQueues or DELAYQ_PROTOCOL asks for 2), or upgraded in place. This library speaks 3 to a queue
// that records it, with core's p3 scripts and the arguments core's io.delayq.bucket.BucketQueue sends. Its
// calls carry the caller's layout epoch (and an enqueue "present" on an old shard during a migration) as protocol 2's,
// and are routed alike (routing.go): a protocol-3 queue grows as a protocol-2 one does.

const (
	// BucketedProtocolVersion is protocol 3, which this client records for a queue it creates (unless asked for 2) and
	// speaks on a queue whose meta records it.
	BucketedProtocolVersion = 3
	// idIndexBuckets is the id index's hash count per shard (ix:<h>; core's BucketLayout.ID_INDEX_BUCKETS).
	idIndexBuckets = 2039
	// countedBuckets bounds the buckets p3/stats.lua reads a call; the rest count at the read ones' average fill
	// (core's BucketQueue.COUNTED_BUCKETS).
	countedBuckets = 10000
)

// indexBucketOf is the id index hash of an id, h in ix:<h>: CRC-32 of its UTF-8 bytes mod 2039 (the scripts take it
// from the caller so that none pays the hash per task).
func indexBucketOf(id string) int {
	return int(crc32.ChecksumIEEE([]byte(id)) % idIndexBuckets)
}

// protocol3Scripts: every call takes one key, the shard's prefix (KEYS[1] of every p3 script), and each id its
// index bucket.
type protocol3Scripts struct{ queue string }

func (p protocol3Scripts) keys(shard int) []string { return []string{shardPrefix(p.queue, shard)} }

// enqueue: the duplicate policy reject takes p3/enqueue.lua's short path, the others p3/enqueue_policy.lua, which
// takes the policy's wire name first. Every task carries its index bucket; the epoch and where come last. A grouped
// task's record (the JSON form) names its group, which the scripts read from it (include/group_name.lua): it waits in
// its group's buckets (gidx, gx:<group>, groups), with no argument of its own.
func (p protocol3Scripts) enqueue(shard int, policy DuplicatePolicy, batch []preparedTask, enqueuedAt, epoch int64, presentOnly bool) scriptCall {
	script := "p3/enqueue_policy"
	args := make([]string, 0, 4+6*len(batch))
	if policy == Reject {
		script = "p3/enqueue"
	} else {
		args = append(args, string(policy))
	}
	args = append(args, strconv.Itoa(len(batch)))
	for _, t := range batch {
		args = append(args, t.id, strconv.Itoa(indexBucketOf(t.id)), t.timing, strconv.FormatInt(t.ms, 10),
			encodeRecord(t.payload, enqueuedAt, t.priority, t.options), strconv.Itoa(int(t.priority)))
	}
	return scriptCall{script, p.keys(shard), append(args, epochAndWhere(epoch, presentOnly)...)}
}

// cancel, reschedule and inspect: the id, its index bucket, the call's own arguments, then the caller's layout epoch.
func (p protocol3Scripts) cancel(shard int, id string, epoch int64) scriptCall {
	return scriptCall{"p3/cancel", p.keys(shard), []string{id, strconv.Itoa(indexBucketOf(id)), strconv.FormatInt(epoch, 10)}}
}

func (p protocol3Scripts) reschedule(shard int, id, timing string, ms, epoch int64) scriptCall {
	return scriptCall{"p3/reschedule", p.keys(shard), []string{id, strconv.Itoa(indexBucketOf(id)), timing, strconv.FormatInt(ms, 10),
		strconv.FormatInt(epoch, 10)}}
}

func (p protocol3Scripts) inspect(shard int, id string, epoch int64) scriptCall {
	return scriptCall{"p3/inspect", p.keys(shard), []string{id, strconv.Itoa(indexBucketOf(id)), strconv.FormatInt(epoch, 10)}}
}

func (p protocol3Scripts) stats(shard int) scriptCall {
	return scriptCall{"p3/stats", p.keys(shard), []string{strconv.Itoa(countedBuckets)}}
}
