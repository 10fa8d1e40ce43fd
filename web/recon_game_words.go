package web

// Saving a Reconnaissance Chess game's own steps when the database
// refuses (issue 35): the bot's sense and move and a flag fall are kept by
// the game's host and saved later (live.Host), the clock standing still
// meanwhile; the person's own sense, move, resignation and notes fail with
// the words below and change nothing.

// Notices and errors of the Reconnaissance Chess room when it cannot save
// (the rest are retry.go's).
const (
	reconBotUnsavedNotice = "The server cannot save right now; your opponent's turn will go on as soon as it can."
	senseUnsavedText      = "The server cannot save right now; your sense was not made. Try again in a moment."
	markerUnsavedText     = "The server cannot save right now; your note was not kept. Try again in a moment."
)
