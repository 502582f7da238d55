package delayq

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gomodule/redigo/redis"
)

// Business calendars and the due times computed on them: pure functions with the same answers as core's Java
// io.delayq.calendar.BusinessTime (checked against clients/protocol-vectors.json, "businessTime"). A calendar is
// stored in dq:{q}:calendars (HASH name -> canonical JSON); Client.Calendar reads it.

const (
	maxCalendarNameLength = 63
	// MaxHolidays is the most holiday dates a calendar holds.
	MaxHolidays = 1000
	// MaxBusinessDays is the largest N of AfterBusinessDays.
	MaxBusinessDays = 1000
	maxSearchDays   = 7 * (MaxHolidays + 2)
	secondsPerDay   = 86400
)

var (
	dayNames     = []string{"MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"}
	calendarName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	dateText     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	timeText     = regexp.MustCompile(`^(\d{2}):(\d{2})(?::(\d{2}))?$`)
	firstDay     = int64(0)
	lastDay      = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).Unix() / secondsPerDay
)

// Calendar is a business calendar: working weekdays (0 = Monday … 6 = Sunday) in a time zone, minus holiday dates
// (days since 1970-01-01). A business day is a working weekday that is no holiday.
type Calendar struct {
	Name     string
	TimeZone string
	Weekdays []int
	Holidays []int64
	location *time.Location
	weekdays map[int]bool
	holidays map[int64]bool
}

func calendarsKey(queue string) string { return "dq:{" + queue + "}:calendars" }

func requireCalendarName(name string) error {
	if name == "" {
		return invalid("name", "must not be empty")
	}
	if len(name) > maxCalendarNameLength || !calendarName.MatchString(name) {
		return invalid("name", "must be a DNS label (lower-case letters, digits and '-', at most %d characters, starting and ending with a letter or digit), got \"%s\"", maxCalendarNameLength, name)
	}
	return nil
}

func loadZone(zone string) (*time.Location, error) {
	if strings.TrimSpace(zone) == "" {
		return nil, invalid("timeZone", "must not be empty (an IANA zone such as Europe/Berlin, or UTC)")
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "Local" {
		return nil, invalid("timeZone", "must be an IANA time zone such as Europe/Berlin or UTC, got \"%s\"", zone)
	}
	return loc, nil
}

func parseDay(field, text string) (int64, error) {
	if !dateText.MatchString(text) {
		return 0, invalid(field, "dates must be written YYYY-MM-DD, got \"%s\"", text)
	}
	t, err := time.Parse("2006-01-02", text)
	if err != nil {
		return 0, invalid(field, "\"%s\" is not a date of the calendar", text)
	}
	return t.Unix() / secondsPerDay, nil
}

func dayText(day int64) string { return time.Unix(day*secondsPerDay, 0).UTC().Format("2006-01-02") }

func parseWeekday(text string) (int, error) {
	for i, n := range dayNames {
		if strings.ToUpper(text) == n {
			return i, nil
		}
	}
	return 0, invalid("weekdays", "each must be one of MON, TUE, WED, THU, FRI, SAT, SUN, got \"%s\"", text)
}

// NewCalendar checks and builds a calendar from weekday names (MON … SUN) and holiday dates (YYYY-MM-DD).
func NewCalendar(name, timeZone string, weekdays, holidays []string) (*Calendar, error) {
	days := make([]int, 0, len(weekdays))
	for _, d := range weekdays {
		w, err := parseWeekday(d)
		if err != nil {
			return nil, err
		}
		days = append(days, w)
	}
	if len(holidays) > MaxHolidays {
		return nil, invalid("holidays", "must hold at most %d dates, got %d", MaxHolidays, len(holidays))
	}
	dates := make([]int64, 0, len(holidays))
	for _, d := range holidays {
		day, err := parseDay("holidays", d)
		if err != nil {
			return nil, err
		}
		dates = append(dates, day)
	}
	if err := requireCalendarName(name); err != nil {
		return nil, err
	}
	loc, err := loadZone(timeZone)
	if err != nil {
		return nil, err
	}
	c := &Calendar{Name: name, TimeZone: timeZone, location: loc, weekdays: map[int]bool{}, holidays: map[int64]bool{}}
	for _, d := range days {
		if !c.weekdays[d] {
			c.weekdays[d] = true
			c.Weekdays = append(c.Weekdays, d)
		}
	}
	if len(c.Weekdays) == 0 {
		return nil, invalid("weekdays", "must name at least one working weekday (MON … SUN)")
	}
	for _, d := range dates {
		if !c.holidays[d] {
			c.holidays[d] = true
			c.Holidays = append(c.Holidays, d)
		}
	}
	sort.Ints(c.Weekdays)
	sort.Slice(c.Holidays, func(i, j int) bool { return c.Holidays[i] < c.Holidays[j] })
	for _, d := range c.Holidays {
		if d < firstDay || d > lastDay {
			return nil, invalid("holidays", "dates must be between 1970-01-01 and 9999-12-31, got %s", dayText(d))
		}
	}
	return c, nil
}

// ParseCalendar reads a calendar's stored JSON.
func ParseCalendar(text string) (*Calendar, error) {
	var o map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &o); err != nil || o == nil {
		return nil, invalid("calendar", "must be a JSON object")
	}
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k != "name" && k != "timeZone" && k != "weekdays" && k != "holidays" {
			return nil, invalid(k, "is not a calendar field (name, timeZone, weekdays, holidays)")
		}
	}
	strs := func(field string) ([]string, error) {
		raw, ok := o[field]
		if !ok || string(raw) == "null" {
			return nil, nil
		}
		var out []string
		if err := json.Unmarshal(raw, &out); err != nil {
			return nil, invalid(field, "must be a JSON array of strings")
		}
		return out, nil
	}
	str := func(field string) string {
		var s string
		_ = json.Unmarshal(o[field], &s)
		return s
	}
	weekdays, err := strs("weekdays")
	if err != nil {
		return nil, err
	}
	holidays, err := strs("holidays")
	if err != nil {
		return nil, err
	}
	return NewCalendar(str("name"), str("timeZone"), weekdays, holidays)
}

// JSON is the canonical form stored in Redis: the same text as core's Java BusinessCalendar.toJson.
func (c *Calendar) JSON() string {
	days := make([]string, len(c.Weekdays))
	for i, d := range c.Weekdays {
		days[i] = dayNames[d]
	}
	dates := make([]string, len(c.Holidays))
	for i, d := range c.Holidays {
		dates[i] = dayText(d)
	}
	out, _ := json.Marshal(struct {
		Name     string   `json:"name"`
		TimeZone string   `json:"timeZone"`
		Weekdays []string `json:"weekdays"`
		Holidays []string `json:"holidays"`
	}{c.Name, c.TimeZone, days, dates})
	return string(out)
}

// IsBusinessDay says whether a day (days since 1970-01-01) is a working weekday and no holiday.
func (c *Calendar) IsBusinessDay(day int64) bool {
	weekday := int(((day%7)+7+3)%7) // 1970-01-01 was a Thursday
	return c.weekdays[weekday] && !c.holidays[day]
}

func (c *Calendar) offsetAt(unix int64) int64 {
	_, off := time.Unix(unix, 0).In(c.location).Zone()
	return int64(off)
}

func (c *Calendar) localDay(unix int64) int64 {
	return floorDiv(unix+c.offsetAt(unix), secondsPerDay)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// instantOf maps a local time to an instant as cron does: a time in a gap moves later by the gap's length, a time
// that happens twice is its first instant.
func (c *Calendar) instantOf(day int64, secondOfDay int64) int64 {
	local := day*secondsPerDay + secondOfDay
	before := c.offsetAt(local - secondsPerDay)
	after := c.offsetAt(local + secondsPerDay)
	best, found := int64(0), false
	for _, o := range []int64{before, after} {
		t := local - o
		if c.offsetAt(t) == o && (!found || t < best) {
			best, found = t, true
		}
	}
	if found {
		return best
	}
	return local - before
}

func (c *Calendar) nextBusinessDay(day int64) (int64, error) {
	d := day
	for i := 0; i < maxSearchDays && d < lastDay; i++ {
		d++
		if c.IsBusinessDay(d) {
			return d, nil
		}
	}
	return 0, invalid("dueAt", "calendar %s has no business day after %s up to 9999-12-31", c.Name, dayText(day))
}

func parseClock(text string) (int64, error) {
	m := timeText.FindStringSubmatch(text)
	if m == nil {
		return 0, invalid("time", "must be a local time HH:MM or HH:MM:SS (24-hour), got \"%s\"", text)
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	s := 0
	if m[3] != "" {
		s, _ = strconv.Atoi(m[3])
	}
	if h > 23 || mi > 59 || s > 59 {
		return 0, invalid("time", "must be a local time HH:MM or HH:MM:SS (24-hour), got \"%s\"", text)
	}
	return int64(h*3600 + mi*60 + s), nil
}

// RollForward is at itself when it falls on a business day, else the start of the next business day.
func RollForward(c *Calendar, at time.Time) (time.Time, error) {
	day := c.localDay(at.Unix())
	if c.IsBusinessDay(day) {
		return at, nil
	}
	next, err := c.nextBusinessDay(day)
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(c.instantOf(next, 0), 0).UTC(), nil
}

// AfterBusinessDays is clock ("HH:MM" or "HH:MM:SS", local to the calendar) on the days-th business day after from's
// day: that day is day 0 when it is a business day, else the next business day is; with days = 0 a time already
// past on day 0 moves to the next business day.
func AfterBusinessDays(c *Calendar, from time.Time, days int, clock string) (time.Time, error) {
	if days < 0 || days > MaxBusinessDays {
		return time.Time{}, invalid("businessDays", "must be 0 to %d, got %d", MaxBusinessDays, days)
	}
	second, err := parseClock(clock)
	if err != nil {
		return time.Time{}, err
	}
	day := c.localDay(from.Unix())
	if !c.IsBusinessDay(day) {
		if day, err = c.nextBusinessDay(day); err != nil {
			return time.Time{}, err
		}
	}
	for i := 0; i < days; i++ {
		if day, err = c.nextBusinessDay(day); err != nil {
			return time.Time{}, err
		}
	}
	due := time.Unix(c.instantOf(day, second), 0).UTC()
	if due.Before(from) {
		next, err := c.nextBusinessDay(day)
		if err != nil {
			return time.Time{}, err
		}
		due = time.Unix(c.instantOf(next, second), 0).UTC()
	}
	return due, nil
}


// Calendar reads the queue's business calendar of that name from dq:{q}:calendars; nil when there is none.
func (q *Queue) Calendar(ctx context.Context, name string) (*Calendar, error) {
	if err := requireCalendarName(name); err != nil {
		return nil, err
	}
	conn, err := q.redis.conn(ctx, calendarsKey(q.queue))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	raw, err := redis.String(conn.Do("HGET", calendarsKey(q.queue), name))
	if errors.Is(err, redis.ErrNil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseCalendar(raw)
}
