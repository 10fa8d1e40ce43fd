package main

import (
	"fmt"
	"path/filepath"
	"time"

	"knightwatch/e2e"
	"knightwatch/pgtest"
)

// stopSite stops what startSite started; nothing before it.
var stopSite = func() {}

// startSite starts a throwaway PostgreSQL cluster, servers servers that
// take no engine job, and workers workers of one searcher each; it
// returns the last server's URL (for the samples) and the first's (for
// the floods).
func startSite(bin, dir string, servers, workers int) (sample, flood string, err error) {
	var stops []func()
	stopSite = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	defer func() {
		if err != nil {
			stopSite()
		}
	}()
	c, err := pgtest.Start("")
	if err != nil {
		return "", "", err
	}
	stops = append(stops, func() { c.Stop() })
	dsn, err := c.NewDatabase("kw_starvation")
	if err != nil {
		return "", "", err
	}
	var urls []string
	for i := range max(servers, 1) {
		addr, err := e2e.FreeAddr()
		if err != nil {
			return "", "", err
		}
		s, err := e2e.StartServer(bin, dsn, addr, filepath.Join(dir, fmt.Sprintf("server%d.log", i)), append(maxConnsFlag(bin), "--engine-work=false")...)
		if err != nil {
			return "", "", err
		}
		stops = append(stops, func() { s.Stop(15 * time.Second) })
		urls = append(urls, s.URL())
	}
	for i := range workers {
		w, err := e2e.NewWorker(bin, dsn, filepath.Join(dir, fmt.Sprintf("worker%d.log", i)), "--searchers", "1")
		if err != nil {
			return "", "", err
		}
		stops = append(stops, func() { w.Stop(15 * time.Second) })
	}
	return urls[len(urls)-1], urls[0], nil
}
