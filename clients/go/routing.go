package delayq

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Routing sends operations to the shard that holds an id, whichever layout that is (docs/protocol.md, "Layouts and
// resharding"), as core's IdRouting does: during a migration the old shard first, acting only if the id is there,
// then the new one; a "LAYOUT" refusal re-reads the meta hash and tries again; a "moving" answer waits a few
// milliseconds for the mover to deliver the task. Nothing is written by a refused or "moving" call, so trying again
// is always safe.

const (
	// patience is how long an operation follows layout changes and waits for a task in the mover's hands (core: 10 s).
	patience = 10 * time.Second
	// pause is the wait between two tries (core: 5 ms).
	pause = 5 * time.Millisecond
)

func isLayoutRefusal(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "LAYOUT ") }

func (q *Queue) currentLayout() Layout {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.layout
}

// metaArgs are meta.lua's: a new queue is recorded with the protocol for new queues (3 unless asked for 2); an existing
// one keeps what its meta records.
func (q *Queue) metaArgs() ([]string, []string) {
	return []string{metaKey(q.queue)}, []string{strconv.Itoa(q.configuredShards), strconv.Itoa(q.newQueueProtocol)}
}

func (q *Queue) readMeta(ctx context.Context) ([]any, error) {
	keys, args := q.metaArgs()
	reply, err := q.run(ctx, "meta", keys, args)
	if err != nil {
		return nil, err
	}
	list, _ := reply.([]any)
	return list, nil
}

// verifyMeta checks the meta hash and takes the queue's layout and protocol from it; Connect calls it before the
// Queue is shared.
func (q *Queue) verifyMeta(ctx context.Context) error {
	reply, err := q.readMeta(ctx)
	if err != nil {
		return err
	}
	l, err := checkMeta(reply, q.queue, q.configuredShards, q.newQueueProtocol)
	if err != nil {
		return err
	}
	q.setLayout(l)
	// the recorded protocol decides: on a queue just created it is newQueueProtocol, so the first enqueue already goes
	// through that protocol's scripts
	q.protocol = protocolFromMeta(reply)
	q.calls = scriptsFor(q.protocol, q.queue)
	return nil
}

func (q *Queue) refresh(ctx context.Context) error {
	reply, err := q.readMeta(ctx)
	if err != nil {
		return err
	}
	q.setLayout(layoutFromMeta(reply))
	return nil
}

func (q *Queue) setLayout(l Layout) {
	q.mu.Lock()
	q.layout = l
	q.mu.Unlock()
}

// wireStatus is the status word of cancel.lua's, reschedule.lua's and inspect.lua's replies ("unknown" and
// "moving" are routed on); op names the operation.
func wireStatus(op string, reply any) string {
	list, _ := reply.([]any)
	switch op {
	case "reschedule":
		return text(at(list, 0))
	case "inspect":
		return text(at(list, 1))
	}
	// protocol 3's cancel says "absent" where protocol 2's says "unknown"
	if status := text(reply); status != "absent" {
		return status
	}
	return "unknown"
}

// byID runs a cancel, reschedule or inspect (op) on the first shard in the layout's lookup order that holds the id;
// when none does, it answers the id's own shard's "unknown" reply. call(shard, epoch) is the script call on a shard.
func (q *Queue) byID(ctx context.Context, id, op string, call func(shard int, epoch int64) scriptCall) (any, int, error) {
	deadline := time.Now().Add(patience)
	for {
		layout := q.currentLayout()
		var reply, ownReply any
		shard, own := -1, -1
		refused := false
		for _, s := range layout.lookupOrder(id) {
			r, err := q.runCall(ctx, call(s, layout.Epoch))
			if isLayoutRefusal(err) {
				refused = true
				break
			}
			if err != nil {
				return nil, 0, err
			}
			reply, shard = r, s
			if s == layout.ShardOf(id) {
				ownReply, own = r, s
			}
			if wireStatus(op, r) != "unknown" {
				break
			}
		}
		if refused {
			if err := q.later(ctx, deadline, fmt.Sprintf("the layout of queue '%s' kept changing", q.queue)); err != nil {
				return nil, 0, err
			}
			if err := q.refresh(ctx); err != nil {
				return nil, 0, err
			}
			continue
		}
		kind := wireStatus(op, reply)
		if kind == "moving" {
			if err := q.later(ctx, deadline, q.movingMessage(id)); err != nil {
				return nil, 0, err
			}
			continue
		}
		if kind == "unknown" && own >= 0 {
			return ownReply, own, nil
		}
		return reply, shard, nil
	}
}

// call is one enqueue script call: a shard and the input indexes it carries.
type call struct {
	shard   int
	indexes []int
}

// groupCalls groups indexes by shardOf(index), at most MaxPerCall per call, shards in first-seen order.
func groupCalls(indexes []int, shardOf func(int) int) []call {
	byShard := map[int][]int{}
	var order []int
	for _, i := range indexes {
		s := shardOf(i)
		if _, seen := byShard[s]; !seen {
			order = append(order, s)
		}
		byShard[s] = append(byShard[s], i)
	}
	var calls []call
	for _, s := range order {
		chunk := byShard[s]
		for from := 0; from < len(chunk); from += MaxPerCall {
			to := from + MaxPerCall
			if to > len(chunk) {
				to = len(chunk)
			}
			calls = append(calls, call{s, chunk[from:to]})
		}
	}
	return calls
}

// enqueueArgs is enqueue.lua's ARGV; epoch: the caller's layout epoch; presentOnly: act only on ids the shard holds
// (the old shard during a migration).
func enqueueArgs(policy DuplicatePolicy, batch []preparedTask, enqueuedAt int64, epoch int64, presentOnly bool) []string {
	args := []string{string(policy), strconv.Itoa(len(batch))}
	for _, t := range batch {
		args = append(args, t.id, t.timing, strconv.FormatInt(t.ms, 10), encodeRecord(t.payload, enqueuedAt, t.priority, t.options),
			strconv.Itoa(int(t.priority)))
	}
	return append(args, epochAndWhere(epoch, presentOnly)...)
}

// epochAndWhere are the last two ARGV of both protocols' enqueue scripts: the caller's layout epoch, and "present" to
// act only on ids the shard holds (the old shard during a migration), else "".
func epochAndWhere(epoch int64, presentOnly bool) []string {
	where := ""
	if presentOnly {
		where = "present"
	}
	return []string{strconv.FormatInt(epoch, 10), where}
}

// enqueuePrepared puts prepared tasks where their ids live and answers the results in input order.
func (q *Queue) enqueuePrepared(ctx context.Context, prepared []preparedTask, policy DuplicatePolicy, enqueuedAt int64) ([]EnqueueResult, error) {
	results := make([]EnqueueResult, len(prepared))
	pending := make([]int, len(prepared))
	for i := range pending {
		pending[i] = i
	}
	deadline := time.Now().Add(patience)
	for len(pending) > 0 {
		layout := q.currentLayout()
		var mu sync.Mutex
		var again []int
		var firstErr error
		refused := false
		send := func(indexes []int, shardOf func(int) int, presentOnly bool) []int {
			var absent []int
			var wg sync.WaitGroup
			for _, c := range groupCalls(indexes, shardOf) {
				wg.Add(1)
				go func(c call) {
					defer wg.Done()
					batch := make([]preparedTask, len(c.indexes))
					for j, i := range c.indexes {
						batch[j] = prepared[i]
					}
					reply, err := q.enqueueCall(ctx, c.shard, batch,
						q.calls.enqueue(c.shard, policy, batch, enqueuedAt, layout.Epoch, presentOnly))
					mu.Lock()
					defer mu.Unlock()
					if isLayoutRefusal(err) {
						refused = true
						again = append(again, c.indexes...)
						return
					}
					if err != nil {
						if firstErr == nil {
							firstErr = err
						}
						return
					}
					for j, p := range placed(reply, batch) {
						switch p.wire {
						case "absent":
							absent = append(absent, c.indexes[j])
						case "moving":
							again = append(again, c.indexes[j])
						default:
							r, err := p.result()
							if err != nil && firstErr == nil {
								firstErr = err
							}
							results[c.indexes[j]] = r
						}
					}
				}(c)
			}
			wg.Wait()
			return absent
		}
		// during a migration an id whose old shard differs is tried there first ("present" only), then on its new shard
		var moved, direct []int
		for _, i := range pending {
			if layout.oldShardOf(prepared[i].id) >= 0 {
				moved = append(moved, i)
			} else {
				direct = append(direct, i)
			}
		}
		onNew := func(i int) int { return layout.ShardOf(prepared[i].id) }
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); send(direct, onNew, false) }()
		go func() {
			defer wg.Done()
			absent := send(moved, func(i int) int { return layout.oldShardOf(prepared[i].id) }, true)
			mu.Lock()
			failed := firstErr != nil
			mu.Unlock()
			if !failed {
				sort.Ints(absent)
				send(absent, onNew, false)
			}
		}()
		wg.Wait()
		if firstErr != nil {
			return nil, firstErr
		}
		if len(again) == 0 {
			break
		}
		sort.Ints(again)
		giveUp := q.movingMessage(prepared[again[0]].id)
		if refused {
			giveUp = fmt.Sprintf("the layout of queue '%s' kept changing", q.queue)
		}
		if err := q.later(ctx, deadline, giveUp); err != nil {
			return nil, err
		}
		if refused {
			if err := q.refresh(ctx); err != nil {
				return nil, err
			}
		}
		pending = again
	}
	return results, nil
}

func (q *Queue) later(ctx context.Context, deadline time.Time, giveUp string) error {
	if time.Now().After(deadline) {
		return &LayoutChangedError{giveUp}
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(pause):
		return nil
	}
}

func (q *Queue) movingMessage(id string) string {
	return fmt.Sprintf("task '%s' of queue '%s' stayed in a shard's `moving` hash for %d s: a reshard is "+
		"running but its mover seems stopped; resume it (delayq reshard %s --to %d)", id, q.queue, int(patience.Seconds()), q.queue, q.currentLayout().Shards)
}
