package main

import (
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

func hdr(t *testing.T, w *httptest.ResponseRecorder, name string) int64 {
	t.Helper()
	v := w.Header().Values(name)
	if len(v) != 1 {
		t.Fatalf("header %s: %v", name, v)
	}
	n, err := strconv.ParseInt(v[0], 10, 64)
	if err != nil {
		t.Fatalf("header %s: %v", name, err)
	}
	return n
}

func TestRateLimitWindows(t *testing.T) {
	s, clk := newTestServer(t) // "tiny": 3 a minute, 5 a day; clock at 12:00:10.5
	minuteEnd := time.Date(2026, 11, 20, 12, 1, 0, 0, time.UTC).Unix()
	dayEnd := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC).Unix()
	for i := 1; i <= 3; i++ {
		// 404 and 405 count as well.
		path := map[int]string{1: "/v1/categories", 2: "/v1/nope", 3: "/v1/categories"}[i]
		w := do(s, "GET", path, "tiny", "", "")
		if hdr(t, w, "X-RateLimit-Limit") != 3 || hdr(t, w, "X-RateLimit-Remaining") != int64(3-i) ||
			hdr(t, w, "X-RateLimit-Reset") != minuteEnd {
			t.Fatalf("request %d headers: %v", i, w.Header())
		}
	}
	for i := 0; i < 3; i++ {
		w := do(s, "GET", "/v1/categories", "tiny", "", "")
		decodeErr(t, w, 429, "rate_limit_exceeded")
		if hdr(t, w, "Retry-After") != 50 || hdr(t, w, "X-RateLimit-Remaining") != 0 ||
			hdr(t, w, "X-RateLimit-Reset") != minuteEnd {
			t.Fatalf("429 headers: %v", w.Header())
		}
	}
	// Next minute: 2 left in the day, 3 in the minute, so the day window is described.
	clk.t = clk.t.Add(time.Minute)
	w := do(s, "GET", "/v1/categories", "tiny", "", "")
	if w.Code != 200 || hdr(t, w, "X-RateLimit-Limit") != 5 || hdr(t, w, "X-RateLimit-Remaining") != 1 ||
		hdr(t, w, "X-RateLimit-Reset") != dayEnd {
		t.Fatalf("day window: %d %v", w.Code, w.Header())
	}
	// Minute has 1 left, day 0: the day window is described.
	w = do(s, "GET", "/v1/categories", "tiny", "", "")
	if w.Code != 200 || hdr(t, w, "X-RateLimit-Remaining") != 0 || hdr(t, w, "X-RateLimit-Reset") != dayEnd {
		t.Fatalf("day window: %d %v", w.Code, w.Header())
	}
	w = do(s, "GET", "/v1/categories", "tiny", "", "")
	decodeErr(t, w, 429, "rate_limit_exceeded")
	if got := hdr(t, w, "Retry-After"); got != dayEnd-clk.t.Unix() {
		t.Fatalf("Retry-After %d", got)
	}
	// Other keys are unaffected.
	if w := do(s, "GET", "/v1/categories", "freekey", "", ""); w.Code != 200 || hdr(t, w, "X-RateLimit-Limit") != 60 {
		t.Fatalf("free key: %d %v", w.Code, w.Header())
	}
}

func TestBanAfterRepeated429(t *testing.T) {
	s, clk := newTestServer(t)
	s.limiter.BanThreshold = 2
	for i := 0; i < 3; i++ {
		do(s, "GET", "/v1/categories", "tiny", "", "")
	}
	decodeErr(t, do(s, "GET", "/v1/categories", "tiny", "", ""), 429, "rate_limit_exceeded")
	decodeErr(t, do(s, "GET", "/v1/categories", "tiny", "", ""), 429, "rate_limit_exceeded")
	w := do(s, "GET", "/v1/categories", "tiny", "", "")
	decodeErr(t, w, 429, "temporarily_banned")
	if hdr(t, w, "Retry-After") != 300 {
		t.Fatalf("ban Retry-After: %v", w.Header())
	}
	clk.t = clk.t.Add(2 * time.Minute) // windows reset, ban still on
	w = do(s, "GET", "/v1/categories", "tiny", "", "")
	decodeErr(t, w, 429, "temporarily_banned")
	if hdr(t, w, "Retry-After") != 180 {
		t.Fatalf("ban Retry-After: %v", w.Header())
	}
	clk.t = clk.t.Add(3 * time.Minute)
	if w := do(s, "GET", "/v1/categories", "tiny", "", ""); w.Code != 200 {
		t.Fatalf("after ban: %d", w.Code)
	}
}

func TestUnauthenticatedClientLimit(t *testing.T) {
	s, _ := newTestServer(t)
	s.limiter.ClientPerMinute = 2
	decodeErr(t, do(s, "GET", "/v1/categories", "", "", ""), 401, "missing_api_key")
	decodeErr(t, do(s, "GET", "/v1/categories", "bad", "", ""), 401, "invalid_api_key")
	w := do(s, "GET", "/v1/categories", "bad", "", "")
	decodeErr(t, w, 429, "rate_limit_exceeded")
	if hdr(t, w, "Retry-After") < 1 {
		t.Fatal("Retry-After")
	}
	// A valid key is not affected, and 401s did not count in its window.
	if w := do(s, "GET", "/v1/categories", "tiny", "", ""); w.Code != 200 || hdr(t, w, "X-RateLimit-Remaining") != 2 {
		t.Fatalf("valid key: %d %v", w.Code, w.Header())
	}
}

func TestParseKeys(t *testing.T) {
	k, err := parseKeys([]byte(`[{"key":"k1","plan":"pro"},{"key":"k2","plan":"enterprise","perMinute":5000,"perDay":1000000}]`))
	if err != nil || k["k1"].PerMinute != 300 || k["k2"].PerDay != 1000000 {
		t.Fatalf("%v %v", k, err)
	}
	for _, bad := range []string{`{}`, `[{"key":"","plan":"pro"}]`, `[{"key":"a","plan":"gold"}]`,
		`[{"key":"a","plan":"enterprise"}]`, `[{"key":"a","plan":"pro"},{"key":"a","plan":"free"}]`} {
		if _, err := parseKeys([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func TestTieDescribesDay(t *testing.T) {
	l := NewLimiter()
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	d := l.CheckKey("k", Plan{PerMinute: 3, PerDay: 3}, now)
	if !d.Allowed || d.Remaining != 2 || d.Reset != time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC).Unix() {
		t.Fatalf("%+v", d)
	}
}
