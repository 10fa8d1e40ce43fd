// Package analysisboard is the server side of the analysis board
// (/analysis): a tree of moves read from and written as PGN (tree.go),
// what the board needs of one position of it (position.go: its FEN, its
// legal moves, the opening's name, the Syzygy tables' verdict on it and
// on each of its moves), the messages of the analysis socket
// (messages.go), the per-owner caps on engine analysis (caps.go) and a
// socket's session, which runs the live engine lines in the engine pool
// as its owner's work (session.go).
//
// It knows nothing of HTTP or of the database: package web serves the
// page, the routes and the socket (one reader, one writer) and hands each
// socket's messages to a Session, which sends its answers through the
// function it was given.
package analysisboard
