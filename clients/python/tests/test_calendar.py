"""Business calendars: the shared vectors (the same answers as core's Java), validation by field, and reading a
calendar that another client stored in Redis."""
import json
import unittest
from datetime import datetime, timezone
from pathlib import Path

from delayq import Calendar, DelayQueue, InvalidInputException, after_business_days, roll_forward
from delayq.aio import AsyncDelayQueue
from delayq.calendar import calendars_key

from .redis_server import WithRedis

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "protocol-vectors.json").read_text(encoding="utf-8"))


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def calendars():
    out = {}
    for c in VECTORS["calendars"]:
        cal = Calendar.from_json(json.dumps(c))
        assert cal.to_json() == json.dumps(c, separators=(",", ":"), ensure_ascii=False), c
        out[cal.name] = cal
    return out


class BusinessTimeVectorsTest(unittest.TestCase):
    def test_due_times_are_the_vectors(self):
        cals = calendars()
        self.assertGreater(len(VECTORS["businessTime"]), 30)
        for v in VECTORS["businessTime"]:
            cal = cals[v["calendar"]]
            if v["op"] == "afterBusinessDays":
                due = after_business_days(cal, instant(v["from"]), v["businessDays"], v["time"])
            else:
                due = roll_forward(cal, instant(v["at"]))
            self.assertEqual(due, instant(v["due"]), v["why"])

    def test_invalid_calendars_are_refused_with_cores_messages(self):
        for v in VECTORS["invalidCalendars"]:
            with self.assertRaises(InvalidInputException, msg=v["calendar"]) as caught:
                Calendar.from_json(json.dumps(v["calendar"]))
            self.assertEqual((caught.exception.field, str(caught.exception)), (v["field"], v["message"]))

    def test_bad_counts_times_and_too_many_holidays_name_their_field(self):
        cal = Calendar.of("x", "UTC")
        with self.assertRaises(InvalidInputException) as caught:
            after_business_days(cal, datetime.now(timezone.utc), 1001, "10:00")
        self.assertEqual(str(caught.exception), "businessDays: must be 0 to 1000, got 1001")
        with self.assertRaises(InvalidInputException) as caught:
            after_business_days(cal, datetime.now(timezone.utc), 1, "24:00")
        self.assertEqual(caught.exception.field, "time")
        with self.assertRaises(InvalidInputException) as caught:
            Calendar.from_json(json.dumps({"name": "x", "timeZone": "UTC", "weekdays": ["MON"],
                                           "holidays": [f"{2000 + i}-01-01" for i in range(1001)]}))
        self.assertEqual(str(caught.exception), "holidays: must hold at most 1000 dates, got 1001")


class StoredCalendarTest(WithRedis, unittest.TestCase):
    def test_a_calendar_stored_in_canonical_form_is_read_by_the_sync_and_async_clients(self):
        stored = VECTORS["calendars"][0]
        self.redis.admin.hset(calendars_key("payouts"), stored["name"], json.dumps(stored, separators=(",", ":")))
        with DelayQueue.connect(self.redis.url, queue="payouts", shards=2) as q:
            cal = q.calendar(stored["name"])
            self.assertIsNone(q.calendar("absent"))
            due = after_business_days(cal, instant("2026-12-23T12:00:00Z"), 1, "10:00")
            q.enqueue("payout-1", due_at=due)
            self.assertEqual(q.inspect("payout-1").score, int(due.timestamp() * 1000))

        async def read():
            a = await AsyncDelayQueue.connect(self.redis.url, queue="payouts", shards=2)
            try:
                return await a.calendar(stored["name"])
            finally:
                await a.close()
        import asyncio
        self.assertEqual(asyncio.run(read()), cal)
