package main

import (
	"fmt"
	"sync"
	"time"
)

const (
	// Requests without a valid key are limited per client address (per UTC minute).
	defaultClientPerMinute = 1000
	// A key refused this many times in a row (429s without an admitted request
	// in between) is banned for banDuration.
	defaultBanThreshold = 20
	defaultBanDuration  = 5 * time.Minute
)

// window is one fixed UTC window (minute or day) and its request count.
type window struct {
	idx   int64
	count int64
}

func (w *window) roll(idx int64) {
	if w.idx != idx {
		w.idx, w.count = idx, 0
	}
}

type keyState struct {
	minute, day window
	strikes     int
	bannedUntil time.Time
}

// Decision is the limiter's verdict plus the values of the X-RateLimit-* headers.
type Decision struct {
	Allowed    bool
	Code       string // set when refused: rate_limit_exceeded or temporarily_banned
	Message    string
	Limit      int64
	Remaining  int64
	Reset      int64 // unix second at which the described window ends
	RetryAfter int64 // whole seconds, >= 1, when refused
}

// Limiter keeps per-key quotas and the per-client limit on unauthenticated requests.
type Limiter struct {
	mu              sync.Mutex
	keys            map[string]*keyState
	clients         map[string]*window
	ClientPerMinute int64
	BanThreshold    int
	BanDuration     time.Duration
}

func NewLimiter() *Limiter {
	return &Limiter{
		keys:            make(map[string]*keyState),
		clients:         make(map[string]*window),
		ClientPerMinute: defaultClientPerMinute,
		BanThreshold:    defaultBanThreshold,
		BanDuration:     defaultBanDuration,
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// secondsUntil is the whole number of seconds (rounded up, at least 1) from now to t.
func secondsUntil(t, now time.Time) int64 {
	d := t.Sub(now)
	s := int64(d / time.Second)
	if d%time.Second != 0 {
		s++
	}
	if s < 1 {
		s = 1
	}
	return s
}

func remaining(limit, count int64) int64 {
	if count >= limit {
		return 0
	}
	return limit - count
}

// CheckKey decides on one request made with a valid key and counts it if admitted.
func (l *Limiter) CheckKey(key string, p Plan, now time.Time) Decision {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.keys[key]
	if st == nil {
		st = &keyState{minute: window{idx: -1 << 62}, day: window{idx: -1 << 62}}
		l.keys[key] = st
	}
	sec := now.Unix()
	mIdx, dIdx := floorDiv(sec, 60), floorDiv(sec, 86400)
	st.minute.roll(mIdx)
	st.day.roll(dIdx)
	mReset, dReset := (mIdx+1)*60, (dIdx+1)*86400

	describe := func() Decision {
		mRem, dRem := remaining(p.PerMinute, st.minute.count), remaining(p.PerDay, st.day.count)
		if mRem < dRem {
			return Decision{Limit: p.PerMinute, Remaining: mRem, Reset: mReset}
		}
		return Decision{Limit: p.PerDay, Remaining: dRem, Reset: dReset}
	}

	if now.Before(st.bannedUntil) {
		d := describe()
		d.Code = "temporarily_banned"
		d.RetryAfter = secondsUntil(st.bannedUntil, now)
		d.Message = fmt.Sprintf("The API key is temporarily banned for repeating requests after 429; retry after %d s.", d.RetryAfter)
		return d
	}

	mFull, dFull := st.minute.count >= p.PerMinute, st.day.count >= p.PerDay
	if mFull || dFull {
		st.strikes++
		if st.strikes > l.BanThreshold {
			st.strikes = 0
			st.bannedUntil = now.Add(l.BanDuration)
			d := describe()
			d.Code = "temporarily_banned"
			d.RetryAfter = secondsUntil(st.bannedUntil, now)
			d.Message = fmt.Sprintf("The API key is temporarily banned for repeating requests after 429; retry after %d s.", d.RetryAfter)
			return d
		}
		d := describe()
		d.Code = "rate_limit_exceeded"
		if dFull {
			d.RetryAfter = secondsUntil(time.Unix(dReset, 0), now)
			d.Message = fmt.Sprintf("The per-day limit of %d requests is used up; retry after %d s.", p.PerDay, d.RetryAfter)
		} else {
			d.RetryAfter = secondsUntil(time.Unix(mReset, 0), now)
			d.Message = fmt.Sprintf("The per-minute limit of %d requests is used up; retry after %d s.", p.PerMinute, d.RetryAfter)
		}
		return d
	}

	st.strikes = 0
	st.minute.count++
	st.day.count++
	d := describe()
	d.Allowed = true
	return d
}

// CheckClient decides on one request without a valid key from client address addr.
func (l *Limiter) CheckClient(addr string, now time.Time) Decision {
	l.mu.Lock()
	defer l.mu.Unlock()
	mIdx := floorDiv(now.Unix(), 60)
	if len(l.clients) > 10000 {
		for a, w := range l.clients {
			if w.idx != mIdx {
				delete(l.clients, a)
			}
		}
	}
	w := l.clients[addr]
	if w == nil {
		w = &window{idx: mIdx}
		l.clients[addr] = w
	}
	w.roll(mIdx)
	reset := (mIdx + 1) * 60
	if w.count >= l.ClientPerMinute {
		d := Decision{Code: "rate_limit_exceeded", Limit: l.ClientPerMinute, Remaining: 0, Reset: reset}
		d.RetryAfter = secondsUntil(time.Unix(reset, 0), now)
		d.Message = fmt.Sprintf("Too many requests without a valid API key from this client; retry after %d s.", d.RetryAfter)
		return d
	}
	w.count++
	return Decision{Allowed: true, Limit: l.ClientPerMinute, Remaining: l.ClientPerMinute - w.count, Reset: reset}
}
