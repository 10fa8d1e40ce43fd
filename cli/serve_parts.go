package cli

import (
	"log"

	"knightwatch/enginepool"
	"knightwatch/experience"
	"knightwatch/review"
	"knightwatch/store"
	"knightwatch/web"
)

// partsFlags are serve's settings of the parts of the web app that are
// not HTTP.
type partsFlags struct {
	syzygy         string // --syzygy
	experience     bool   // --experience
	experienceRows int    // --experience-rows
	analysisNodes  int    // --analysis-nodes; 0: no reviews
}

// buildParts is the composition root of the web app's parts that are not
// HTTP: the engine pool (with the Syzygy tables), the learner (with the
// experience on) and the reviewer (with a review budget), each with its
// own package's defaults, wired to each other (a complete review teaches
// the learner). closeParts closes them once the server is closed, each
// after those that use it.
func buildParts(st *store.Store, f partsFlags, logger *log.Logger) (parts web.Parts, closeParts func(), err error) {
	var closers []func()
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	defer func() {
		if err != nil {
			closeAll() // what was built before the failure
		}
	}()
	if parts.Pool, err = enginepool.New(enginepool.Config{SyzygyPath: f.syzygy}); err != nil {
		return web.Parts{}, nil, err
	}
	closers = append(closers, parts.Pool.Close)
	if f.experience {
		if parts.Learner, err = experience.New(experience.Options{Store: st, Rows: f.experienceRows, Logger: logger}); err != nil {
			return web.Parts{}, nil, err
		}
		closers = append(closers, parts.Learner.Close)
	}
	if f.analysisNodes > 0 {
		ro := review.Options{Store: st, Engine: parts.Pool, Nodes: f.analysisNodes, Logger: logger}
		if parts.Learner != nil {
			ro.Learn = parts.Learner.Reviewed
		}
		if parts.Reviews, err = review.New(ro); err != nil {
			return web.Parts{}, nil, err
		}
		closers = append(closers, parts.Reviews.Close)
	}
	return parts, closeAll, nil
}
