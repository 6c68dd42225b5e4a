package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Plan is a key's quota: requests per fixed UTC minute and per fixed UTC day.
type Plan struct {
	Name      string
	PerMinute int64
	PerDay    int64
}

// standardPlans are the plans whose limits the spec fixes. Enterprise limits
// come from the keys file.
var standardPlans = map[string]Plan{
	"free":     {Name: "free", PerMinute: 60, PerDay: 1000},
	"pro":      {Name: "pro", PerMinute: 300, PerDay: 10000},
	"business": {Name: "business", PerMinute: 1000, PerDay: 100000},
}

type keyEntry struct {
	Key       string `json:"key"`
	Plan      string `json:"plan"`
	PerMinute *int64 `json:"perMinute"`
	PerDay    *int64 `json:"perDay"`
}

// loadKeys reads the keys file: a JSON array of {"key","plan"[,"perMinute","perDay"]}.
func loadKeys(path string) (map[string]Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseKeys(data)
}

func parseKeys(data []byte) (map[string]Plan, error) {
	var entries []keyEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("keys file: %w", err)
	}
	keys := make(map[string]Plan, len(entries))
	for i, e := range entries {
		if e.Key == "" {
			return nil, fmt.Errorf("keys file: entry %d: empty key", i)
		}
		if strings.ContainsAny(e.Key, " \t\r\n") {
			return nil, fmt.Errorf("keys file: entry %d: key contains whitespace", i)
		}
		if _, dup := keys[e.Key]; dup {
			return nil, fmt.Errorf("keys file: entry %d: duplicate key", i)
		}
		name := strings.ToLower(strings.TrimSpace(e.Plan))
		if p, ok := standardPlans[name]; ok {
			keys[e.Key] = p
			continue
		}
		if name != "enterprise" {
			return nil, fmt.Errorf("keys file: entry %d: unknown plan %q", i, e.Plan)
		}
		if e.PerMinute == nil || e.PerDay == nil {
			return nil, fmt.Errorf("keys file: entry %d: enterprise plan needs perMinute and perDay", i)
		}
		if *e.PerMinute < 0 || *e.PerDay < 0 {
			return nil, errors.New("keys file: limits must not be negative")
		}
		keys[e.Key] = Plan{Name: "enterprise", PerMinute: *e.PerMinute, PerDay: *e.PerDay}
	}
	return keys, nil
}
