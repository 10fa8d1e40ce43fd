// Package play is the games people play in the browser against the
// server: chess against the engine and Reconnaissance Chess against a bot.
// Each kind is a live.Game (chessGame, reconGame), hosted in a live.Host
// of the registry it is given; the engine's seat (engineSeat) and the bots
// (ReconBot, which the HTTP API's games of package rbcapi use too) are the
// hosts' automata. The WebSocket protocol's messages and states
// (web/PROTOCOL.md is the contract) are built and read here: a Seat takes
// a tab's messages, each game's View is what a player or a spectator may
// see. The engine's draw offers, typed moves, the openings and the
// experience in the state, the list's Resign and Delete, the sweep of
// games nobody played and the clocks' charge after a crash are here too.
//
// It knows nothing of HTTP: the transport (package web) hands each text
// frame of a tab to its Seat, and implements Tab (a live.Sub, and the
// limits on creating games a rematch must pass).
//
// # Goroutines and locks
//
// The hosts' own (live's package comment). Games runs two goroutines of
// its own until Close: the alive marks (alive.go) and the sweep of
// untouched games (untouched.go). A draw offer that needs an evaluation
// searches in a goroutine of its own, off the host's lock, and takes the
// lock to answer; the engine's and the bots' turns are the host's
// automata's goroutines.
package play
