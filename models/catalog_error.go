package models

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// CatalogError reports a card list that cannot be read: which file, where in
// it, which card, and what is wrong. Use errors.As to get one from the error
// that LoadCatalog or ParseCards returns.
type CatalogError struct {
	// File is the file that was read (empty for ParseCards on bytes in memory).
	File string
	// Line and Column locate the problem, both counted from 1 (Column in
	// characters). They are 0 when the problem has no place in the file.
	Line, Column int
	// Offset is the byte offset of the problem, counted from 0.
	Offset int64
	// Card is the position of the card in the list, counted from 1, or 0 when
	// the problem is not about one card.
	Card int
	// Name is the card's name when it could be read.
	Name string
	// Err says what is wrong. It wraps the *json.SyntaxError or
	// *json.UnmarshalTypeError behind the problem, when there is one.
	Err error
}

func (e *CatalogError) Error() string {
	var b bytes.Buffer
	switch {
	case e.File != "" && e.Line > 0:
		fmt.Fprintf(&b, "%s:%d:%d: ", e.File, e.Line, e.Column)
	case e.File != "":
		fmt.Fprintf(&b, "%s: ", e.File)
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	}
	if e.Card > 0 {
		fmt.Fprintf(&b, "card %d", e.Card)
		if e.Name != "" {
			fmt.Fprintf(&b, " %q", e.Name)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *CatalogError) Unwrap() error { return e.Err }

// fieldError explains a JSON value of the wrong type in plain words while
// keeping the json error for errors.As.
type fieldError struct {
	key string // the JSON key the problem is about, when known
	msg string
	err error
}

func (e *fieldError) Error() string { return e.msg }
func (e *fieldError) Unwrap() error { return e.err }

// lineColumn converts a byte offset in data into a line and a column, both
// counted from 1; the column counts characters, not bytes.
func lineColumn(data []byte, offset int64) (line, col int) {
	if offset < 0 {
		offset = 0
	}
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	head := data[:offset]
	line = 1 + bytes.Count(head, []byte{'\n'})
	start := bytes.LastIndexByte(head, '\n') + 1
	return line, 1 + utf8.RuneCount(head[start:])
}

// syntaxError finds the exact place of a JSON syntax error in the whole file.
// The streaming decoder's offsets are not reliable after an error, so the
// file is checked again in one piece.
func syntaxError(data []byte, fallback error, fallbackOffset int64) (int64, error) {
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return syntaxOffset(data, se), se
	}
	return fallbackOffset, fallback
}

// syntaxOffset gives the offset of the character a syntax error is about:
// the json package reports the offset just past it.
func syntaxOffset(data []byte, se *json.SyntaxError) int64 {
	off := se.Offset
	if off > 0 && off <= int64(len(data)) && !strings.HasPrefix(se.Error(), "unexpected end") {
		off--
	}
	return off
}

// describeCardError turns an error from decoding one card (whose JSON text is
// raw) into a message and an offset within raw.
func describeCardError(raw []byte, err error) (int64, error) {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "card"
		}
		off := te.Offset
		if key := lastSegment(field); key != "" {
			// Point at the field's name rather than past its value.
			limit := off
			if limit <= 0 || limit > int64(len(raw)) {
				limit = int64(len(raw))
			}
			if i := bytes.LastIndex(raw[:limit], []byte(`"`+key+`"`)); i >= 0 {
				off = int64(i)
			}
		}
		return off, &fieldError{
			msg: fmt.Sprintf("%s is %s, want %s", field, jsonValueName(te.Value), goTypeName(te.Type)),
			err: err,
		}
	}
	return 0, err
}

func lastSegment(field string) string {
	if i := bytes.LastIndexByte([]byte(field), '.'); i >= 0 {
		return field[i+1:]
	}
	return field
}

// jsonValueName names the kind of JSON value the json package reports
// ("string", "number 3.5", "array"…) with an article.
func jsonValueName(v string) string {
	switch {
	case v == "array", v == "object":
		return "an " + v
	case v == "":
		return "a value of the wrong kind"
	case len(v) > 6 && v[:6] == "number":
		return "the number" + v[6:]
	}
	return "a " + v
}

// goTypeName says in words which JSON value a Go type wants.
func goTypeName(t reflect.Type) string {
	if t == nil {
		return "another kind of value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case reflect.TypeFor[textList]():
		return "a string or a list of strings"
	case reflect.TypeFor[rawPrinting]():
		return "a slug string or an object with a slug"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}
