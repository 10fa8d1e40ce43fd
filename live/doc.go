// Package live hosts the games being played: one Host per game, whatever
// the game (chess against the engine; Reconnaissance Chess against a bot, or
// between two programs, or a person and a program, over the reconchess
// API). It knows nothing of HTTP or of the store's tables: what differs
// between kinds of game is behind Game, and who plays a colour is a seat.
//
// A Host is the only place where its game changes:
//
//   - Every change is applied under the host's lock and committed (Game's
//     Commit) before anyone hears of it. A change the rules refuse, or whose
//     commit fails, leaves the game as it was (Game's Mark).
//   - The clock (game.Clock, the game's own) is pressed by the game's
//     actions; the host starts and stops it: in a game played in person it
//     stands still while no player has the game open and while a step waits
//     to be saved; in a game on the server's clock (Config.Always, the API)
//     it runs regardless. One flag timer ends the game when the mover's
//     time runs out.
//   - A seat played by the server (an Automaton: the engine, a bot) plays
//     when it is its turn, in a goroutine the host starts, thinking off the
//     lock; each of its steps is applied through its Turn, only while the
//     turn is still the one it thinks about.
//   - A step nobody can repeat (an automaton's, a flag fall) whose commit
//     the database refuses is kept and saved later, SaveRetryFirst, then
//     twice as long each time up to SaveRetryMax; meanwhile every
//     subscriber is told in words, no new step starts and, in a game played
//     in person, the clock stands still (the server is slow, not the
//     player). A person's or a remote client's own change is never retried:
//     it fails (ErrUnsaved) and they may try again.
//   - After every change each subscriber is sent what its viewer may see
//     (Game's View), and nothing when that did not change for it: a change
//     a viewer may not know of must not reach it, or its arrival would tell
//     it when the opponent acted.
//
// A Registry keeps the hosts by game ID: it loads a game when its first
// subscriber comes, with the loader of its kind (Registry.Kind: each
// package that hosts a kind of game registers one for the prefix of its
// IDs), and closes its host when the last player leaves, except for hosts
// it keeps (games on the server's clock), which live until their game
// ends.
//
// On a site of several servers on one database, any server may hold a host
// of the same game. Such a game is Shared: each commit makes a new revision
// of its record, and a commit made from an older revision fails with
// ErrConflict, so of two servers racing on one game exactly one wins; the
// loser reads the game again and tells its subscribers. A server hears of
// the others' commits on the site's change feed (package changefeed) and
// passes them on (Registry.Changed, Registry.Resync after a cut in the
// feed); a host that reads a newer revision follows it as any change: an
// automaton's turn it overtook is withdrawn, a step waiting to be saved is
// dropped, everyone is told. A change the rules refuse on a copy whose
// record has moved on reads it again and reports ErrConflict too (the
// caller may make it again). The clock of a game played in person counts
// the players of every server when the host has a Presence
// (Config.Presence, presence.go): a host with players here runs it, a
// host without follows the record (another server's player may be at the
// board), and the clock stops, as a commit every server follows, only when
// nobody has the game open anywhere; a killed server's presence expires,
// and the sweep of a server still holding the game stops its clock then.
// Each server holding the game runs its automata's turns, but on a site
// their thinking is one job in the database for all of them (package
// enginejobs: the same key for the same turn), whose answer each applies;
// the revisions keep the moves to one a turn.
//
// # Goroutines
//
//   - Callers' goroutines (a socket's reader, an HTTP handler) call Act,
//     Read, Join, Leave and Send.
//   - One goroutine per automaton's turn, started by the host under its
//     lock, runs Automaton.Play; it takes the lock only inside its Turn's
//     methods, never while it thinks. The turn is withdrawn (its context
//     cancelled) when the game changes under it in any other way or the
//     host closes; the host waits for nothing.
//   - Timers (the flag, a pending save's retry) run their function in a
//     goroutine of their own, which takes the host's lock and looks again.
//   - The change feed's listener calls Registry.Changed and Resync from its
//     goroutine, and the server's alive marker Registry.SweepPresence from
//     its own; they take the registry's lock only to find the hosts, then
//     each host's lock in turn.
//
// # Lock order
//
// A host's lock, then the registry's; never the other way. A host holds its
// lock across its commits, which can wait seconds on a busy or full disk,
// so whoever holds the registry's lock must never wait for a host's: the
// registry releases its own before it takes a host's, and a game being
// loaded or closed is guarded by its gate (a channel), not by the
// registry's lock. Nothing is called under a host's lock that takes another
// host's.
package live
