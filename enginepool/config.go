package enginepool

import (
	"fmt"
	"runtime"

	"knightwatch/gaviota"
	"knightwatch/syzygy"
)

// Config configures a Pool. Its zero value is the server's pool: one real
// engine per core, one more for the quick lane, no tablebases.
type Config struct {
	// NewSearcher makes one engine for the pool (default
	// NewEngineSearcher); tests substitute quick deterministic ones.
	NewSearcher func() Searcher
	// Searchers is how many regular searchers the pool has (default
	// runtime.NumCPU()).
	Searchers int
	// QuickSearchers is how many more searchers the pool keeps for short
	// live requests (a budget of at most 400 ms: levels 1 to 5, draw
	// evaluations), so that they need not wait for long searches to end
	// (the pool's doc). Default 1; negative: none.
	QuickSearchers int
	// SyzygyPath, when set, names the directories (':'-separated) of the
	// Syzygy tablebases that the engines made by NewEngineSearcher probe,
	// so that they play tablebase endings perfectly. New opens them and
	// fails when they cannot be read or hold no table.
	SyzygyPath string
	// GaviotaPath, when set, names the directories (':'-separated) of
	// Gaviota tablebases (.gtb.cp4): the engines play the shortest mate
	// in the endings they hold, and the reviews say how far mate is. New
	// opens them and fails when they cannot be read or hold no table.
	GaviotaPath string
	// BotCores is how many clocked steps of Reconnaissance Chess bots
	// (Step.Clocked: bots spending their clock against remote bots) may
	// think at once, each on one core beside the searchers (botcores.go).
	// Default DefaultBotCores (half the cores, at least one); negative:
	// none, clocked steps then think as regular ones, at most 3 s.
	BotCores int
	// Hooks let tests see inside; nil fields do nothing.
	Hooks Hooks
}

// Hooks are what tests see of a pool, so that they wait for its changes
// rather than for time.
type Hooks struct {
	// Changed runs after each change of the pool's queues, searchers or
	// owners' use (a request queued, handed a searcher, given up or
	// ended), in the goroutine that made it, with no lock held: Load and
	// Owner then tell the change, or a later one.
	Changed func()
}

// New builds a pool as cfg says. It fails when cfg.SyzygyPath's or
// cfg.GaviotaPath's tables cannot be read or hold no table.
func New(cfg Config) (*Pool, error) {
	mk := cfg.NewSearcher
	if mk == nil {
		mk = NewEngineSearcher
	}
	n := cfg.Searchers
	if n <= 0 {
		n = runtime.NumCPU()
	}
	quick := cfg.QuickSearchers
	if quick == 0 {
		quick = poolQuickSearchers
	}
	tb, err := openTablebase(cfg.SyzygyPath)
	if err != nil {
		return nil, err
	}
	gtb, err := openGaviota(cfg.GaviotaPath)
	if err != nil {
		if tb != nil {
			tb.Close()
		}
		return nil, err
	}
	p := newPool(n, quick, func() Searcher {
		s := mk()
		if u, ok := s.(tablebaseUser); ok {
			if tb != nil {
				u.setTablebase(tb)
			}
			if gtb != nil {
				u.setGaviota(gtb)
			}
		}
		return s
	})
	p.tb, p.gtb = tb, gtb
	p.hooks = cfg.Hooks
	p.botCores = botCoresOf(cfg.BotCores)
	return p, nil
}

// openTablebase opens path's tables, if path is set: all searchers share
// the one set, which Close closes. Tables that cannot be read, or none
// found, are an error.
func openTablebase(path string) (*syzygy.Tablebase, error) {
	if path == "" {
		return nil, nil
	}
	tb, err := syzygy.Open(path)
	if err != nil {
		return nil, fmt.Errorf("enginepool: Syzygy tables %q: %w", path, err)
	}
	if wdl, _ := tb.NumTables(); wdl == 0 {
		tb.Close()
		return nil, fmt.Errorf("enginepool: Syzygy tables %q: no %s table found", path, syzygy.WDLSuffix)
	}
	return tb, nil
}

// openGaviota opens path's Gaviota tables, if path is set, as
// openTablebase does the Syzygy ones.
func openGaviota(path string) (*gaviota.Tablebase, error) {
	if path == "" {
		return nil, nil
	}
	tb, err := gaviota.Open(path)
	if err != nil {
		return nil, fmt.Errorf("enginepool: Gaviota tables %q: %w", path, err)
	}
	if len(tb.Tables()) == 0 {
		tb.Close()
		return nil, fmt.Errorf("enginepool: Gaviota tables %q: no %s table found", path, gaviota.Suffix)
	}
	return tb, nil
}

// Gaviota returns the Gaviota tables the engines probe
// (Config.GaviotaPath), for whoever says how far mate is in a finished
// game's positions; nil without.
func (p *Pool) Gaviota() *gaviota.Tablebase { return p.gtb }

// Tablebase returns the Syzygy tables the engines probe
// (Config.SyzygyPath), for whoever judges finished games by them; nil
// without.
func (p *Pool) Tablebase() *syzygy.Tablebase { return p.tb }

// Searchers returns how many regular searchers the pool has: as many
// background searches can run at once.
func (p *Pool) Searchers() int {
	n := 0
	for _, e := range p.all {
		if !e.quick {
			n++
		}
	}
	return n
}

// Close closes the pool's tables (Syzygy and Gaviota), if any. Call it once no search runs any
// more (the server and the reviews have stopped): a probe after it fails
// safely, but finds nothing.
func (p *Pool) Close() {
	if p.tb != nil {
		p.tb.Close()
	}
	if p.gtb != nil {
		p.gtb.Close()
	}
}
