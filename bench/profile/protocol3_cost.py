#!/usr/bin/env python3
"""Protocol 3's real claim + ack beside protocol 2's, per task: what the bucketed hot path saves in Redis' time.

Runs the scripts as they ship, on one shard of a redis-server it starts itself: protocol 3's p3/claim.lua and
p3/ack.lua (assembled as BucketScript does: `--@include name.lua` from p3/include/, then include/) and core's
claim.lua and ack.lua (assembled as LuaScript does, script_cost.py). Each call's time is Redis' own inside the script:
the usec of evalsha in INFO commandstats, read before and after the call; per task, that over the call's tasks.
Workloads, each ending with the shard drained (one shard, records without payload, as script_cost.py's):

  * W1: W1_TASKS due at one instant, claimed in batches of 500 and, as a second row, of 100 (protocol 3 splits its
    250-task buckets then: HRANDFIELD + HDEL + HSET), each claim acked whole right after it;
  * W2-like: W2_CLAIMS rounds of 6 tasks enqueued due now, one claim (batch 500: it takes the 6) and its ack.

Protocol 3's tasks are enqueued with p3/enqueue.lua (W1 in calls of 500, timing 'at' a second in the past; W2 with
timing 'in' 0); protocol 2's are stored as script_cost.py stores them (due ZADD + record HSET, pipelined). Enqueue
is not timed. Claims pass a request id (both protocols then write their replay key, as the clients do) and no
claim-ahead. The two protocols run one after the other in each workload, their order swapped every repetition, REPS
repetitions, so a busy machine slows both alike; figures are the 10th percentile over the calls (the mean: all the
calls' time over all their tasks), total = claim + ack, and the ratio protocol 3 / protocol 2 within the run.

Checked while measuring, every run: each enqueued task claimed exactly once, every ack acking all it was sent, the
drained shard holding nothing but (at most) protocol 3's `seq` and `marker` and one replay key `claim:<request id>` per claim
that took tasks (they expire with the lease) -- protocol 2's: nothing due, in flight or recorded.

  /usr/bin/python3 bench/profile/protocol3_cost.py [REPS=3] [W1_TASKS=50000] [W2_CLAIMS=1000]   (needs redis-server, python3-redis)
"""
import os
import re
import sys
import time
import uuid
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profiled_redis  # noqa: E402
import script_cost  # noqa: E402  (core's scripts as LuaScript assembles them, core's record bucket of an id)

P3_LUA = os.path.join(script_cost.LUA, "p3")
P3_INCLUDES = [os.path.join(P3_LUA, "include"), os.path.join(script_cost.LUA, "include")]  # BucketScript.INCLUDES
IXB = 2039                   # p3/include/buckets.lua's IXB
LEASE_MS = 30_000
RECORD = "0mikxxdds:"        # a compact record without payload: priority digit, enqueuedAt base 36, ':'
ENQUEUE_CALL = 500           # W1's tasks a p3/enqueue.lua call
W1_BATCHES = (500, 100)
W2_PER_CLAIM = 6
W2_BATCH = 500
P = profiled_redis.SHARD     # KEYS[1] of protocol 3's scripts, the prefix of protocol 2's ten shard keys


def assembled_p3(name):
    """A p3/ script with its includes resolved as LuaSource.assemble does for BucketScript (first folder that has it)."""
    def include(m):
        for folder in P3_INCLUDES:
            path = os.path.join(folder, m.group(1))
            if os.path.exists(path):
                return open(path, encoding="utf-8").read()
        raise SystemExit("p3/%s.lua includes %s, which is in none of %s" % (name, m.group(1), P3_INCLUDES))
    raw = open(os.path.join(P3_LUA, name + ".lua"), encoding="utf-8").read()
    return re.sub(r"(?m)^--@include (\S+)$", include, raw)


def ix(task_id):
    """An id's index bucket, as BucketLayout.indexBucket computes it: crc32(id) % IXB."""
    return zlib.crc32(task_id if isinstance(task_id, bytes) else task_id.encode()) % IXB


class Drain:
    """One protocol's scripts on the shared redis-server: its setup (untimed), claim and ack (timed, checked)."""

    def __init__(self, r, name):
        self.r, self.name = r, name
        self.claims = 0  # claims that took tasks in the current run (each leaves a replay key)

    def usec(self):
        return self.r.info("commandstats").get("cmdstat_evalsha", {}).get("usec", 0)

    def fail(self, what):
        raise SystemExit("%s: %s" % (self.name, what))


class Protocol3(Drain):
    def __init__(self, r):
        super().__init__(r, "protocol 3")
        self.enqueue_script, self.claim_script, self.ack_script = (r.register_script(assembled_p3(n)) for n in ("enqueue", "claim", "ack"))

    def enqueue(self, ids, timing, millis):
        """p3/enqueue.lua: ids in calls of ENQUEUE_CALL, all due at millis ('at') or millis from the server clock ('in')."""
        for i in range(0, len(ids), ENQUEUE_CALL):
            part = ids[i:i + ENQUEUE_CALL]
            args = [len(part)]
            for task_id in part:
                args += [task_id, ix(task_id), timing, millis, RECORD, 0]  # level 0, as RECORD says
            out = self.enqueue_script(keys=[P], args=args)
            if out[1::2].count(b"added") != len(part):
                self.fail("enqueue added %d of %d" % (out[1::2].count(b"added"), len(part)))

    def claim(self, batch):
        """Returns (µs, the claim's ids, its in-flight buckets [(name, ids)]). Reply: expiry, server clock, next
        window start, then per bucket its in-flight name and HGETALL (p3/claim.lua's header)."""
        t0 = self.usec()
        out = self.claim_script(keys=[P], args=[batch, LEASE_MS, 0, 0, uuid.uuid4().hex])
        used = self.usec() - t0
        flights = [(out[j], out[j + 1][0::2]) for j in range(3, len(out), 2)]
        ids = [task_id for _, got in flights for task_id in got]
        if ids:
            self.claims += 1
        return used, ids, flights

    def ack(self, flights):
        """ARGV: nb, then per in-flight bucket its name, c, c pairs (id, h). Reply per bucket: c, or a list of flags."""
        args = [len(flights)]
        for fname, ids in flights:
            args += [fname, len(ids)]
            for task_id in ids:
                args += [task_id, ix(task_id)]
        t0 = self.usec()
        out = self.ack_script(keys=[P], args=args)
        used = self.usec() - t0
        for (fname, ids), got in zip(flights, out):
            if got != len(ids):
                self.fail("the ack of %s answered %r for %d tasks" % (fname.decode(), got, len(ids)))
        return used

    def check_drained(self):
        left = {k.decode()[len(P):] for k in self.r.scan_iter(match=P + "*", count=1000)}
        replays = {k for k in left if k.startswith("claim:")}
        others = left - replays - {"seq", "marker"}
        if others:
            self.fail("left in the drained shard: %s" % ", ".join(sorted(others)[:10]))
        if len(replays) != self.claims:
            self.fail("%d replay keys after %d claims" % (len(replays), self.claims))


class Protocol2(Drain):
    def __init__(self, r):
        super().__init__(r, "protocol 2")
        self.claim_script, self.ack_script = r.register_script(script_cost.assembled("claim")), r.register_script(script_cost.assembled("ack"))

    def enqueue(self, ids, due):
        """As script_cost.py stores them: the id in the due set, its record in its record bucket."""
        keys = profiled_redis.KEYS
        pipe = self.r.pipeline(transaction=False)
        for i, task_id in enumerate(ids):
            pipe.zadd(keys[0], {task_id: due})
            pipe.hset("%s:%d" % (keys[4], script_cost.bucket(task_id)), task_id, RECORD)
            if i % 5000 == 4999:
                pipe.execute()
        pipe.execute()

    def claim(self, batch):
        """Returns (µs, the claim's ids, what its ack takes: (token, ids)). Reply: now, next due, token, n, then per
        task id, due, attempt, record."""
        t0 = self.usec()
        out = self.claim_script(keys=profiled_redis.KEYS + [P + "claim:" + uuid.uuid4().hex], args=[batch, LEASE_MS, 0, 0])
        used = self.usec() - t0
        ids = [out[4 + 4 * k] for k in range(out[3])]
        if ids:
            self.claims += 1
        return used, ids, (out[2], ids)

    def ack(self, claimed):
        """ARGV: n, then per task id, token, record bucket, ordered by bucket. Reply: per task 1 (acked) or 0."""
        token, ids = claimed
        args = [len(ids)]
        for task_id in sorted(ids, key=script_cost.bucket):
            args += [task_id, token, script_cost.bucket(task_id)]
        t0 = self.usec()
        out = self.ack_script(keys=profiled_redis.KEYS, args=args)
        used = self.usec() - t0
        if sum(out) != len(ids):
            self.fail("the ack acked %d of %d" % (sum(out), len(ids)))
        return used

    def check_drained(self):
        keys = profiled_redis.KEYS
        due, inflight = self.r.zcard(keys[0]), self.r.zcard(keys[3])
        records = sum(1 for _ in self.r.scan_iter(match=keys[4] + ":*", count=1000))
        if due or inflight or records:
            self.fail("drained shard holds %d due, %d in flight, %d record hashes" % (due, inflight, records))


def drain_step(proto, batch, per_claim, per_ack, claimed):
    """One claim and, when it took tasks, its ack; per-task µs appended. Returns the tasks claimed."""
    used, ids, handle = proto.claim(batch)
    if not ids:
        return 0
    claimed.extend(ids)
    per_claim.append((used, len(ids)))
    per_ack.append((proto.ack(handle), len(ids)))
    return len(ids)


def run(proto, workload, n_w1, w2_claims, first):
    """Sets up and drains one workload with one protocol; returns ([(µs, tasks)] of claims, of acks). Ids start at first."""
    r = proto.r
    r.flushall()
    proto.claims = 0
    per_claim, per_ack, claimed = [], [], []
    if workload.startswith("W1"):
        batch = int(workload.split("B=")[1].rstrip(")"))
        ids = ["t%09d" % i for i in range(first, first + n_w1)]
        due = int(time.time() * 1000) - 1000
        if isinstance(proto, Protocol3):
            proto.enqueue(ids, "at", due)
        else:
            proto.enqueue(ids, due)
        while drain_step(proto, batch, per_claim, per_ack, claimed):
            pass
    else:
        ids = []
        for k in range(w2_claims):
            part = ["t%09d" % i for i in range(first + k * W2_PER_CLAIM, first + (k + 1) * W2_PER_CLAIM)]
            ids += part
            if isinstance(proto, Protocol3):
                proto.enqueue(part, "in", 0)
            else:
                proto.enqueue(part, int(time.time() * 1000) - 1)
            got = drain_step(proto, W2_BATCH, per_claim, per_ack, claimed)
            if got != W2_PER_CLAIM:
                proto.fail("W2 round %d claimed %d of %d" % (k, got, W2_PER_CLAIM))
        if drain_step(proto, W2_BATCH, per_claim, per_ack, claimed):
            proto.fail("W2: a claim after the last round still found tasks")
    decoded = [c.decode() for c in claimed]
    if len(decoded) != len(ids) or set(decoded) != set(ids):
        proto.fail("%s: %d tasks enqueued, %d claims of %d distinct ids" % (workload, len(ids), len(decoded), len(set(decoded))))
    proto.check_drained()
    return per_claim, per_ack


def q10(calls):
    """10th percentile over the calls of µs per task."""
    v = sorted(used / n for used, n in calls)
    return v[len(v) // 10]


def mean(calls):
    """All the calls' µs over all their tasks."""
    return sum(used for used, _ in calls) / sum(n for _, n in calls)


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    n_w1 = int(sys.argv[2]) if len(sys.argv) > 2 else 50_000
    w2_claims = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    started = time.time()
    r = profiled_redis.start()
    protocols = [Protocol2(r), Protocol3(r)]
    workloads = ["W1 (claims of B=%d)" % b for b in W1_BATCHES] + ["W2-like (~%d a claim)" % W2_PER_CLAIM]
    figures = {(w, p.name): ([], []) for w in workloads for p in protocols}
    for rep in range(reps):
        for workload in workloads:
            for proto in (protocols if rep % 2 == 0 else protocols[::-1]):
                claims, acks = run(proto, workload, n_w1, w2_claims, first=rep * 10_000_000)
                figures[(workload, proto.name)][0].extend(claims)
                figures[(workload, proto.name)][1].extend(acks)

    print("Redis script time per task, µs: 10th percentile over the calls (mean); %d repetitions, interleaved; "
          "W1: %d tasks due at one instant; W2-like: %d claims of %d; redis-server %s; %.0f s"
          % (reps, n_w1, w2_claims, W2_PER_CLAIM, r.info("server")["redis_version"], time.time() - started))
    print("| workload | calls | p2 claim | p2 ack | p2 claim + ack | p3 claim | p3 ack | p3 claim + ack | p3/p2 claim | p3/p2 ack | p3/p2 total |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for workload in workloads:
        cells, q, m = [], {}, {}
        for name in ("protocol 2", "protocol 3"):
            claims, acks = figures[(workload, name)]
            q[name] = (q10(claims), q10(acks), q10(claims) + q10(acks))
            m[name] = (mean(claims), mean(acks), mean(claims) + mean(acks))
            cells += ["%.2f (%.2f)" % (q[name][k], m[name][k]) for k in range(3)]
        ratios = ["%.2f (%.2f)" % (q["protocol 3"][k] / q["protocol 2"][k], m["protocol 3"][k] / m["protocol 2"][k]) for k in range(3)]
        calls = "%d / %d" % (len(figures[(workload, "protocol 2")][0]), len(figures[(workload, "protocol 3")][0]))
        print("| %s | %s | %s |" % (workload, calls, " | ".join(cells + ratios)))
    print("calls: claims of protocol 2 / protocol 3 over all repetitions (each acked). Checked every run: each task "
          "claimed once, every ack complete, the drained shards empty (p3: at most seq and marker, and one replay key a claim).")


if __name__ == "__main__":
    main()
