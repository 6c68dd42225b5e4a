package main

import (
	"errors"
	"io"
	"log"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Server is the Pet Store HTTP handler. All state is in memory.
type Server struct {
	keys    map[string]Plan
	limiter *Limiter
	cats    *CategoryStore
	pets    map[int64]Pet
	orders  []Order
	now     func() time.Time
}

func NewServer(keys map[string]Plan, now func() time.Time) *Server {
	cats := NewCategoryStore()
	return &Server{
		keys:    keys,
		limiter: NewLimiter(),
		cats:    cats,
		pets:    seedPets(cats),
		orders:  seedOrders(),
		now:     now,
	}
}

// route is what a request path names under the /v1 base path.
type route struct {
	op    string // "categories", "pet", "orders", or "" for an unknown path
	allow string // methods the path supports, for 405's Allow
	petID string
}

// pathSegments splits the path into decoded segments, resolving "." and ".."
// segments (RFC 3986 5.2.4). A trailing slash yields a final empty segment.
func pathSegments(u *url.URL) []string {
	raw := u.EscapedPath()
	if !strings.HasPrefix(raw, "/") {
		return nil
	}
	parts := strings.Split(raw[1:], "/")
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		seg, err := url.PathUnescape(p)
		if err != nil {
			return nil
		}
		last := i == len(parts)-1
		switch seg {
		case ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, seg)
			continue
		}
		if last {
			out = append(out, "")
		}
	}
	return out
}

func matchRoute(u *url.URL) route {
	s := pathSegments(u)
	switch {
	case len(s) == 2 && s[0] == "v1" && s[1] == "categories":
		return route{op: "categories", allow: "GET, HEAD, POST"}
	case len(s) == 3 && s[0] == "v1" && s[1] == "pets" && s[2] != "":
		return route{op: "pet", allow: "GET, HEAD", petID: s[2]}
	case len(s) == 3 && s[0] == "v1" && s[1] == "store" && s[2] == "orders":
		return route{op: "orders", allow: "GET, HEAD"}
	}
	return route{}
}

type authStatus int

const (
	authMissing authStatus = iota
	authInvalid
	authOK
)

// authenticate reads the bearer API key. Absent or blank credentials are
// "missing"; anything else that is not a known key is "invalid".
func (s *Server) authenticate(r *http.Request) (string, Plan, authStatus) {
	vals := r.Header.Values("Authorization")
	if len(vals) == 0 {
		return "", Plan{}, authMissing
	}
	if len(vals) > 1 {
		return "", Plan{}, authInvalid
	}
	f := strings.FieldsFunc(vals[0], func(r rune) bool { return r == ' ' || r == '\t' })
	switch {
	case len(f) == 0:
		return "", Plan{}, authMissing
	case !strings.EqualFold(f[0], "Bearer"):
		return "", Plan{}, authInvalid
	case len(f) == 1:
		return "", Plan{}, authMissing
	case len(f) > 2:
		return "", Plan{}, authInvalid
	}
	p, ok := s.keys[f[1]]
	if !ok {
		return "", Plan{}, authInvalid
	}
	return f[1], p, authOK
}

func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// ServeHTTP runs authentication and quota first, then routing, then validation.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w := &trackingWriter{ResponseWriter: rw}
	defer func() {
		if rec := recover(); rec != nil {
			if rec == http.ErrAbortHandler {
				panic(rec)
			}
			log.Printf("panic serving request: %v", rec)
			if !w.started {
				writeError(w, http.StatusInternalServerError, "internal_error",
					"The service failed to answer; the failure is logged.")
			}
		}
	}()
	now := s.now()
	rt := matchRoute(r.URL)
	isGet := r.Method == http.MethodGet || r.Method == http.MethodHead
	if rt.op == "pet" && isGet {
		setDeprecationHeaders(w.Header())
	}

	key, plan, st := s.authenticate(r)
	if st != authOK {
		d := s.limiter.CheckClient(clientAddr(r), now)
		setRateHeaders(w.Header(), d)
		if !d.Allowed {
			writeTooMany(w, d)
			return
		}
		if st == authMissing {
			w.Header().Set("WWW-Authenticate", `Bearer realm="petstore"`)
			writeError(w, http.StatusUnauthorized, "missing_api_key",
				"No API key: send Authorization: Bearer <API_KEY>.")
		} else {
			w.Header().Set("WWW-Authenticate", `Bearer realm="petstore", error="invalid_token"`)
			writeError(w, http.StatusUnauthorized, "invalid_api_key", "The API key is not valid.")
		}
		return
	}
	d := s.limiter.CheckKey(key, plan, now)
	setRateHeaders(w.Header(), d)
	if !d.Allowed {
		writeTooMany(w, d)
		return
	}

	switch {
	case rt.op == "":
		writeError(w, http.StatusNotFound, "not_found", "No resource exists at this path.")
	case rt.op == "categories" && isGet:
		writeJSON(w, http.StatusOK, s.cats.List())
	case rt.op == "categories" && r.Method == http.MethodPost:
		s.createCategory(w, r)
	case rt.op == "pet" && isGet:
		s.getPet(w, rt.petID, now)
	case rt.op == "orders" && isGet:
		s.listOrders(w)
	default:
		w.Header().Set("Allow", rt.allow)
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed",
			"This method is not supported here; allowed: "+rt.allow+".")
	}
}

func (s *Server) createCategory(w http.ResponseWriter, r *http.Request) {
	ct := r.Header.Get("Content-Type")
	if ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			writeError(w, http.StatusUnsupportedMediaType, "unsupported_media_type",
				"Content-Type must be application/json.")
			return
		}
	}
	if r.ContentLength > maxBodyBytes {
		writeError(w, http.StatusRequestEntityTooLarge, "payload_too_large",
			"The request body is over the limit of 16384 bytes.")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "payload_too_large",
				"The request body is over the limit of 16384 bytes.")
			return
		}
		writeError(w, http.StatusBadRequest, "invalid_request", "body: could not be read")
		return
	}
	if ct == "" && len(body) > 0 {
		writeError(w, http.StatusUnsupportedMediaType, "unsupported_media_type",
			"Content-Type must be application/json.")
		return
	}
	name, desc, msg := decodeNewCategory(body)
	if msg != "" {
		writeError(w, http.StatusBadRequest, "invalid_request", msg)
		return
	}
	c, err := s.cats.Create(name, desc)
	if err != nil {
		log.Printf("create category: %v", err)
		writeError(w, http.StatusInternalServerError, "internal_error",
			"The service failed to answer; the failure is logged.")
		return
	}
	writeJSON(w, http.StatusCreated, c)
}
