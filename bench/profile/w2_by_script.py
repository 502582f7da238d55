#!/usr/bin/env python3
"""Where W2's Redis time goes, script by script: the benchmark's "delayq, defaults" W2, with every call's time logged.

Runs `./bench/run.sh --only defaults --runs 1 --no-memory --no-costs` (docs written to a scratch directory), attaches
to the redis-server the harness starts (its child process) and sets `slowlog-log-slower-than 0`, so Redis logs every
call with its duration: the scripts' calls (named by the SHA-1 of each script as core assembles it: protocol 2's from
src/main/resources/delayq/lua, protocol 3's from p3/ with p3/include/ before include/) and the commands those scripts
run (Redis 7 logs them too, each inside its script's own duration). The log is drained every 0.3 s; the seconds in which
at least 500 single-task enqueues ran are W2's (W1 enqueues in calls of thousands). Per script it prints calls per task,
Redis' time per call and per task (µs, the command's own time: not the socket's read, parse and reply).

Logging every call costs Redis time of its own (an entry per command, nested ones too), so the durations are higher
than in the benchmark's unlogged W2: compare the rows' shares, not their sums with the benchmark's Redis CPU.

  /usr/bin/python3 bench/profile/w2_by_script.py      (~4 minutes; needs redis-server, python3-redis, what run.sh needs)
"""
import collections
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time

import redis

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol3_cost  # noqa: E402  (protocol 3's scripts as BucketScript assembles them)
import script_cost  # noqa: E402  (protocol 2's, as LuaScript does)

ROOT = script_cost.ROOT
W2_MIN_ENQUEUES = 500


def script_names():
    """SHA-1 -> name of every script as core assembles it (script_cost.py and protocol3_cost.py assemble them)."""
    names = {}
    for f in os.listdir(script_cost.LUA):
        if f.endswith(".lua"):
            names[hashlib.sha1(script_cost.assembled(f[:-4]).encode("utf-8")).hexdigest()] = f[:-4]
    for f in os.listdir(protocol3_cost.P3_LUA):
        if f.endswith(".lua"):
            names[hashlib.sha1(protocol3_cost.assembled_p3(f[:-4]).encode("utf-8")).hexdigest()] = "p3/" + f[:-4]
    return names


def harness_redis_port(pid):
    """The port of the redis-server the harness (process `pid`, the JVM run.sh execs) started, once it has."""
    while True:
        children = subprocess.run(["pgrep", "-a", "-P", str(pid), "redis-server"], capture_output=True, text=True).stdout
        for line in children.splitlines():
            m = re.search(r"--port (\d+)", line) or re.search(r":(\d+)", line)
            if m:
                return int(m.group(1))
        time.sleep(0.2)


def main():
    names = script_names()
    docs = tempfile.mkdtemp(prefix="w2-by-script-")
    # the harness's output goes to a file: a pipe read only at the end would stall it once full
    log_file = open(os.path.join(docs, "harness.log"), "w+", encoding="utf-8")
    bench = subprocess.Popen(["./bench/run.sh", "--only", "defaults", "--runs", "1", "--no-memory", "--no-costs", "--docs", docs],
                             cwd=ROOT, stdout=log_file, stderr=subprocess.STDOUT, text=True)
    port = harness_redis_port(bench.pid)
    r = redis.Redis(port=port)
    r.config_set("slowlog-log-slower-than", 0)
    r.config_set("slowlog-max-len", 100000)
    per_second = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    while bench.poll() is None:
        time.sleep(0.3)
        try:
            entries = r.slowlog_get(100000)
            r.slowlog_reset()
        except redis.RedisError:
            break
        for e in entries:
            command = e["command"].decode("utf-8", "replace") if isinstance(e["command"], bytes) else e["command"]
            parts = command.split(" ")
            name = parts[0].lower()
            if name == "evalsha" and len(parts) > 1:
                name = "script " + names.get(parts[1], "unknown " + parts[1][:8])
                # protocol 3's enqueue: KEYS[1], then ARGV[1] = tasks in the call
                if name == "script p3/enqueue" and len(parts) > 4:
                    name += " of " + parts[4]
            elif name == "slowlog":
                continue
            cell = per_second[e["start_time"]][name]
            cell[0] += 1
            cell[1] += e["duration"]
    bench.wait()
    log_file.seek(0)
    log = log_file.read()
    if bench.returncode != 0:
        sys.stdout.write(log)
        raise SystemExit("run.sh failed")
    w2 = [s for s, cells in per_second.items() if cells.get("script p3/enqueue of 1", [0])[0] >= W2_MIN_ENQUEUES]
    totals = collections.defaultdict(lambda: [0, 0])
    for s in w2:
        for name, (calls, usec) in per_second[s].items():
            totals[name][0] += calls
            totals[name][1] += usec
    tasks = totals["script p3/enqueue of 1"][0]
    print(f"W2 of delayq, defaults: {len(w2)} seconds, {tasks:,} single-task enqueues; every call logged (slowlog at 0)")
    print(next((line for line in log.splitlines() if "W2 lag" in line), "").strip())
    print("| call | calls / task | µs / call | µs / task |")
    print("|---|---:|---:|---:|")
    scripts = sorted((n for n in totals if n.startswith("script ")), key=lambda n: -totals[n][1])
    for name in scripts:
        calls, usec = totals[name]
        print(f"| {name[7:]} | {calls / tasks:.3f} | {usec / calls:.1f} | {usec / tasks:.2f} |")
    nested = sorted((n for n in totals if not n.startswith("script ")), key=lambda n: -totals[n][1])
    print("| (commands, most inside the scripts above) | | | |")
    for name in nested:
        calls, usec = totals[name]
        print(f"| {name} | {calls / tasks:.3f} | {usec / calls:.1f} | {usec / tasks:.2f} |")


if __name__ == "__main__":
    main()
