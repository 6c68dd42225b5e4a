package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"sync"
	"unicode/utf8"
)

const (
	maxBodyBytes   = 16384
	maxNameLen     = 100
	maxDescLen     = 500
	errIDExhausted = "no more category ids"
)

// Category is a category as stored; an omitted description stays omitted.
type Category struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
}

// CategoryStore holds categories in memory, in ascending id order.
type CategoryStore struct {
	mu     sync.RWMutex
	cats   []Category
	nextID int64
}

func strPtr(s string) *string { return &s }

func NewCategoryStore() *CategoryStore {
	return &CategoryStore{
		cats: []Category{
			{ID: 1, Name: "dog", Description: strPtr("Dogs of every breed")},
			{ID: 2, Name: "cat", Description: strPtr("Cats of every breed")},
			{ID: 3, Name: "rabbit", Description: strPtr("Rabbits and hares")},
		},
		nextID: 4,
	}
}

func (s *CategoryStore) List() []Category {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Category, len(s.cats))
	copy(out, s.cats)
	return out
}

func (s *CategoryStore) Get(id int64) (Category, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, c := range s.cats {
		if c.ID == id {
			return c, true
		}
	}
	return Category{}, false
}

func (s *CategoryStore) Create(name string, desc *string) (Category, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nextID <= 0 {
		return Category{}, errors.New(errIDExhausted)
	}
	c := Category{ID: s.nextID, Name: name, Description: desc}
	s.cats = append(s.cats, c)
	if s.nextID == math.MaxInt64 {
		s.nextID = 0 // every id is used
	} else {
		s.nextID++
	}
	return c, nil
}

// isECMASpace reports whether r is whitespace as ECMAScript's \s defines it,
// the regex dialect of the schema's `pattern: \S`.
func isECMASpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

func hasNonSpace(s string) bool {
	for _, r := range s {
		if !isECMASpace(r) {
			return true
		}
	}
	return false
}

// checkEscapes refuses \u escapes that cannot be stored as sent: NUL and lone
// surrogates (encoding/json would silently turn those into U+FFFD).
func checkEscapes(b []byte) string {
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(b) || b[i] != '\\' || b[i+1] != 'u' {
			return 0, false
		}
		var v rune
		for _, c := range b[i+2 : i+6] {
			switch {
			case c >= '0' && c <= '9':
				v = v<<4 | rune(c-'0')
			case c >= 'a' && c <= 'f':
				v = v<<4 | rune(c-'a'+10)
			case c >= 'A' && c <= 'F':
				v = v<<4 | rune(c-'A'+10)
			default:
				return 0, false
			}
		}
		return v, true
	}
	for i := 0; i < len(b); {
		if b[i] != '\\' {
			i++
			continue
		}
		v, ok := hex4(i)
		if !ok {
			i += 2 // other escape (or malformed; the JSON parser reports that)
			continue
		}
		switch {
		case v == 0:
			return "body: strings must not contain NUL (\\u0000)"
		case v >= 0xD800 && v <= 0xDBFF:
			lo, ok := hex4(i + 6)
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				return "body: strings must not contain a lone surrogate escape"
			}
			i += 12
		case v >= 0xDC00 && v <= 0xDFFF:
			return "body: strings must not contain a lone surrogate escape"
		default:
			i += 6
		}
	}
	return ""
}

// decodeNewCategory validates a NewCategory body exactly against the schema.
// It returns a non-empty message when the body is invalid.
func decodeNewCategory(body []byte) (name string, desc *string, msg string) {
	if len(bytes.TrimSpace(body)) == 0 {
		return "", nil, "body: a JSON object is required"
	}
	if !utf8.Valid(body) {
		return "", nil, "body: not well-formed UTF-8"
	}
	if m := checkEscapes(body); m != "" {
		return "", nil, m
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	if err != nil {
		return "", nil, "body: not well-formed JSON"
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return "", nil, "body: must be a JSON object"
	}
	seen := map[string]bool{}
	var gotName bool
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", nil, "body: not well-formed JSON"
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return "", nil, "body: not well-formed JSON"
		}
		if key != "name" && key != "description" {
			return "", nil, "body: unknown property; only name and description are allowed"
		}
		if seen[key] {
			return "", nil, "body: " + key + " is given more than once"
		}
		seen[key] = true
		var s string
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return "", nil, "body: " + key + " must be a string"
		}
		if key == "name" {
			n := utf8.RuneCountInString(s)
			if n < 1 || n > maxNameLen {
				return "", nil, "body: name must be 1 to 100 characters long"
			}
			if !hasNonSpace(s) {
				return "", nil, "body: name must not be only whitespace"
			}
			name, gotName = s, true
		} else {
			if utf8.RuneCountInString(s) > maxDescLen {
				return "", nil, "body: description must be at most 500 characters long"
			}
			desc = strPtr(s)
		}
	}
	if _, err := dec.Token(); err != nil { // closing '}'
		return "", nil, "body: not well-formed JSON"
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", nil, "body: unexpected data after the JSON object"
	}
	if !gotName {
		return "", nil, "body: name is required"
	}
	return name, desc, ""
}
