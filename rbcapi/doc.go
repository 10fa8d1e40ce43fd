// Package rbcapi is Knightwatch's reconchess HTTP API: the reference's
// remote client (reconchess's RemoteGame, rc-connect, rc-register) talks
// to its routes exactly as it talks to the competition server. Section
// 4.11 of the reconchess documentation is the contract; rbcapi/API.md says
// where Knightwatch fills its gaps.
//
// It holds the accounts (registration, Basic auth with its limits on
// failed logins), the invitations, ranked play (the matchmaker, ratings
// by bot version) and the API's kind of game: a live.Game on the server's
// clock (apiGame), hosted in the registry it is given under the IDs
// "api_N", whose built-in seat is one of play's bots. Its JSON handlers
// are its own (Handler); the web server mounts them, and its Bots page
// signs people in, invites and plays through the API (Login, Register,
// InviteInPerson, AcceptInPerson, and a Seat for the board page's
// socket, whose transport is web's).
//
// # Goroutines and locks
//
// The hosts' own (live's package comment): every change of a game goes
// through its host (table.act), under the host's lock. The API's own lock
// (authMu) guards the login limiters, the verified passwords and the
// users' last calls only, and is never held across a host's lock or the
// database. One goroutine of its own runs the matchmaker's rounds until
// Close.
package rbcapi
