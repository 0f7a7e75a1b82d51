package rules

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// EventReader reads a game's events from JSON Lines: one JSON object per line,
// each with a "type". Blank lines and lines starting with '#' are skipped, and
// a '#' comment may follow the object on its line. Fields that are not event
// fields (a "note", a "source") are skipped and listed by Ignored, so a
// scenario written with extra detail still replays.
type EventReader struct {
	sc      *bufio.Scanner
	line    int
	ignored []string
}

// Ignored lists the fields of the last event read that are not event fields
// and were skipped, such as "note" or "south.deck".
func (r *EventReader) Ignored() []string { return append([]string(nil), r.ignored...) }

// NewEventReader reads events from r.
func NewEventReader(r io.Reader) *EventReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	return &EventReader{sc: sc}
}

// Line is the line number of the last event read (counting from 1).
func (r *EventReader) Line() int { return r.line }

// Next reads the next event. It returns io.EOF after the last one; any other
// error is a *LineError wrapping ErrInvalidEvent (or the reader's error).
func (r *EventReader) Next() (models.Event, error) {
	for r.sc.Scan() {
		r.line++
		text := bytes.TrimSpace(r.sc.Bytes())
		if r.line == 1 {
			text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
		}
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		ev, ignored, err := decodeEvent(text)
		r.ignored = ignored
		if err != nil {
			return models.Event{}, &LineError{Line: r.line, Err: err}
		}
		return ev, nil
	}
	if err := r.sc.Err(); err != nil {
		return models.Event{}, &LineError{Line: r.line + 1, Err: err}
	}
	return models.Event{}, io.EOF
}

// ParseEvents reads every event of r (see EventReader). Errors name the line and
// the field: `line 7: field "cell": "F9" is not a realm cell (A1–E4)`.
func ParseEvents(r io.Reader) ([]models.Event, error) {
	er := NewEventReader(r)
	var out []models.Event
	for {
		ev, err := er.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
}

// eventFields lists the JSON fields an event may have.
func eventFields() []string {
	return []string{"type", "player", "cell", "card", "from", "to", "amount", "south", "north", "first", "frame", "time", "unnamed"}
}

// DecodeEvent reads one event from one JSON object, field by field, so that an
// error names the field at fault. It checks the syntax of each field; Apply
// checks what the event means. Fields that are not event fields are skipped
// (EventReader.Ignored lists them).
func DecodeEvent(data []byte) (models.Event, error) {
	ev, _, err := decodeEvent(data)
	return ev, err
}

// decodeEvent is DecodeEvent that also lists the fields it skipped.
func decodeEvent(data []byte) (ev models.Event, ignored []string, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return ev, nil, jsonProblem(err)
	}
	if raw == nil {
		return ev, nil, fmt.Errorf("%w: want a JSON object with a \"type\"", ErrInvalidEvent)
	}
	if rest := strings.TrimSpace(string(data[dec.InputOffset():])); rest != "" && !strings.HasPrefix(rest, "#") {
		return ev, nil, fmt.Errorf("%w: unexpected text after the JSON object: %.20q", ErrInvalidEvent, rest)
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		known := false
		for _, f := range eventFields() {
			known = known || f == k
		}
		if !known {
			ignored = append(ignored, k)
		}
	}
	typ, ok := raw["type"]
	if !ok {
		return ev, ignored, fieldErr("type", nil, "missing: every event has a type (%s)", typeList())
	}
	var s string
	if err := json.Unmarshal(typ, &s); err != nil {
		return ev, ignored, fieldErr("type", err, "%s is not a string", typ)
	}
	ev.Type = models.EventType(s)
	if !knownType(ev.Type) {
		return ev, ignored, fieldErr("type", nil, "unknown event type %q (known: %s)", s, typeList())
	}
	if needsAmount(ev.Type) {
		if v, ok := raw["amount"]; !ok || string(v) == "null" {
			return ev, ignored, fieldErr("amount", nil, "missing: %s needs an amount (0 or more)", ev.Type)
		}
	}
	for _, k := range keys {
		v := raw[k]
		if string(v) == "null" {
			continue // a null field is an absent one
		}
		var err error
		switch k {
		case "player":
			ev.Player, err = decodePlayer(k, v)
		case "first":
			ev.First, err = decodePlayer(k, v)
		case "cell":
			ev.Cell, err = decodeCell(k, v)
		case "from":
			ev.From, err = decodeCell(k, v)
		case "to":
			ev.To, err = decodeCell(k, v)
		case "card":
			err = decodeString(k, v, &ev.Card)
		case "unnamed":
			err = decodeBool(k, v, &ev.Unnamed)
		case "amount":
			var n int
			if n, err = decodeInt(k, v); err == nil && n < 0 {
				err = fieldErr(k, nil, "%d is negative", n)
			}
			ev.Amount = n
		case "frame":
			var n int
			if n, err = decodeInt(k, v); err == nil {
				ev.Frame = &n
			}
		case "time":
			var t float64
			if len(v) == 0 || v[0] == '"' || json.Unmarshal(v, &t) != nil {
				err = fieldErr(k, nil, "%s is not a number", v)
			}
			ev.Time = &t
		case "south", "north":
			var seat *models.Seat
			var skipped []string
			seat, skipped, err = decodeSeat(k, v)
			ignored = append(ignored, skipped...)
			if k == "south" {
				ev.South = seat
			} else {
				ev.North = seat
			}
		}
		if err != nil {
			return models.Event{}, ignored, err
		}
	}
	return ev, ignored, nil
}

// needsAmount reports whether events of type t carry an amount of their own.
func needsAmount(t models.EventType) bool {
	switch t {
	case models.Damage, models.LifeLoss, models.LifeGain, models.ManaSpent:
		return true
	}
	return false
}

func knownType(t models.EventType) bool {
	for _, k := range models.RulesEventTypes() {
		if k == t {
			return true
		}
	}
	return false
}

func typeList() string {
	var s []string
	for _, t := range models.RulesEventTypes() {
		s = append(s, string(t))
	}
	return strings.Join(s, ", ")
}

func jsonProblem(err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("%w: bad JSON at column %d: %v", ErrInvalidEvent, syn.Offset, err)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fmt.Errorf("%w: want a JSON object with a \"type\", not a JSON %s", ErrInvalidEvent, typ.Value)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: bad JSON: the object is cut short", ErrInvalidEvent)
	}
	return fmt.Errorf("%w: bad JSON: %v", ErrInvalidEvent, err)
}

func decodeString(field string, v json.RawMessage, dst *string) error {
	if err := json.Unmarshal(v, dst); err != nil {
		return fieldErr(field, nil, "%s is not a string", v)
	}
	return nil
}

func decodeBool(field string, v json.RawMessage, dst *bool) error {
	if err := json.Unmarshal(v, dst); err != nil {
		return fieldErr(field, nil, "%s is not true or false", v)
	}
	return nil
}

func decodePlayer(field string, v json.RawMessage) (models.Player, error) {
	if string(v) == "null" {
		return models.NoPlayer, nil
	}
	var s string
	if err := decodeString(field, v, &s); err != nil {
		return models.NoPlayer, err
	}
	p, err := models.ParsePlayer(strings.ToLower(strings.TrimSpace(s)))
	if err != nil {
		return models.NoPlayer, fieldErr(field, nil, "%q is not a player (want \"south\" or \"north\")", s)
	}
	return p, nil
}

func decodeCell(field string, v json.RawMessage) (*models.Cell, error) {
	var s string
	if err := decodeString(field, v, &s); err != nil {
		return nil, err
	}
	c, err := models.ParseCell(s)
	if err != nil {
		return nil, fieldErr(field, models.ErrBadCell, "%q is not a realm cell (A1–E4)", s)
	}
	return &c, nil
}

func decodeInt(field string, v json.RawMessage) (int, error) {
	var n json.Number
	if len(v) == 0 || v[0] == '"' || json.Unmarshal(v, &n) != nil {
		return 0, fieldErr(field, nil, "%s is not a number", v)
	}
	i, err := n.Int64()
	if err != nil {
		return 0, fieldErr(field, nil, "%s is not a whole number", v)
	}
	return int(i), nil
}

func decodeSeat(field string, v json.RawMessage) (*models.Seat, []string, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(v, &raw); err != nil || raw == nil {
		return nil, nil, fieldErr(field, nil, "want an object such as {\"avatar\":\"Sorcerer\"}")
	}
	seat := &models.Seat{}
	var ignored []string
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := raw[k]
		if string(v) == "null" {
			continue
		}
		switch k {
		case "avatar":
			if err := decodeString(field+".avatar", v, &seat.Avatar); err != nil {
				return nil, ignored, err
			}
		case "cell":
			var s string
			if err := decodeString(field+".cell", v, &s); err != nil {
				return nil, ignored, err
			}
			c, err := models.ParseCell(s)
			if err != nil {
				return nil, ignored, fieldErr(field+".cell", models.ErrBadCell, "%q is not a realm cell (A1–E4)", s)
			}
			seat.Cell = &c
		case "unnamed":
			if err := decodeBool(field+".unnamed", v, &seat.Unnamed); err != nil {
				return nil, ignored, err
			}
		case "life":
			n, err := decodeInt(field+".life", v)
			if err != nil {
				return nil, ignored, err
			}
			seat.Life = &n
		default:
			ignored = append(ignored, field+"."+k)
		}
	}
	return seat, ignored, nil
}
