package engine

import "time"

// Level describes one difficulty level as shown to players.
type Level struct {
	Number      int
	Name        string
	Description string
	MoveTime    time.Duration // time per move when the caller sets no limit
	// ApproxElo is an estimate on Stockfish 15.1's UCI_Elo scale from
	// 10s+0.1 matches (docs/strength.md; bench/strength.sh): level 8, with
	// the built-in network, scored 52.8% in 400 games against UCI_Elo 2400
	// (about 2420), level 1 28% in 100 games against 1350 (about 1190).
	// The levels between sit where their 200-game matches against the level
	// below put them, with those self-play gaps scaled by one factor (0.47)
	// so the chain meets both anchors: copies of one engine separate far
	// more against each other than against a different opponent. Rounded to
	// 50; error +-100 or more. Level 8 is 2400 from its matches against
	// UCI_Elo 2400; the levels below keep the chain measured with the
	// hand-written evaluation, which the ladder re-measured with the network
	// changes by less than its error.
	ApproxElo int
}

// levelParams is how a level weakens the search. The weakening is meant to
// look human: a shallow horizon (missing deeper tactics), a little
// evaluation noise (misjudging quiet positions) and picking among moves
// that are nearly as good as the best one. Never picking a move much worse
// than the best keeps it from giving material away for nothing.
type levelParams struct {
	moveTime time.Duration
	maxDepth int // 0 = no cap
	noise    int // evaluation noise amplitude in centipawns
	margin   int // choose among root moves within this many centipawns of the best
	// openingMargin widens the choice during the first moves so games
	// vary even without a book.
	openingMargin int
}

var levelTable = [...]levelParams{
	{moveTime: 150 * time.Millisecond, maxDepth: 1, noise: 40, margin: 90, openingMargin: 60},
	{moveTime: 200 * time.Millisecond, maxDepth: 2, noise: 30, margin: 70, openingMargin: 50},
	{moveTime: 250 * time.Millisecond, maxDepth: 3, noise: 22, margin: 50, openingMargin: 40},
	{moveTime: 300 * time.Millisecond, maxDepth: 5, noise: 15, margin: 35, openingMargin: 30},
	{moveTime: 400 * time.Millisecond, maxDepth: 6, noise: 12, margin: 28, openingMargin: 25},
	{moveTime: 600 * time.Millisecond, maxDepth: 7, noise: 8, margin: 18, openingMargin: 20},
	{moveTime: 1000 * time.Millisecond, maxDepth: 9, noise: 3, margin: 8, openingMargin: 15},
	{moveTime: 3000 * time.Millisecond},
}

// Levels lists the difficulty levels; index 0 is level 1.
var Levels = []Level{
	{1, "Beginner", "Looks one move ahead; misses most tactics and sometimes drifts.", levelTable[0].moveTime, 1200},
	{2, "Novice", "Sees simple captures and threats, little more.", levelTable[1].moveTime, 1250},
	{3, "Casual", "Spots two-move tactics, plays loosely.", levelTable[2].moveTime, 1350},
	{4, "Club", "A solid club player with an occasional slip.", levelTable[3].moveTime, 1450},
	{5, "Strong club", "Calculates short combinations reliably.", levelTable[4].moveTime, 1600},
	{6, "Expert", "Deeper calculation, rarely misses a tactic.", levelTable[5].moveTime, 1700},
	{7, "Master", "Nearly full strength, thinking one second a move.", levelTable[6].moveTime, 1900},
	{8, "Grandmaster", "Full strength, a few seconds a move.", levelTable[7].moveTime, 2400},
}
