"""A real redis-server for the tests, on a free loopback port (never a mock); skipped without one."""
import os
import shutil
import socket
import subprocess
import tempfile
import time
import unittest

import redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, *args: str) -> None:
        binary = os.environ.get("DELAYQ_REDIS_SERVER") or shutil.which("redis-server")
        if not binary:
            raise unittest.SkipTest("redis-server is not on PATH (Debian: apt-get install redis-server)")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="delayq-py-redis-")
        self.process = subprocess.Popen([binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                         "--appendonly", "no", "--dir", self.dir, *args],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"redis://127.0.0.1:{self.port}"
        self.admin = redis.Redis(host="127.0.0.1", port=self.port, decode_responses=True)
        deadline = time.monotonic() + 20
        while True:
            try:
                self.admin.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError("redis-server did not start")
                time.sleep(0.02)

    def stop(self) -> None:
        self.admin.close()
        self.admin.connection_pool.disconnect()
        self.process.kill()
        self.process.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


class WithRedis:
    """A test-class mixin: one real redis-server for the class, as ``cls.redis``."""
    redis: RedisServer

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.redis = RedisServer()

    @classmethod
    def tearDownClass(cls):
        cls.redis.stop()
        super().tearDownClass()
