"""What the profiles in bench/profile share: a redis-server of their own and one shard's script keys.
(script_cost.py, lone_claim_cost.py, record_layouts.py and enqueue_cost.py all start theirs here.)"""
import atexit
import socket
import subprocess
import time

import redis

SHARD = "dq:{bench:0}:"
# the ten KEYS every shard script takes (include/shard_keys.lua)
KEYS = [SHARD + k for k in ("due", "due:p1", "due:p2", "inflight", "tasks", "attempts", "errors", "dead", "marker", "rate")]


def start():
    """A redis-server on a free loopback port, persistence off, stopped when the profile exits; answers a client."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                              stdout=subprocess.DEVNULL)
    atexit.register(server.terminate)
    r = redis.Redis(port=port)
    for _ in range(100):
        try:
            r.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    return r
