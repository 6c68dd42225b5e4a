package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCreateCategory(t *testing.T) {
	s, _ := newTestServer(t)
	w := do(s, "POST", "/v1/categories", "prokey", "application/json",
		`{"name":"hamster","description":"Small rodents kept as pets"}`)
	if w.Code != 201 || strings.TrimSpace(w.Body.String()) != `{"id":4,"name":"hamster","description":"Small rodents kept as pets"}` {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	w = do(s, "POST", "/v1/categories", "prokey", "application/json; charset=utf-8", `{"name":"parrot"}`)
	if w.Code != 201 || strings.TrimSpace(w.Body.String()) != `{"id":5,"name":"parrot"}` {
		t.Fatalf("name only: %d %s", w.Code, w.Body)
	}
	w = do(s, "POST", "/v1/categories", "prokey", "application/json", `{"name":"a<b>&c","description":""}`)
	if w.Code != 201 || strings.TrimSpace(w.Body.String()) != `{"id":6,"name":"a<b>&c","description":""}` {
		t.Fatalf("empty description: %d %s", w.Code, w.Body)
	}
	// A valid surrogate pair and 100 astral characters are fine.
	w = do(s, "POST", "/v1/categories", "prokey", "application/json",
		`{"name":"\ud83d\udc36`+strings.Repeat("🐱", 99)+`"}`)
	if w.Code != 201 {
		t.Fatalf("emoji name: %d %s", w.Code, w.Body)
	}
	var c Category
	_ = json.Unmarshal(w.Body.Bytes(), &c)
	if c.Name != "🐶"+strings.Repeat("🐱", 99) {
		t.Fatalf("stored name %q", c.Name)
	}
	w = do(s, "GET", "/v1/categories", "prokey", "", "")
	var all []Category
	if err := json.Unmarshal(w.Body.Bytes(), &all); err != nil || len(all) != 7 {
		t.Fatalf("list after create: %v %s", err, w.Body)
	}
	for i, c := range all {
		if c.ID != int64(i+1) {
			t.Fatalf("order: %v", all)
		}
	}
}

func TestCreateCategoryInvalid(t *testing.T) {
	s, _ := newTestServer(t)
	bad := map[string]string{
		"empty":          ``,
		"not json":       `name=x`,
		"array":          `[{"name":"x"}]`,
		"null":           `null`,
		"missing name":   `{"description":"x"}`,
		"name null":      `{"name":null}`,
		"name number":    `{"name":5}`,
		"name empty":     `{"name":""}`,
		"name spaces":    `{"name":" \t\u00a0\u3000"}`,
		"name too long":  `{"name":"` + strings.Repeat("x", 101) + `"}`,
		"desc too long":  `{"name":"x","description":"` + strings.Repeat("é", 501) + `"}`,
		"desc null":      `{"name":"x","description":null}`,
		"unknown prop":   `{"name":"x","color":"red"}`,
		"other case":     `{"Name":"x"}`,
		"duplicate":      `{"name":"x","name":"y"}`,
		"lone high":      `{"name":"a\ud800"}`,
		"lone low":       `{"name":"a\udc00b"}`,
		"reversed pair":  `{"name":"\udc00\ud800"}`,
		"nul":            `{"name":"a\u0000"}`,
		"trailing":       `{"name":"x"} {}`,
		"trailing comma": `{"name":"x",}`,
		"bad utf8":       "{\"name\":\"\xff\"}",
		"bom":            "\xef\xbb\xbf{\"name\":\"x\"}",
	}
	for name, body := range bad {
		w := do(s, "POST", "/v1/categories", "prokey", "application/json", body)
		if w.Code != 400 {
			t.Errorf("%s: status %d %s", name, w.Code, w.Body)
			continue
		}
		decodeErr(t, w, 400, "invalid_request")
	}
	w := do(s, "GET", "/v1/categories", "prokey", "", "")
	var all []Category
	_ = json.Unmarshal(w.Body.Bytes(), &all)
	if len(all) != 3 {
		t.Fatalf("something was stored: %s", w.Body)
	}
	// Escaped backslash followed by "u0000" is an ordinary string.
	w = do(s, "POST", "/v1/categories", "prokey", "application/json", `{"name":"\\u0000"}`)
	if w.Code != 201 {
		t.Fatalf("escaped backslash: %d %s", w.Code, w.Body)
	}
}

func TestCreateCategoryMediaAndSize(t *testing.T) {
	s, _ := newTestServer(t)
	decodeErr(t, do(s, "POST", "/v1/categories", "prokey", "text/plain", `{"name":"x"}`), 415, "unsupported_media_type")
	decodeErr(t, do(s, "POST", "/v1/categories", "prokey", "", `{"name":"x"}`), 415, "unsupported_media_type")
	decodeErr(t, do(s, "POST", "/v1/categories", "prokey", "", ``), 400, "invalid_request")
	// Exactly 16384 bytes is accepted; one more byte is refused.
	pad := func(n int) string {
		base := `{"name":"x"}`
		return base[:len(base)-1] + strings.Repeat(" ", n-len(base)) + "}"
	}
	if w := do(s, "POST", "/v1/categories", "prokey", "application/json", pad(16384)); w.Code != 201 {
		t.Fatalf("16384 bytes: %d %s", w.Code, w.Body)
	}
	decodeErr(t, do(s, "POST", "/v1/categories", "prokey", "application/json", pad(16385)), 413, "payload_too_large")
}
