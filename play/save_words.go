package play

// What the person is told when the server cannot save (issue 35), in
// chess and in Reconnaissance Chess. A step that is not the person's to
// repeat (the engine's move, a bot's sense or move, a flag fall) is kept
// by the game's host and saved later (live.Host), the clock standing still
// meanwhile: the engine or the bot has acted and only the server is slow,
// so charging it would hand the person a win on time for the server's
// fault. The person's own actions (move, sense, resign, note, take-back,
// draw, rematch) fail with the words below and change nothing, so the
// person can simply try again. The words are the protocol's
// (web/PROTOCOL.md).
const (
	// Notices to every tab while the server cannot save, and once it can.
	EngineMoveUnsavedNotice = "The server cannot save right now; Knightwatch's move will be played as soon as it can."
	ReconBotUnsavedNotice   = "The server cannot save right now; your opponent's turn will go on as soon as it can."
	FlagUnsavedNotice       = "The server cannot save right now; the end of the game on time will be recorded as soon as it can."
	SavedAgainNotice        = "The server can save again; the game goes on."

	// Errors for the person's own actions, which are not retried.
	MoveUnsavedText     = "The server cannot save right now; your move was not played. Try again in a moment."
	SenseUnsavedText    = "The server cannot save right now; your sense was not made. Try again in a moment."
	MarkerUnsavedText   = "The server cannot save right now; your note was not kept. Try again in a moment."
	ResignUnsavedText   = "The server cannot save right now; your resignation was not recorded. Try again in a moment."
	TakebackUnsavedText = "The server cannot save right now; nothing was taken back. Try again in a moment."
	RematchUnsavedText  = "The server cannot save right now; the rematch was not created. Try again in a moment."
	DrawUnsavedText     = "The engine accepts the draw, but the server cannot save right now; offer the draw again in a moment."
)

// ConflictWords is what a player is told when their action was made on a
// game another server had just moved on (live.ErrConflict): the game as it
// now stands comes with it.
const ConflictWords = "the game moved on elsewhere meanwhile; here it is as it stands"
