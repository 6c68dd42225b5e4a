package main

import (
	"net/http"
	"strconv"
	"time"
)

// Deprecation metadata for GET /pets/{petId}.
var (
	petSunset       = time.Date(2027, time.July, 1, 0, 0, 0, 0, time.UTC)
	petDeprecatedAt = time.Date(2026, time.July, 1, 0, 0, 0, 0, time.UTC)
)

const petLink = `<https://api.petstore.example.com/docs/deprecations#get-pet>; rel="deprecation", ` +
	`<https://api.petstore.example.com/docs/sunset-policy>; rel="sunset"`

func setDeprecationHeaders(h http.Header) {
	h.Set("Deprecation", "@"+strconv.FormatInt(petDeprecatedAt.Unix(), 10))
	h.Set("Sunset", petSunset.Format(http.TimeFormat))
	h.Set("Link", petLink)
}

type Tag struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type Pet struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Category  *Category `json:"category,omitempty"`
	PhotoURLs []string  `json:"photoUrls,omitempty"`
	Tags      []Tag     `json:"tags,omitempty"`
	Status    string    `json:"status,omitempty"`
}

type Order struct {
	ID       int64  `json:"id"`
	PetID    int64  `json:"petId"`
	Quantity int32  `json:"quantity"`
	ShipDate string `json:"shipDate"`
	Status   string `json:"status"`
	Complete bool   `json:"complete"`
}

// Seed data: the examples of the OpenAPI document. Pets and orders are read-only.
func seedPets(cats *CategoryStore) map[int64]Pet {
	dog, _ := cats.Get(1)
	return map[int64]Pet{
		1: {
			ID:        1,
			Name:      "Rex",
			Category:  &dog,
			PhotoURLs: []string{"https://images.petstore.example.com/pets/1.jpg"},
			Tags:      []Tag{{ID: 1, Name: "friendly"}},
			Status:    "available",
		},
	}
}

func seedOrders() []Order {
	return []Order{
		{ID: 1, PetID: 1, Quantity: 1, ShipDate: "2026-11-20T10:00:00Z", Status: "delivered", Complete: true},
		{ID: 2, PetID: 2, Quantity: 2, ShipDate: "2026-11-25T09:30:00Z", Status: "placed", Complete: false},
	}
}

// parsePetID accepts a decimal positive int64 (digits only).
func parsePetID(s string) (int64, bool) {
	if s == "" || len(s) > 32 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 1 {
		return 0, false
	}
	return id, true
}

func (s *Server) getPet(w http.ResponseWriter, rawID string, now time.Time) {
	if !now.Before(petSunset) {
		writeError(w, http.StatusGone, "gone",
			"GET /pets/{petId} was retired on "+petSunset.Format(http.TimeFormat)+".")
		return
	}
	id, ok := parsePetID(rawID)
	if !ok {
		writeError(w, http.StatusBadRequest, "invalid_request", "path: petId must be a positive integer")
		return
	}
	pet, ok := s.pets[id]
	if !ok {
		writeError(w, http.StatusNotFound, "not_found", "No pet has this id.")
		return
	}
	writeJSON(w, http.StatusOK, pet)
}

func (s *Server) listOrders(w http.ResponseWriter) {
	out := make([]Order, len(s.orders))
	copy(out, s.orders)
	writeJSON(w, http.StatusOK, out)
}
