package delayq

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Business calendars: the vectors shared with Java, Python and Node; no Redis needed.

type calendarVectors struct {
	Calendars    []json.RawMessage `json:"calendars"`
	BusinessTime []struct {
		Op           string `json:"op"`
		Calendar     string `json:"calendar"`
		From         string `json:"from"`
		At           string `json:"at"`
		BusinessDays int    `json:"businessDays"`
		Time         string `json:"time"`
		Due          string `json:"due"`
		Why          string `json:"why"`
	} `json:"businessTime"`
	InvalidCalendars []struct {
		Calendar json.RawMessage `json:"calendar"`
		Field    string          `json:"field"`
		Message  string          `json:"message"`
	} `json:"invalidCalendars"`
}

func loadCalendarVectors(t *testing.T) calendarVectors {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "protocol-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v calendarVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Calendars) == 0 || len(v.BusinessTime) < 30 || len(v.InvalidCalendars) == 0 {
		t.Fatalf("protocol-vectors.json lost its calendar vectors")
	}
	return v
}

func TestDueTimesAreTheVectors(t *testing.T) {
	v := loadCalendarVectors(t)
	cals := map[string]*Calendar{}
	for _, raw := range v.Calendars {
		c, err := ParseCalendar(string(raw))
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			t.Fatal(err)
		}
		if c.JSON() != compact.String() {
			t.Errorf("canonical form: got %s, want %s", c.JSON(), compact.String())
		}
		cals[c.Name] = c
	}
	for _, c := range v.BusinessTime {
		var due time.Time
		var err error
		if c.Op == "afterBusinessDays" {
			from, _ := time.Parse(time.RFC3339, c.From)
			due, err = AfterBusinessDays(cals[c.Calendar], from, c.BusinessDays, c.Time)
		} else {
			at, _ := time.Parse(time.RFC3339, c.At)
			due, err = RollForward(cals[c.Calendar], at)
		}
		if err != nil {
			t.Errorf("%s: %v", c.Why, err)
			continue
		}
		if got := due.UTC().Format(time.RFC3339); got != c.Due {
			t.Errorf("%s: got %s, want %s", c.Why, got, c.Due)
		}
	}
}

func TestInvalidCalendarsAreRefusedWithCoresMessages(t *testing.T) {
	for _, c := range loadCalendarVectors(t).InvalidCalendars {
		_, err := ParseCalendar(string(c.Calendar))
		var bad *InvalidInputError
		if !errors.As(err, &bad) || bad.Field != c.Field || err.Error() != c.Message {
			t.Errorf("%s: got %v, want %s", c.Calendar, err, c.Message)
		}
	}
}

func TestBadCountsAndTimesNameTheirField(t *testing.T) {
	c, err := NewCalendar("x", "UTC", []string{"MON"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AfterBusinessDays(c, time.Now(), 1001, "10:00"); err == nil || err.Error() != "businessDays: must be 0 to 1000, got 1001" {
		t.Errorf("got %v", err)
	}
	if _, err := AfterBusinessDays(c, time.Now(), 1, "24:00"); err == nil || err.(*InvalidInputError).Field != "time" {
		t.Errorf("got %v", err)
	}
}

func TestACalendarStoredInCanonicalFormIsReadByTheClient(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	name := unique("payouts")
	stored := `{"name":"de-bank","timeZone":"Europe/Berlin","weekdays":["MON","TUE","WED","THU","FRI"],"holidays":["2026-12-24","2026-12-25"]}`
	if _, err := r.admin.Do("HSET", calendarsKey(name), "de-bank", stored); err != nil {
		t.Fatal(err)
	}
	q := connect(t, r, name, 2)
	c, err := q.Calendar(ctx, "de-bank")
	if err != nil || c == nil || c.JSON() != stored {
		t.Fatalf("got %v, %v", c, err)
	}
	if absent, err := q.Calendar(ctx, "absent"); absent != nil || err != nil {
		t.Fatalf("absent: got %v, %v", absent, err)
	}
	due, _ := AfterBusinessDays(c, time.Date(2026, 12, 23, 12, 0, 0, 0, time.UTC), 1, "10:00")
	if _, err := q.Enqueue(ctx, Task{ID: "payout-1", DueAt: due}, Reject); err != nil {
		t.Fatal(err)
	}
	info, err := q.Inspect(ctx, "payout-1")
	if err != nil || info.Score != due.UnixMilli() || due.Format(time.RFC3339) != "2026-12-28T09:00:00Z" {
		t.Fatalf("got %+v, %v, due %s", info, err, due)
	}
}
