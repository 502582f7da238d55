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
	"github.com/mna/redisc"
)

// The same operations on a real Redis Cluster of three primaries: the one DELAYQ_TEST_REDIS_CLUSTER_URL names (the
// interop module's GoClientTest passes its own), else three redis-server processes from PATH in cluster mode, the
// slots split evenly (CLUSTER ADDSLOTS), introduced with CLUSTER MEET. Skipped without redis-server, failed under CI.

type redisCluster struct {
	url   string
	nodes []*clusterNode
}

type clusterNode struct {
	addr  string
	admin redis.Conn
}

func (n *clusterNode) do(t *testing.T, command string, args ...any) any {
	t.Helper()
	reply, err := n.admin.Do(command, args...)
	if err != nil {
		t.Fatalf("%s %s %v: %v", n.addr, command, args, err)
	}
	return reply
}

func (n *clusterNode) id(t *testing.T) string {
	id, _ := redis.String(n.do(t, "CLUSTER", "MYID"), nil)
	return id
}

func dialNode(t *testing.T, addr string) *clusterNode {
	t.Helper()
	conn, err := redis.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("cluster node %s: %v", addr, err)
	}
	t.Cleanup(func() { conn.Close() })
	return &clusterNode{addr: addr, admin: conn}
}

// freePortWithBusPort is a free loopback port whose cluster bus port (port + 10000) is free too.
func freePortWithBusPort(t *testing.T) int {
	t.Helper()
	for i := 0; i < 100; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if port+10000 > 65535 {
			continue
		}
		bus, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port+10000))
		if err == nil {
			bus.Close()
			return port
		}
	}
	t.Fatal("no free port with a free cluster bus port")
	return 0
}

func startCluster(t *testing.T) *redisCluster {
	t.Helper()
	if url := os.Getenv("DELAYQ_TEST_REDIS_CLUSTER_URL"); url != "" {
		e, err := parseURL(url)
		if err != nil || !e.cluster {
			t.Fatalf("DELAYQ_TEST_REDIS_CLUSTER_URL=%s is not a cluster URL (%v)", url, err)
		}
		c := &redisCluster{url: url}
		for _, addr := range e.nodes {
			c.nodes = append(c.nodes, dialNode(t, addr))
		}
		return c
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
	c := &redisCluster{}
	var addrs []string
	for i := 0; i < 3; i++ {
		port := freePortWithBusPort(t)
		cmd := exec.Command(binary, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
			"--dir", t.TempDir(), "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		addrs = append(addrs, addr)
		deadline := time.Now().Add(20 * time.Second)
		for {
			conn, err := redis.Dial("tcp", addr)
			if err == nil {
				conn.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("redis-server in cluster mode did not start: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		c.nodes = append(c.nodes, dialNode(t, addr))
	}
	per := 16384 / len(c.nodes)
	for i, n := range c.nodes {
		last := (i+1)*per - 1
		if i == len(c.nodes)-1 {
			last = 16384 - 1
		}
		slots := []any{"ADDSLOTS"}
		for s := i * per; s <= last; s++ {
			slots = append(slots, s)
		}
		n.do(t, "CLUSTER", slots...)
	}
	for _, n := range c.nodes[1:] {
		host, port, _ := net.SplitHostPort(n.addr)
		c.nodes[0].do(t, "CLUSTER", "MEET", host, port)
	}
	waitUntil(t, "the cluster serves every slot on every node", func() bool {
		for _, n := range c.nodes {
			info, _ := redis.String(n.admin.Do("CLUSTER", "INFO"))
			if !strings.Contains(info, "cluster_state:ok") || !strings.Contains(info, fmt.Sprintf("cluster_known_nodes:%d", len(c.nodes))) {
				return false
			}
		}
		return true
	})
	c.url = "redis-cluster://" + strings.Join(addrs, ",")
	return c
}

func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// owner is the node that serves a slot, as CLUSTER SLOTS on the first node says.
func (c *redisCluster) owner(t *testing.T, slot int) *clusterNode {
	t.Helper()
	ranges, _ := redis.Values(c.nodes[0].do(t, "CLUSTER", "SLOTS"), nil)
	for _, r := range ranges {
		fields, _ := redis.Values(r, nil)
		from, _ := redis.Int(fields[0], nil)
		to, _ := redis.Int(fields[1], nil)
		if slot < from || slot > to {
			continue
		}
		primary, _ := redis.Values(fields[2], nil)
		host, _ := redis.String(primary[0], nil)
		port, _ := redis.Int(primary[1], nil)
		for _, n := range c.nodes {
			if n.addr == fmt.Sprintf("%s:%d", host, port) {
				return n
			}
		}
	}
	t.Fatalf("no node serves slot %d", slot)
	return nil
}

// moveSlot hands a slot and its keys from its node to another, as redis-cli --cluster reshard does, and tells
// every node: a client that knew the old owner then meets MOVED.
func (c *redisCluster) moveSlot(t *testing.T, slot int, to *clusterNode) {
	t.Helper()
	from := c.owner(t, slot)
	to.do(t, "CLUSTER", "SETSLOT", slot, "IMPORTING", from.id(t))
	from.do(t, "CLUSTER", "SETSLOT", slot, "MIGRATING", to.id(t))
	host, port, _ := net.SplitHostPort(to.addr)
	for {
		keys, _ := redis.Strings(from.do(t, "CLUSTER", "GETKEYSINSLOT", slot, 100), nil)
		if len(keys) == 0 {
			break
		}
		args := []any{host, port, "", 0, 5000, "KEYS"}
		for _, k := range keys {
			args = append(args, k)
		}
		from.do(t, "MIGRATE", args...)
	}
	for _, n := range c.nodes {
		n.do(t, "CLUSTER", "SETSLOT", slot, "NODE", to.id(t))
	}
}

func TestEveryOperationOnARealRedisCluster(t *testing.T) {
	c := startCluster(t)
	ctx := context.Background()
	name := unique("coupons")
	q, err := Connect(ctx, c.url, Options{Queue: name, Shards: 12})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	var tasks []Task
	for i := 0; i < 60; i++ {
		tasks = append(tasks, Task{ID: fmt.Sprintf("coupon-%d", i), Delay: time.Hour, Payload: Ptr(fmt.Sprintf("expire C-%d", i)),
			Priority: Priority(i % 3)})
	}
	results, err := q.EnqueueMany(ctx, tasks, Reject)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range results {
		if r.Status != Added {
			t.Errorf("coupon-%d: %+v", i, r)
		}
	}
	// the shards' keys are spread over the nodes, each shard's keys on one node (its hash tag)
	for _, n := range c.nodes {
		if keys, _ := redis.Strings(n.do(t, "KEYS", fmt.Sprintf("dq:{%s:*", name)), nil); len(keys) == 0 {
			t.Errorf("node %s holds none of the queue's shards", n.addr)
		}
	}
	for i := 0; i < 60; i++ {
		id := fmt.Sprintf("coupon-%d", i)
		info, err := q.Inspect(ctx, id)
		if err != nil || info.State != Scheduled || info.Priority != Priority(i%3) || info.Score != results[i].DueAt.UnixMilli() ||
			info.Record == nil || *info.Record.Payload != fmt.Sprintf("expire C-%d", i) {
			t.Errorf("%s: %+v (%v)", id, info, err)
		}
	}
	if res, err := q.Enqueue(ctx, tasks[5], Reject); err != nil || res.Status != Duplicate {
		t.Errorf("%+v (%v)", res, err)
	}
	if res, err := q.Reschedule(ctx, "coupon-8", In(2*time.Hour)); err != nil || res.Status != Rescheduled {
		t.Errorf("%+v (%v)", res, err)
	}
	if res, err := q.Cancel(ctx, "coupon-7"); err != nil || res != Cancelled {
		t.Errorf("%s (%v)", res, err)
	}
	if info, _ := q.Inspect(ctx, "coupon-7"); info.State != StateUnknown {
		t.Errorf("%+v", info)
	}
	if stats, err := q.Stats(ctx); err != nil || stats.Scheduled != 59 || len(stats.Shards) != 12 {
		t.Errorf("%+v (%v)", stats, err)
	}
	if cal, err := q.Calendar(ctx, "business"); err != nil || cal != nil {
		t.Errorf("%v (%v)", cal, err)
	}

	// a shard's slot moves to another node behind the client's back: MOVED is followed, nothing is lost
	shard := ShardOf("coupon-9", 12)
	slot := redisc.Slot(shardKeys(name, shard)[0])
	from := c.owner(t, slot)
	to := c.nodes[0]
	if to == from {
		to = c.nodes[1]
	}
	c.moveSlot(t, slot, to)
	if info, err := q.Inspect(ctx, "coupon-9"); err != nil || info.State != Scheduled || info.Shard != shard {
		t.Errorf("after the slot moved: %+v (%v)", info, err)
	}
	if res, err := q.Cancel(ctx, "coupon-9"); err != nil || res != Cancelled {
		t.Errorf("after the slot moved: %s (%v)", res, err)
	}

	// replica acknowledgements wait on the shard's primary (this cluster has no replicas: 0 confirm), also after
	// a slot moved under the pipelined enqueue and WAIT
	acks, err := Connect(ctx, c.url, Options{Queue: name, Shards: 12, ReplicaAcks: 1, ReplicaAckTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer acks.Close()
	c.moveSlot(t, slot, from)
	var ackErr *ReplicaAckError
	_, err = acks.Enqueue(ctx, Task{ID: "coupon-9", Delay: time.Hour}, Reject)
	if !errors.As(err, &ackErr) || ackErr.Acknowledged != 0 || ackErr.Results[0].Status != Added {
		t.Errorf("%v", err)
	}
	if stats, err := q.Stats(ctx); err != nil || stats.Scheduled != 59 {
		t.Errorf("%+v (%v)", stats, err)
	}
}

func TestAClusterThatCannotBeReachedIsNamedWithoutItsPassword(t *testing.T) {
	port := freePortWithBusPort(t)
	_, err := Connect(context.Background(), fmt.Sprintf("redis-cluster://app:secret@127.0.0.1:%d", port),
		Options{Queue: "orders", Shards: 4, Timeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("cannot use Redis at redis-cluster://app:***@127.0.0.1:%d", port)) ||
		strings.Contains(err.Error(), "secret") {
		t.Errorf("%v", err)
	}
}
