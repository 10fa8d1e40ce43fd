// Package training is learning from one's games (issue 47): "learn from
// your mistakes" on a reviewed game (learn.go, session.go: the player's
// mistakes and blunders by the review, what happened in words, a tried
// move judged by one search as the player's work, the session kept in the
// store), and puzzles found in every finished, reviewed game (find.go:
// lichess-puzzler's rules; generator.go: the background search, on the
// engine pool's background lane), played and rated (puzzle.go,
// glicko.go: Glicko-2, each first attempt a game between the player and
// the puzzle). No HTTP: package web serves the pages.
package training
