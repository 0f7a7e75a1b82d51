package rules

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestApplyErrors: bad events are errors that name the field and leave the game unchanged.
func TestApplyErrors(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		field   string
		problem string
		is      error
	}{
		{"unknown card with a suggestion", played("south", "C1", "Ember Flatt"), "card", `did you mean Ember Flat?`, models.ErrUnknownCard},
		{"a minion played as a site", played("south", "C1", "Scout"), "card", "Scout is a minion, not a site", nil},
		{"a site summoned as a unit", summon("south", "C1", "Ember Flat"), "card", "not summoned", nil},
		{"a card that is not at the cell", cellEvent("card_tapped", "C2", "Test Seer"), "cell", "no Test Seer at C2", nil},
		{"a site named as a unit", cellEvent("card_removed", "C2", "Ember Flat"), "cell", "no Ember Flat at C2", nil},
		{"a site moved as a unit", moved("Ember Flat", "C1", "C2"), "card", "is the site at C1", nil},
		{"a site destroyed on the void", `{"type":"site_destroyed","cell":"E2"}`, "cell", "E2 is void", nil},
		{"missing player", `{"type":"damage","amount":2}`, "player", "missing", nil},
		{"missing amount", `{"type":"damage","player":"south"}`, "amount", "needs an amount", nil},
		{"missing cell", `{"type":"site_played","player":"south","card":"Ember Flat"}`, "cell", "missing", nil},
		{"a second game_start", gameStart, "type", "second game_start", nil},
		{"going under the void", cellEvent("unit_under", "C4", "Test Warden"), "cell", "C4 is void", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, _ := play(t, testCatalog(), gameStart, southTurn, played("south", "C1", "Ember Flat"))
			before := g.State()
			ws, err := applyLine(g, tc.line)
			if err == nil {
				t.Fatalf("no error; warnings %v", codes(ws))
			}
			if !errors.Is(err, ErrInvalidEvent) {
				t.Errorf("%v does not wrap ErrInvalidEvent", err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("%v does not wrap %v", err, tc.is)
			}
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Errorf("error %v: want field %q", err, tc.field)
			}
			if !strings.Contains(err.Error(), tc.problem) {
				t.Errorf("error %q does not say %q", err, tc.problem)
			}
			if after := g.State(); !reflect.DeepEqual(before, after) || len(g.Events()) != 3 {
				t.Errorf("a bad event changed the game")
			}
		})
	}
}

func TestEventsBeforeGameStart(t *testing.T) {
	g := NewGame(testCatalog())
	if _, err := applyLine(g, southTurn); !errors.Is(err, ErrInvalidEvent) {
		t.Fatalf("turn_start before game_start: %v", err)
	}
	for _, line := range []string{
		`{"type":"game_start","south":{"avatar":"Scout"},"north":{"avatar":"Test Warden"}}`,
		`{"type":"game_start","south":{"avatar":"Test Seer"},"north":{"avatar":"Nobody"}}`,
		`{"type":"game_start","south":{"avatar":"Test Seer"}}`,
		`{"type":"game_start","south":{"avatar":"Test Seer","life":-1},"north":{"avatar":"Test Warden"}}`,
	} {
		if _, err := applyLine(g, line); !errors.Is(err, ErrInvalidEvent) {
			t.Errorf("%s: %v", line, err)
		}
	}
	if _, err := applyLine(g, `{"type":"game_start","south":{"avatar":"Test Seer","cell":"B2","life":25},"north":{"avatar":"Test Warden"}}`); err != nil {
		t.Fatal(err)
	}
	st := g.State()
	// The seat's life 25 is above the printed 20, the maximum ("which cannot be exceeded").
	if st.Players["south"].Life != 20 || len(st.Realm.Cells["B2"].Units) != 1 || st.Realm.Cells["C4"].Units[0].Card != "Test Warden" {
		t.Errorf("seats not applied: %+v", st)
	}
}

// TestParseEvents checks that errors name the line and the field.
func TestParseEvents(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"bad cell", gameStart + "\n" + `{"type":"site_played","player":"south","cell":"F9","card":"x"}`, `line 2: field "cell": "F9" is not a realm cell (A1–E4)`},
		{"negative amount", "\n# a comment\n" + `{"type":"damage","player":"north","amount":-3}`, `line 3: field "amount": -3 is negative`},
		{"unknown type", `{"type":"explode"}`, `line 1: field "type": unknown event type "explode"`},
		{"bad JSON", `{"type":"damage",,}`, `line 1: invalid event: bad JSON at column`},
		{"not an object", `[1,2]`, `line 1: invalid event: want a JSON object`},
		{"bad player", `{"type":"turn_start","player":"east"}`, `line 1: field "player": "east" is not a player`},
		{"amount not a number", `{"type":"damage","player":"north","amount":"3"}`, `line 1: field "amount": "3" is not a number`},
		{"bad seat field", `{"type":"game_start","south":{"avatar":"A","life":"x"},"north":{"avatar":"B"}}`, `line 1: field "south.life": "x" is not a number`},
		{"seat not an object", `{"type":"game_start","south":"Sorcerer","north":{"avatar":"B"}}`, `line 1: field "south": want an object`},
		{"trailing text", `{"type":"turn_start","player":"south"} oops`, `line 1: invalid event: unexpected text`},
		{"null amount", `{"type":"life_gain","player":"north","amount":null}`, `line 1: field "amount": missing: life_gain needs an amount`},
		{"missing amount", gameStart + "\n" + `{"type":"mana_spent","player":"south"}`, `line 2: field "amount": missing: mana_spent needs an amount`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseEvents(strings.NewReader(tc.input))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want prefix %q", err, tc.want)
			}
			if !errors.Is(err, ErrInvalidEvent) {
				t.Errorf("%v does not wrap ErrInvalidEvent", err)
			}
		})
	}
	if evs, err := ParseEvents(strings.NewReader(`{"type":"turn_start","player":"south","cell":null,"first":null}`)); err != nil || evs[0].Cell != nil {
		t.Errorf("null fields: %v %+v", err, evs)
	}
	// Fields that are not event fields are skipped, and the reader lists them.
	r := NewEventReader(strings.NewReader(`{"type":"game_start","south":{"avatar":"Test Seer","deck":"x"},"north":{"avatar":"Test Warden"},"note":"opening"}` + "\n" + southTurn))
	if ev, err := r.Next(); err != nil || ev.South.Avatar != "Test Seer" || !reflect.DeepEqual(r.Ignored(), []string{"note", "south.deck"}) {
		t.Errorf("extra fields: %v %+v, ignored %v", err, ev, r.Ignored())
	}
	if _, err := r.Next(); err != nil || r.Ignored() != nil {
		t.Errorf("a plain event after extra fields: %v, ignored %v", err, r.Ignored())
	}
	// An amount of 0 is an event that changes nothing ("0 power minions still
	// strike (for 0 damage)", clarifications), not a missing amount.
	if evs, err := ParseEvents(strings.NewReader(`{"type":"damage","player":"north","amount":0}`)); err != nil || evs[0].Amount != 0 {
		t.Errorf("amount 0: %v %+v", err, evs)
	}
	evs, err := ParseEvents(strings.NewReader("\ufeff" + gameStart + "  # comment\n\n" + southTurn + "\n" + moved("Scout", "c1", "C2") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 3 || evs[1].Player != models.South || evs[2].From.String() != "C1" || evs[0].South.Avatar != "Test Seer" {
		t.Errorf("events %+v", evs)
	}
}
