// Package attack holds the attack test (issue 35): hostile clients against
// the real knightwatch binary, started as serve runs in production (on a
// loopback port, with a temporary database, under `ulimit -n 1024`), each
// case asserting what the server does now:
//
//   - one browser opening 1,010 sockets to one game: the per-game and
//     per-browser caps refuse the rest with 429 and a sentence, and other
//     visitors are served throughout; and a client keeping every
//     connection it opens (refused upgrades, kept-alive page loads): the
//     per-address cap hangs up on all but 128 of them
//     (attack_sockets_test.go);
//   - request bodies trickled in a byte every 2 seconds: cut off by the
//     read timeout, nothing created (attack_bodies_test.go);
//   - a flood of new games, from the form and by rematch over the socket:
//     refused beyond the per-browser limits with 429 or an error in words
//     (attack_creation_test.go);
//   - a flood of messages on one socket: one rate_limited error, then
//     close 1008 (attack_messages_test.go);
//   - 32 sockets keeping full-strength searches queued, or offering draws
//     in a loop: another player's level-1 reply is still served, ahead of
//     the flood's queue and, under the searches, without waiting for one
//     of them to end (attack_engine_test.go); how long it takes is
//     measured by bench/starvation, not asserted here.
//
// And issue 41's, each failing on the code before its fix:
//
//   - someone guessing a user's password from another address while the
//     user's bot calls: every one of the user's calls answered; an
//     address guessing over many names held; a password over 72 bytes
//     refused; the session cookie Secure exactly over HTTPS, and a copy
//     taken before a sign-out dead after it (attack_logins_test.go);
//   - 300 new-game forms without a cookie: limited per address
//     (attack_creation_test.go);
//   - 130 invitations at once: exactly 100 games; opponent_move_results
//     silent about the turn in progress; null fields refused
//     (attack_api_test.go);
//   - 20 KB forms: 413 in words; a note naming one's own piece refused
//     (attack_bodies_test.go);
//   - kill -9 while three players think (API, chess, Reconnaissance
//     Chess): each charged its thinking up to the crash
//     (attack_kill_test.go).
//
// The tests build the binary once (TestMain; KNIGHTWATCH_ATTACK_BIN names
// another one to attack instead) and start it with e2e's server harness.
// The package's own code is the engine floods and a minimal browser
// (flood.go), which bench/starvation uses as well.
package attack
