package rbcapi

import "fmt"

// Error is a refused call: its HTTP status and what went wrong, in words
// a person can act on (the API answers {"error": Message}); nothing
// changed.
type Error struct {
	Status  int
	Message string
	// code is the page socket's protocol code, when it has a better one
	// than browserErr finds.
	code string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// calledOffMsg answers any action in a game called off before it started.
const calledOffMsg = "the game was called off: it did not start in time"

// errorf returns the refusal with status and the message format says.
func errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}
