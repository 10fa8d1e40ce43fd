// Package enginejobs runs the engine's work of a site of several servers
// on one PostgreSQL database as jobs in that database, so that any
// process, on any machine, may do it: a server (`serve`, which works jobs
// in its own process by default) or a worker (`knightwatch worker`, jobs
// and nothing else). With SQLite there is one server, which searches in
// its own engine pool as it always has: nothing here is used.
//
// # What a job is
//
// A job is one search (an engine reply, a draw evaluation, one position
// of a post-game review) or one step of a Reconnaissance Chess bot's turn
// (its sense, or its move: BotStep). Its arguments say everything the work
// needs (the position, the repetition history, the request with the
// experience already read; the bot's name and seed and the game's record),
// so whichever process takes it needs nothing of the game but the engine
// and the bots. Its answer is written once, in the database, under the
// request's key (SearchRequest.Turn: the game and the revision of its
// record whose turn it is; a bot step's key: the game and its count of
// actions), and every server waiting for that key gets it there:
//
//   - Two servers holding the same game ask for the same key: River's
//     unique jobs make their requests one job. Each applies the answer
//     to its copy of the game; the game's revision lets exactly one of
//     the two commits through (package live), the other reads it.
//   - Exactly once is the app's: River delivers a job at least once (a
//     worker that seems dead loses its job to another, and may still
//     finish it). A worker writes the answer in one transaction with
//     River's completion of the job (JobCompleteTx) and a notification on
//     ResultsChannel; the answer's key is the table's primary key and a
//     second answer for it is dropped, so each key has exactly one answer,
//     the first.
//   - A worker killed with -9 keeps its job "running" until River's
//     rescuer notices, which takes up to a minute. The servers waiting do
//     not wait that long: a job still running Grace past its timeout is
//     asked for again as its next try (a new unique job under the same
//     key), which any live worker takes. The first answer wins.
//   - A turn withdrawn (the game moved on, its last player left) cancels
//     its job; another server still waiting for the same key finds it
//     cancelled and asks again.
//
// # Why River
//
// River (github.com/riverqueue/river) is a well-kept queue on PostgreSQL:
// it hands a job inserted to a waiting worker in about 2 ms (LISTEN/
// NOTIFY, FetchCooldown 1 ms), makes unique jobs, cancels running ones,
// and completes a job in the app's own transaction. Its SQLite driver
// polls (20-60 ms a job, measured in docs/scale.md), which would be a
// fifth of a level-1 reply's budget, on the one writer connection every
// move commits on: on SQLite the engine pool in the process stays.
//
// # Fairness across workers
//
// Each process's engine pool is fair between owners as it always was
// (package enginepool), for the jobs it has taken. Between processes:
// short requests (enginepool.Quick: levels 1 to 5, draw evaluations) go
// to their own queue, which a worker takes into every searcher it has,
// long ones to another, limited to its regular searchers, so that a
// flood of long searches never holds back a short one beyond one search;
// and a job's priority (River's 1 to 4, the lower first) is one more than
// the owner's jobs already queued or running, so that another owner's
// first request is taken before a flooder's later ones. Reviews run in a
// third queue, as the pool's background work, only when no live search
// needs the searcher.
//
// # Bot steps
//
// A bot's boards are its own state, grown turn by turn from what it was
// told. A worker keeps each bot it played with, by game and colour
// (botCache), and plays the game's next step with it when the record goes
// on from its last step: the move after its sense (told the sense's result
// first), or its next turn's sense after its move (whose result it was
// told at once, from the worker's copy of the game, as a server's bot is;
// the record must show that result). Otherwise (another worker played the
// last step, the worker restarted, the cache let it go) a new bot is fed
// the whole record, as a server restoring a game feeds it. Either way the
// bot is told exactly what a bot thinking on the server would have been,
// and the step runs in the worker's pool as its owner's work
// (enginepool.RunStep; the time the job queued is the bot's).
//
// The built-in seat of an API game spends its clock as a competitor does,
// on a site as on one server: its steps are clocked (BotStep.Clocked),
// thought on the bot cores of the process that takes them (enginepool's
// botcores.go; `worker --rbc-bot-cores`, as serve's) as long as the bot's
// clock allows. They have a queue of their own, which a process takes as
// many at once as it has bot cores, and a job's timeout is a quarter of the
// bot's clock and the rebuild (stepTimeout): a step thinking as its bot
// planned is not asked for again while it thinks; a killed worker's is then,
// so that the bot loses at most a quarter of its clock, not the game. Thinking on the opponent's turn
// (package play's ponder.go) is a server's alone: on a site no server holds
// a bot, and a worker holds one only for its steps.
package enginejobs
