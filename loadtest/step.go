package loadtest

import (
	"fmt"
	"io"
	"sort"
	"time"
)

// StepResult is a step search: every run, and the most games at once
// whose acknowledgement p99 stayed under the target.
type StepResult struct {
	Target time.Duration
	Runs   []*LoadReport
	Best   int // 0 when even one game missed the target
}

// StepSearch runs base at base.Games players, doubling while the p99 of
// the player's move acknowledgement stays under target (up to maxGames),
// or halving while it does not (down to one game), then bisects between
// the most games held and the fewest missed until they are within an
// eighth of each other. Each run starts its own server on a fresh
// database; each run's report goes to progress as it ends.
func StepSearch(base LoadConfig, maxGames int, target time.Duration, progress io.Writer) (*StepResult, error) {
	if err := checkCount("largest step", maxGames, MaxActiveGames); err != nil {
		return nil, err
	}
	res := &StepResult{Target: target}
	held := func(n int) (bool, error) {
		cfg := base
		cfg.Games = n
		rep, err := Run(cfg)
		if err != nil {
			return false, err
		}
		res.Runs = append(res.Runs, rep)
		if progress != nil {
			rep.Print(progress)
			fmt.Fprintln(progress)
		}
		return rep.Ack.N > 0 && rep.Ack.P99 < target && len(rep.Violations) == 0, nil
	}
	best, err := searchSteps(base.Games, maxGames, held)
	res.Best = best
	return res, err
}

// searchSteps is StepSearch's search: held(n) runs n games and says
// whether they held the target. It returns the most games held (0: not
// even one).
func searchSteps(start, maxGames int, held func(n int) (bool, error)) (int, error) {
	lo, hi := 0, 0 // the most games held, the fewest missed (0: none yet)
	for n := min(max(start, 1), maxGames); n > 0; {
		ok, err := held(n)
		if err != nil {
			return lo, err
		}
		if ok {
			lo = n
		} else {
			hi = n
		}
		switch {
		case ok && hi == 0 && n < maxGames:
			n = min(2*n, maxGames)
		case !ok && lo == 0 && n > 1:
			n /= 2
		default:
			n = 0
		}
	}
	for hi > 0 && lo > 0 && hi-lo > max(lo/8, 1) {
		mid := (lo + hi) / 2
		ok, err := held(mid)
		if err != nil {
			return lo, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// Print writes the curve as a Markdown table, fewest games first, and the
// answer.
func (s *StepResult) Print(w io.Writer) {
	runs := append([]*LoadReport(nil), s.Runs...)
	sort.Slice(runs, func(i, j int) bool { return runs[i].Config.Games < runs[j].Config.Games })
	fmt.Fprintln(w, "| games | ack p50 | ack p99 | ack p999 | moves/s | level 1 reply p50 / p99 | level 8 reply p50 / p99 | recon ack p99 | server CPU (cores) | server RSS peak | goroutines peak | fds peak | errors | load at end | fsync p99 before |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range runs {
		t := Tally{m: r.Errors}
		fmt.Fprintf(w, "| %d | %s | %s | %s | %.1f | %s | %s | %s | %.2f | %.0f MiB | %d | %d | %s | %s | %s |\n",
			r.Config.Games, Ms(r.Ack.P50), Ms(r.Ack.P99), Ms(r.Ack.P999), r.MovesPerSecond(),
			pair(r.Engine[1]), pair(r.Engine[8]), Ms(r.ReconAck.P99), r.ServerCPU,
			float64(r.Peak.RSSKiB)/1024, r.Peak.Goroutines, r.Peak.FDs, t.String(), r.LoadEnd, Ms(r.Fsync.P99))
	}
	if s.Best > 0 {
		fmt.Fprintf(w, "\nmost games held with the acknowledgement p99 under %v: %d\n", s.Target, s.Best)
	} else {
		fmt.Fprintf(w, "\neven one game missed p99 under %v\n", s.Target)
	}
}

func pair(s Summary) string {
	if s.N == 0 {
		return "—"
	}
	return fmt.Sprintf("%s / %s", Ms(s.P50), Ms(s.P99))
}
