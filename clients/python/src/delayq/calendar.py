"""Business calendars and the due times computed on them: pure functions, the same answers as core's Java
``io.delayq.calendar.BusinessTime`` (checked against clients/protocol-vectors.json, "businessTime").

A calendar is stored in ``dq:{q}:calendars`` (HASH name → canonical JSON); ``DelayQueue.calendar(name)`` reads it.

>>> cal = Calendar.from_json('{"name":"payouts","timeZone":"Europe/Berlin","weekdays":["MON","TUE","WED","THU","FRI"],'
...                          '"holidays":["2026-12-24","2026-12-25"]}')
>>> due = after_business_days(cal, now, 3, "10:00")   # an aware datetime, for enqueue(..., at=due)
"""
import json
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import FrozenSet, Iterable, Optional, Union

from .errors import InvalidInputException

try:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
except ImportError:  # Python 3.8 and older have no zoneinfo
    ZoneInfo = None

MAX_NAME_LENGTH = 63
MAX_HOLIDAYS = 1000
MAX_BUSINESS_DAYS = 1000
FIRST_DATE = date(1970, 1, 1)
LAST_DATE = date(9999, 12, 31)
DAY_NAMES = ("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN")
_MAX_SEARCH_DAYS = 7 * (MAX_HOLIDAYS + 2)
_NAME = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIME = re.compile(r"\d{2}:\d{2}(:\d{2})?")
_FIELDS = ("name", "timeZone", "weekdays", "holidays")


def calendars_key(queue: str) -> str:
    return "dq:{" + queue + "}:calendars"


def require_name(name) -> str:
    if not name:
        raise InvalidInputException("name", "must not be empty")
    if not isinstance(name, str) or len(name) > MAX_NAME_LENGTH or not _NAME.fullmatch(name):
        raise InvalidInputException("name", "must be a DNS label (lower-case letters, digits and '-', at most "
                                    f"{MAX_NAME_LENGTH} characters, starting and ending with a letter or digit), got \"{name}\"")
    return name


def _zone(tz):
    if not tz or not isinstance(tz, str) or not tz.strip():
        raise InvalidInputException("timeZone", "must not be empty (an IANA zone such as Europe/Berlin, or UTC)")
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInputException("timeZone", f"must be an IANA time zone such as Europe/Berlin or UTC, got \"{tz}\"") from None


def _date(field, text) -> date:
    if not isinstance(text, str) or not _DATE.fullmatch(text):
        raise InvalidInputException(field, f"dates must be written YYYY-MM-DD, got \"{text}\"")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidInputException(field, f"\"{text}\" is not a date of the calendar") from None


def parse_time(text) -> time:
    if isinstance(text, time):
        return text
    if not isinstance(text, str) or not _TIME.fullmatch(text):
        raise InvalidInputException("time", f"must be a local time HH:MM or HH:MM:SS (24-hour), got \"{text}\"")
    try:
        return time.fromisoformat(text)
    except ValueError:
        raise InvalidInputException("time", f"must be a local time HH:MM or HH:MM:SS (24-hour), got \"{text}\"") from None


@dataclass(frozen=True)
class Calendar:
    """Working weekdays (0 = Monday … 6 = Sunday) in a time zone, minus holiday dates."""
    name: str
    time_zone: str
    weekdays: FrozenSet[int]
    holidays: FrozenSet[date]

    def __post_init__(self):
        require_name(self.name)
        _zone(self.time_zone)
        if not self.weekdays:
            raise InvalidInputException("weekdays", "must name at least one working weekday (MON … SUN)")
        if len(self.holidays) > MAX_HOLIDAYS:
            raise InvalidInputException("holidays", f"must hold at most {MAX_HOLIDAYS} dates, got {len(self.holidays)}")
        for d in sorted(self.holidays):
            if d < FIRST_DATE or d > LAST_DATE:
                raise InvalidInputException("holidays", f"dates must be between {FIRST_DATE} and {LAST_DATE}, got {d}")

    @staticmethod
    def of(name: str, time_zone: str, weekdays: Iterable[str] = DAY_NAMES[:5], holidays: Iterable[Union[str, date]] = ()):
        days = frozenset(_weekday(d) for d in weekdays)
        dates = frozenset(d if isinstance(d, date) else _date("holidays", d) for d in holidays)
        return Calendar(name, time_zone, days, dates)

    @staticmethod
    def from_json(text: str) -> "Calendar":
        try:
            o = json.loads(text)
        except ValueError as e:
            raise InvalidInputException("calendar", f"is not valid JSON: {e}") from None
        if not isinstance(o, dict):
            raise InvalidInputException("calendar", "must be a JSON object")
        for f in o:
            if f not in _FIELDS:
                raise InvalidInputException(f, "is not a calendar field (name, timeZone, weekdays, holidays)")
        days = frozenset(_weekday(d) for d in _strings(o, "weekdays"))
        texts = _strings(o, "holidays")
        if len(texts) > MAX_HOLIDAYS:
            raise InvalidInputException("holidays", f"must hold at most {MAX_HOLIDAYS} dates, got {len(texts)}")
        dates = frozenset(_date("holidays", d) for d in texts)
        name = o.get("name") if isinstance(o.get("name"), str) else None
        tz = o.get("timeZone") if isinstance(o.get("timeZone"), str) else None
        require_name(name)
        return Calendar(name, tz, days, dates)

    def to_json(self) -> str:
        """The canonical form stored in Redis: the same text as core's Java ``BusinessCalendar.toJson``."""
        return json.dumps({"name": self.name, "timeZone": self.time_zone,
                           "weekdays": [DAY_NAMES[d] for d in sorted(self.weekdays)],
                           "holidays": [d.isoformat() for d in sorted(self.holidays)]},
                          separators=(",", ":"), ensure_ascii=False)

    @property
    def zone(self):
        return _zone(self.time_zone)

    def is_business_day(self, d: date) -> bool:
        return d.weekday() in self.weekdays and d not in self.holidays


def _weekday(text) -> int:
    if isinstance(text, str) and text.upper() in DAY_NAMES:
        return DAY_NAMES.index(text.upper())
    raise InvalidInputException("weekdays", f"each must be one of MON, TUE, WED, THU, FRI, SAT, SUN, got \"{text}\"")


def _strings(o, field):
    a = o.get(field)
    if a is None:
        return []
    if not isinstance(a, list) or not all(isinstance(x, str) for x in a):
        raise InvalidInputException(field, "must be a JSON array of strings")
    return a


def _ms(t: datetime) -> int:
    if t.tzinfo is None:
        raise InvalidInputException("at", "must be an aware datetime (with a time zone)")
    return (t - datetime(1970, 1, 1, tzinfo=timezone.utc)) // timedelta(milliseconds=1)


def _local_date(cal: Calendar, ms: int) -> date:
    return datetime.fromtimestamp(ms // 1000, cal.zone).date()


def _instant_of(cal: Calendar, d: date, t: time) -> int:
    # fold=0: a time in a gap uses the offset before it (later by the gap's length), an overlap its first instant
    return _ms(datetime.combine(d, t).replace(tzinfo=cal.zone, fold=0))


def next_business_day(cal: Calendar, d: date) -> date:
    cur = d
    for _ in range(_MAX_SEARCH_DAYS):
        if cur >= LAST_DATE:
            break
        cur = cur + timedelta(days=1)
        if cal.is_business_day(cur):
            return cur
    raise InvalidInputException("dueAt", f"calendar {cal.name} has no business day after {d} up to {LAST_DATE}")


def _aware(ms: int) -> datetime:
    return datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(milliseconds=ms)


def roll_forward(cal: Calendar, at: datetime) -> datetime:
    """``at`` if it falls on a business day, else the start of the next business day (UTC datetime)."""
    ms = _ms(at)
    d = _local_date(cal, ms)
    if cal.is_business_day(d):
        return _aware(ms)
    return _aware(_instant_of(cal, next_business_day(cal, d), time(0)))


def after_business_days(cal: Calendar, start: datetime, days: int, at_time: Union[str, time]) -> datetime:
    """At ``at_time`` on the ``days``-th business day after ``start``'s day (day 0: that day if it is a business day,
    else the next one); with ``days=0`` a time already past moves to the next business day."""
    if not isinstance(days, int) or isinstance(days, bool) or days < 0 or days > MAX_BUSINESS_DAYS:
        raise InvalidInputException("businessDays", f"must be 0 to {MAX_BUSINESS_DAYS}, got {days}")
    t = parse_time(at_time)
    from_ms = _ms(start)
    d = _local_date(cal, from_ms)
    if not cal.is_business_day(d):
        d = next_business_day(cal, d)
    for _ in range(days):
        d = next_business_day(cal, d)
    due = _instant_of(cal, d, t)
    if due < from_ms:
        due = _instant_of(cal, next_business_day(cal, d), t)
    return _aware(due)


def business_calendar(redis_client, queue: str, name: str) -> Optional[Calendar]:
    """Reads a calendar from Redis with a redis-py client (sync); None when the queue has none of that name."""
    raw = redis_client.hget(calendars_key(queue), require_name(name))
    if raw is None:
        return None
    return Calendar.from_json(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
