package main

import (
	"bytes"
	"encoding/json"
	"log"
	"net/http"
	"strconv"
)

// APIError is the body of every error response.
type APIError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Status  int    `json:"status"`
}

func encodeJSON(v interface{}) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeJSON writes v as an application/json response with the given status.
func writeJSON(w http.ResponseWriter, status int, v interface{}) {
	body, err := encodeJSON(v)
	if err != nil {
		log.Printf("encode response: %v", err)
		status = http.StatusInternalServerError
		body, _ = encodeJSON(APIError{Code: "internal_error",
			Message: "The service failed to answer; the failure is logged.", Status: status})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, APIError{Code: code, Message: message, Status: status})
}

func setRateHeaders(h http.Header, d Decision) {
	h.Set("X-RateLimit-Limit", strconv.FormatInt(d.Limit, 10))
	h.Set("X-RateLimit-Remaining", strconv.FormatInt(d.Remaining, 10))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(d.Reset, 10))
}

func writeTooMany(w http.ResponseWriter, d Decision) {
	w.Header().Set("Retry-After", strconv.FormatInt(d.RetryAfter, 10))
	writeError(w, http.StatusTooManyRequests, d.Code, d.Message)
}

// trackingWriter remembers whether a response was started, for panic recovery.
type trackingWriter struct {
	http.ResponseWriter
	started bool
}

func (t *trackingWriter) WriteHeader(code int) {
	t.started = true
	t.ResponseWriter.WriteHeader(code)
}

func (t *trackingWriter) Write(b []byte) (int, error) {
	t.started = true
	return t.ResponseWriter.Write(b)
}
