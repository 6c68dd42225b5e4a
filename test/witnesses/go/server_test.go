package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func newTestServer(t *testing.T) (*Server, *fakeClock) {
	t.Helper()
	keys, err := parseKeys([]byte(`[{"key":"freekey","plan":"free"},{"key":"prokey","plan":"pro"},
		{"key":"tiny","plan":"enterprise","perMinute":3,"perDay":5}]`))
	if err != nil {
		t.Fatal(err)
	}
	clk := &fakeClock{t: time.Date(2026, 11, 20, 12, 0, 10, 500e6, time.UTC)}
	return NewServer(keys, clk.now), clk
}

func do(s *Server, method, path, key, ctype, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if body == "" {
		r.Body = http.NoBody
		r.ContentLength = 0
	}
	if key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

func decodeErr(t *testing.T, w *httptest.ResponseRecorder, status int, code string) APIError {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status %d, want %d; body %s", w.Code, status, w.Body)
	}
	var e APIError
	dec := json.NewDecoder(w.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("error body: %v", err)
	}
	if e.Code != code || e.Status != status || e.Message == "" {
		t.Fatalf("error %+v, want code %s status %d", e, code, status)
	}
	if w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("content-type %q", w.Header().Get("Content-Type"))
	}
	return e
}

func TestListSeededCategories(t *testing.T) {
	s, _ := newTestServer(t)
	w := do(s, "GET", "/v1/categories?limit=1&sort=desc", "prokey", "", "")
	if w.Code != 200 {
		t.Fatalf("status %d", w.Code)
	}
	want := `[{"id":1,"name":"dog","description":"Dogs of every breed"},{"id":2,"name":"cat","description":"Cats of every breed"},{"id":3,"name":"rabbit","description":"Rabbits and hares"}]`
	if strings.TrimSpace(w.Body.String()) != want {
		t.Fatalf("body %s", w.Body)
	}
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		if w.Header().Get(h) == "" {
			t.Errorf("missing %s", h)
		}
	}
	if w.Header().Get("Deprecation") != "" || w.Header().Get("Sunset") != "" {
		t.Error("categories must not be deprecated")
	}
}

func TestAuth(t *testing.T) {
	s, _ := newTestServer(t)
	w := do(s, "GET", "/v1/categories", "", "", "")
	decodeErr(t, w, 401, "missing_api_key")
	if got := w.Header().Get("WWW-Authenticate"); got != `Bearer realm="petstore"` {
		t.Errorf("WWW-Authenticate %q", got)
	}
	if w.Header().Get("X-RateLimit-Limit") != "1000" {
		t.Errorf("401 rate headers: %v", w.Header())
	}
	w = do(s, "GET", "/v1/categories", "secret-guess-123", "", "")
	decodeErr(t, w, 401, "invalid_api_key")
	if !strings.Contains(w.Header().Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Errorf("WWW-Authenticate %q", w.Header().Get("WWW-Authenticate"))
	}
	if strings.Contains(w.Body.String(), "secret-guess-123") {
		t.Error("answer echoes the key")
	}
	// Auth comes before routing: unknown path without a key is 401.
	decodeErr(t, do(s, "GET", "/v1/nope", "", "", ""), 401, "missing_api_key")
	// Scheme is case-insensitive.
	r := httptest.NewRequest("GET", "/v1/categories", nil)
	r.Header.Set("Authorization", "bearer   prokey")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	if rec.Code != 200 {
		t.Errorf("lower-case bearer: %d", rec.Code)
	}
	r.Header.Set("Authorization", "Basic prokey")
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	decodeErr(t, rec, 401, "invalid_api_key")
}

func TestRoutingErrors(t *testing.T) {
	s, _ := newTestServer(t)
	decodeErr(t, do(s, "GET", "/v1/unknown", "prokey", "", ""), 404, "not_found")
	decodeErr(t, do(s, "GET", "/v1/categories/", "prokey", "", ""), 404, "not_found")
	decodeErr(t, do(s, "GET", "/categories", "prokey", "", ""), 404, "not_found")
	w := do(s, "DELETE", "/v1/categories", "prokey", "", "")
	decodeErr(t, w, 405, "method_not_allowed")
	if w.Header().Get("Allow") != "GET, HEAD, POST" {
		t.Errorf("Allow %q", w.Header().Get("Allow"))
	}
	w = do(s, "POST", "/v1/store/orders", "prokey", "application/json", "{}")
	decodeErr(t, w, 405, "method_not_allowed")
	if w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("Allow %q", w.Header().Get("Allow"))
	}
	w = do(s, "POST", "/v1/pets/1", "prokey", "", "")
	decodeErr(t, w, 405, "method_not_allowed")
	if w.Header().Get("Deprecation") != "" {
		t.Error("405 on /pets must not carry Deprecation")
	}
	if w := do(s, "GET", "/v1/./store/x/../orders", "prokey", "", ""); w.Code != 200 {
		t.Errorf("dot segments: %d", w.Code)
	}
	if w := do(s, "GET", "/v1/%63ategories", "prokey", "", ""); w.Code != 200 {
		t.Errorf("percent-encoded path: %d", w.Code)
	}
	if w := do(s, "HEAD", "/v1/categories", "prokey", "", ""); w.Code != 200 {
		t.Errorf("HEAD: %d", w.Code)
	}
}

func TestPets(t *testing.T) {
	s, clk := newTestServer(t)
	check := func(w *httptest.ResponseRecorder) {
		t.Helper()
		h := w.Header()
		if h.Get("Deprecation") != "@1782864000" || h.Get("Sunset") != "Thu, 01 Jul 2027 00:00:00 GMT" ||
			!strings.HasPrefix(h.Get("Link"), "<") {
			t.Errorf("deprecation headers: %v", h)
		}
	}
	w := do(s, "GET", "/v1/pets/1", "prokey", "", "")
	check(w)
	var p Pet
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &p) != nil || p.Name != "Rex" || p.Category.Name != "dog" {
		t.Fatalf("pet: %d %s", w.Code, w.Body)
	}
	for _, id := range []string{"abc", "0", "-1", "1.5", "99999999999999999999"} {
		w = do(s, "GET", "/v1/pets/"+id, "prokey", "", "")
		decodeErr(t, w, 400, "invalid_request")
		check(w)
	}
	w = do(s, "GET", "/v1/pets/42", "prokey", "", "")
	decodeErr(t, w, 404, "not_found")
	check(w)
	w = do(s, "GET", "/v1/pets/1", "", "", "")
	decodeErr(t, w, 401, "missing_api_key")
	check(w)
	clk.t = petSunset
	w = do(s, "GET", "/v1/pets/1", "prokey", "", "")
	decodeErr(t, w, 410, "gone")
	check(w)
}

func TestOrders(t *testing.T) {
	s, _ := newTestServer(t)
	w := do(s, "GET", "/v1/store/orders", "prokey", "", "")
	var orders []Order
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &orders) != nil || len(orders) != 2 || orders[0].ID != 1 {
		t.Fatalf("orders: %d %s", w.Code, w.Body)
	}
}
