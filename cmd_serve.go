package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
)

func init() {
	register(command{
		name:    "serve",
		summary: "serve the web app (the default subcommand)",
		run:     runServe,
	})
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "[--addr HOST:PORT] [--db PATH]", stderr)
	addr := fs.String("addr", envOr("KNIGHTWATCH_ADDR", ":8080"), "listen address (env KNIGHTWATCH_ADDR)")
	_ = fs.String("db", envOr("KNIGHTWATCH_DB", "knightwatch.db"), "SQLite database path (env KNIGHTWATCH_DB)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>Knightwatch</title><h1>Knightwatch</h1><p>The board is coming: play against the engine, right here.</p>")
	})
	fmt.Fprintf(stdout, "Knightwatch listening on %s\n", *addr)
	return http.ListenAndServe(*addr, mux)
}
