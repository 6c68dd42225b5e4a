// Command petstore serves the Pet Store API (see spec/openapi.yaml) on 127.0.0.1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

func main() {
	port := flag.Int("port", 8080, "TCP port to listen on (127.0.0.1 only)")
	keysPath := flag.String("keys", "", "JSON file with the API keys and their plans")
	flag.Parse()
	log.SetOutput(os.Stderr)

	if *port < 0 || *port > 65535 {
		log.Fatalf("invalid -port %d", *port)
	}
	keys := map[string]Plan{}
	if *keysPath == "" {
		log.Printf("warning: no -keys file given; every request will be answered 401")
	} else {
		k, err := loadKeys(*keysPath)
		if err != nil {
			log.Fatalf("load keys: %v", err)
		}
		keys = k
	}

	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		log.Fatalf("listen: %v", err)
	}
	srv := &http.Server{
		Handler:           NewServer(keys, time.Now),
		ReadHeaderTimeout: 10 * time.Second,
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	fmt.Printf("listening on http://127.0.0.1:%d\n", ln.Addr().(*net.TCPAddr).Port)

	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			log.Fatalf("serve: %v", err)
		}
	case <-ctx.Done():
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdownCtx); err != nil {
			log.Printf("shutdown: %v", err)
			_ = srv.Close()
		}
	}
}
