'use strict';
// Business calendars and the due times computed on them: pure functions with the same answers as core's Java
// io.delayq.calendar.BusinessTime (checked against clients/protocol-vectors.json, "businessTime").
// A calendar is stored in dq:{q}:calendars (HASH name -> canonical JSON); DelayQueue#calendar(name) reads it.
const { InvalidInputException } = require('./errors');

const MAX_NAME_LENGTH = 63;
const MAX_HOLIDAYS = 1000;
const MAX_BUSINESS_DAYS = 1000;
const DAY_MS = 86400000;
const DAY_NAMES = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];
const FIRST_DAY = 0; // 1970-01-01
const LAST_DAY = Date.UTC(9999, 11, 31) / DAY_MS;
const MAX_SEARCH_DAYS = 7 * (MAX_HOLIDAYS + 2);
const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;
const FIELDS = ['name', 'timeZone', 'weekdays', 'holidays'];
const formatters = new Map();

function calendarsKey(queue) {
  return `dq:{${queue}}:calendars`;
}

function requireName(name) {
  if (name === undefined || name === null || name === '') throw new InvalidInputException('name', 'must not be empty');
  if (typeof name !== 'string' || name.length > MAX_NAME_LENGTH || !NAME.test(name)) {
    throw new InvalidInputException('name', 'must be a DNS label (lower-case letters, digits and \'-\', at most '
      + `${MAX_NAME_LENGTH} characters, starting and ending with a letter or digit), got "${name}"`);
  }
  return name;
}

function formatter(zone) {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

function requireZone(zone) {
  if (typeof zone !== 'string' || zone.trim() === '') {
    throw new InvalidInputException('timeZone', 'must not be empty (an IANA zone such as Europe/Berlin, or UTC)');
  }
  try {
    formatter(zone);
  } catch (e) {
    throw new InvalidInputException('timeZone', `must be an IANA time zone such as Europe/Berlin or UTC, got "${zone}"`);
  }
  return zone;
}

function dayOf(field, text) {
  if (typeof text !== 'string' || !DATE.test(text)) {
    throw new InvalidInputException(field, `dates must be written YYYY-MM-DD, got "${text}"`);
  }
  const [y, m, d] = text.split('-').map(Number);
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  if (y < 1 || back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) {
    throw new InvalidInputException(field, `"${text}" is not a date of the calendar`);
  }
  return Math.round(ms / DAY_MS);
}

function dayText(day) {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function weekdayOf(text) {
  const i = typeof text === 'string' ? DAY_NAMES.indexOf(text.toUpperCase()) : -1;
  if (i < 0) throw new InvalidInputException('weekdays', `each must be one of MON, TUE, WED, THU, FRI, SAT, SUN, got "${text}"`);
  return i;
}

function strings(o, field) {
  const a = o[field];
  if (a === undefined || a === null) return [];
  if (!Array.isArray(a) || !a.every((x) => typeof x === 'string')) {
    throw new InvalidInputException(field, 'must be a JSON array of strings');
  }
  return a;
}

/** Working weekdays (0 = Monday … 6 = Sunday) in a time zone, minus holiday dates (days since 1970-01-01). */
class Calendar {
  constructor(name, timeZone, weekdays, holidays) {
    requireName(name);
    requireZone(timeZone);
    const days = new Set(weekdays);
    if (days.size === 0) throw new InvalidInputException('weekdays', 'must name at least one working weekday (MON … SUN)');
    const dates = [...new Set(holidays)].sort((a, b) => a - b);
    if (dates.length > MAX_HOLIDAYS) {
      throw new InvalidInputException('holidays', `must hold at most ${MAX_HOLIDAYS} dates, got ${dates.length}`);
    }
    for (const d of dates) {
      if (d < FIRST_DAY || d > LAST_DAY) {
        throw new InvalidInputException('holidays', `dates must be between 1970-01-01 and 9999-12-31, got ${dayText(d)}`);
      }
    }
    this.name = name;
    this.timeZone = timeZone;
    this.weekdays = [...days].sort((a, b) => a - b);
    this.holidays = dates;
    this._weekdays = days;
    this._holidays = new Set(dates);
    Object.freeze(this);
  }

  /** @param weekdays e.g. ['MON', 'TUE', 'WED', 'THU', 'FRI']; holidays: 'YYYY-MM-DD' strings */
  static of(name, timeZone, weekdays = DAY_NAMES.slice(0, 5), holidays = []) {
    return new Calendar(name, timeZone, weekdays.map(weekdayOf), holidays.map((d) => dayOf('holidays', d)));
  }

  static fromJson(text) {
    let o;
    try {
      o = JSON.parse(text);
    } catch (e) {
      throw new InvalidInputException('calendar', `is not valid JSON: ${e.message}`);
    }
    if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new InvalidInputException('calendar', 'must be a JSON object');
    for (const f of Object.keys(o)) {
      if (!FIELDS.includes(f)) throw new InvalidInputException(f, 'is not a calendar field (name, timeZone, weekdays, holidays)');
    }
    const days = strings(o, 'weekdays').map(weekdayOf);
    const texts = strings(o, 'holidays');
    if (texts.length > MAX_HOLIDAYS) {
      throw new InvalidInputException('holidays', `must hold at most ${MAX_HOLIDAYS} dates, got ${texts.length}`);
    }
    const dates = texts.map((d) => dayOf('holidays', d));
    const name = typeof o.name === 'string' ? o.name : null;
    requireName(name);
    return new Calendar(name, typeof o.timeZone === 'string' ? o.timeZone : null, days, dates);
  }

  /** The canonical form stored in Redis: the same text as core's Java BusinessCalendar.toJson. */
  toJson() {
    return JSON.stringify({
      name: this.name, timeZone: this.timeZone,
      weekdays: this.weekdays.map((d) => DAY_NAMES[d]), holidays: this.holidays.map(dayText),
    });
  }

  isBusinessDay(day) {
    return this._weekdays.has(((day % 7) + 7 + 3) % 7) && !this._holidays.has(day);
  }
}

/** Wall-clock fields of an instant in a zone, as if they were UTC (ms, whole seconds). */
function localAsUtc(zone, ms) {
  const p = {};
  for (const { type, value } of formatter(zone).formatToParts(new Date(ms))) p[type] = Number(value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

function offsetAt(zone, ms) {
  return localAsUtc(zone, ms) - (ms - (((ms % 1000) + 1000) % 1000));
}

function localDay(cal, ms) {
  return Math.floor(localAsUtc(cal.timeZone, ms) / DAY_MS);
}

/** A local time as an instant: a time in a gap moves later by the gap's length, an overlap takes its first instant. */
function instantOf(cal, day, secondOfDay) {
  const local = day * DAY_MS + secondOfDay * 1000;
  const before = offsetAt(cal.timeZone, local - DAY_MS);
  const after = offsetAt(cal.timeZone, local + DAY_MS);
  const valid = [before, after].map((o) => local - o).filter((t) => offsetAt(cal.timeZone, t) === local - t);
  return valid.length > 0 ? Math.min(...valid) : local - before;
}

function nextBusinessDay(cal, day) {
  let d = day;
  for (let i = 0; i < MAX_SEARCH_DAYS && d < LAST_DAY; i++) {
    d += 1;
    if (cal.isBusinessDay(d)) return d;
  }
  throw new InvalidInputException('dueAt', `calendar ${cal.name} has no business day after ${dayText(day)} up to 9999-12-31`);
}

function parseTime(text) {
  const m = typeof text === 'string' ? TIME.exec(text) : null;
  const [h, mi, s] = m ? [Number(m[1]), Number(m[2]), Number(m[3] || 0)] : [];
  if (!m || h > 23 || mi > 59 || s > 59) {
    throw new InvalidInputException('time', `must be a local time HH:MM or HH:MM:SS (24-hour), got "${text}"`);
  }
  return h * 3600 + mi * 60 + s;
}

function millis(at) {
  const ms = at instanceof Date ? at.getTime() : at;
  if (!Number.isSafeInteger(ms)) throw new InvalidInputException('at', `must be a Date or epoch milliseconds, got ${at}`);
  return ms;
}

/** `at` if it falls on a business day, else the start of the next business day (a Date). */
function rollForward(cal, at) {
  const ms = millis(at);
  const day = localDay(cal, ms);
  if (cal.isBusinessDay(day)) return new Date(ms);
  return new Date(instantOf(cal, nextBusinessDay(cal, day), 0));
}

/**
 * At `time` ('HH:MM') on the `days`-th business day after `from`'s day (day 0: that day if it is a business day,
 * else the next one); with days = 0 a time already past moves to the next business day. A Date.
 */
function afterBusinessDays(cal, from, days, time) {
  if (!Number.isInteger(days) || days < 0 || days > MAX_BUSINESS_DAYS) {
    throw new InvalidInputException('businessDays', `must be 0 to ${MAX_BUSINESS_DAYS}, got ${days}`);
  }
  const second = parseTime(time);
  const fromMs = millis(from);
  let day = localDay(cal, fromMs);
  if (!cal.isBusinessDay(day)) day = nextBusinessDay(cal, day);
  for (let i = 0; i < days; i++) day = nextBusinessDay(cal, day);
  let due = instantOf(cal, day, second);
  if (due < fromMs) due = instantOf(cal, nextBusinessDay(cal, day), second);
  return new Date(due);
}

module.exports = { Calendar, afterBusinessDays, rollForward, calendarsKey, requireName, MAX_HOLIDAYS, MAX_BUSINESS_DAYS };
