"""docs/protocol.md's by-hand recipes, run as written against a real Redis, read back by the library:
what a hand-written producer does there is a task delayq sees, with its payload and the wake-up marker."""
import re
import shlex
import unittest
from pathlib import Path

from delayq import DelayQueue, EnqueueStatus, TaskState, protocol

from .redis_server import RedisServer

DOCS = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"


class DocsRecipesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not DOCS.exists():
            raise unittest.SkipTest(f"{DOCS} not in this checkout")
        cls.text = DOCS.read_text(encoding="utf-8")
        cls.redis = RedisServer()

    @classmethod
    def tearDownClass(cls):
        cls.redis.stop()

    def setUp(self):
        self.redis.admin.flushall()
        # docs/protocol.md's recipes write protocol 2's keys: the queue is created as protocol 2
        self.q = DelayQueue.connect(self.redis.url, queue="orders", shards=16, protocol_for_new_queues=2)
        self.addCleanup(self.q.close)

    def assert_scheduled(self, due):
        info = self.q.inspect("order-8812")
        self.assertEqual((info.state, info.score, info.record.payload), (TaskState.SCHEDULED, due, "cancel-if-unpaid"))
        marker = "dq:{orders:%d}:marker" % protocol.shard_of("order-8812", 16)
        self.assertEqual(self.redis.admin.zscore(marker, "next"), due)

    def test_the_multi_exec_recipe(self):
        block = re.search(r"```\nMULTI\n(.*?)EXEC\n```", self.text, re.S).group(1)
        with self.redis.admin.pipeline(transaction=True) as tx:
            for line in block.strip().splitlines():
                tx.execute_command(*shlex.split(line))
            tx.execute()
        self.assert_scheduled(1764461800000)

    def test_the_enqueue_script_recipe_adds_once_then_refuses_the_id(self):
        command = re.search(r'```\n(EVAL ".*?)\n```', self.text, re.S).group(1)
        args = shlex.split(command)[1:]
        self.assertEqual(self.redis.admin.execute_command("EVAL", *args), 1)
        self.assert_scheduled(1764461800000)
        self.assertEqual(self.redis.admin.execute_command("EVAL", *args), 0)
        self.assertEqual(self.q.enqueue("order-8812").status, EnqueueStatus.DUPLICATE)
        # the recipe's keys are the ones the library computes for the id
        self.assertIn(protocol.record_key("orders", protocol.shard_of("order-8812", 16), "order-8812"), args)


if __name__ == "__main__":
    unittest.main()
