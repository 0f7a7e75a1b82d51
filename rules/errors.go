package rules

import (
	"errors"
	"fmt"
)

// ErrInvalidEvent is wrapped by every error that Game.Apply and ParseEvents
// return for bad input: a missing or malformed field, an unknown card or event
// type, a negative amount, a card that is not where the event says. Rule
// breaches are not errors; they are warnings.
var ErrInvalidEvent = errors.New("invalid event")

// FieldError says which field of an event is wrong and why. It wraps
// ErrInvalidEvent and, when there is one, the underlying cause (such as
// models.ErrUnknownCard or models.ErrBadCell).
type FieldError struct {
	// Field is the JSON name of the field, such as "cell" or "south.avatar".
	Field string
	// Problem says what is wrong, such as `"F9" is not a realm cell (A1–E4)`.
	Problem string
	// Cause is the underlying error, or nil.
	Cause error
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("field %q: %s", e.Field, e.Problem)
}

// Unwrap gives ErrInvalidEvent and the cause, so errors.Is matches both.
func (e *FieldError) Unwrap() []error {
	if e.Cause == nil {
		return []error{ErrInvalidEvent}
	}
	return []error{ErrInvalidEvent, e.Cause}
}

func fieldErr(field string, cause error, format string, args ...any) error {
	return &FieldError{Field: field, Problem: fmt.Sprintf(format, args...), Cause: cause}
}

// LineError places an error on a line of an events file.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap gives the error on the line.
func (e *LineError) Unwrap() error { return e.Err }
