package rules

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// Cards the camera could not name take part in the game: what needs only
// the cell applies, what needs the card's text does not.
func TestUnnamedCards(t *testing.T) {
	const unnamedStart = `{"type":"game_start","south":{"avatar":"Test Seer"},"north":{"unnamed":true},"first":"south"}`
	tests := []struct {
		name  string
		lines []string
		want  []string // warning codes, in order
		check func(t *testing.T, st models.GameState)
	}{
		{
			name:  "an unnamed Avatar starts at the default life",
			lines: []string{unnamedStart},
			want:  []string{},
			check: func(t *testing.T, st models.GameState) {
				n := st.Players["north"]
				if n.Life != 20 || n.Avatar != "" {
					t.Errorf("north %+v, want life 20 and no Avatar name", n)
				}
				if u := st.Realm.Cells["C4"].Units; len(u) != 1 || !u[0].Unnamed || !u[0].Avatar || u[0].Owner != models.North {
					t.Errorf("C4 %+v, want north's unnamed Avatar", u)
				}
			},
		},
		{
			name: "an unnamed site gives one mana and no threshold, and joins no body of water",
			lines: []string{unnamedStart,
				`{"type":"turn_start","player":"south"}`,
				`{"type":"site_played","player":"south","cell":"C1","unnamed":true}`,
				`{"type":"card_tapped","player":"south","cell":"C1","card":"Test Seer"}`,
			},
			want: []string{},
			check: func(t *testing.T, st models.GameState) {
				s := st.Players["south"]
				if s.Mana.Total != 1 || s.Affinity != (models.Thresholds{}) || s.UnnamedSites != 1 {
					t.Errorf("south %+v, want 1 mana, no affinity, one unnamed site", s)
				}
				if c := st.Realm.Cells["C1"].Site; c == nil || !c.Unnamed || c.Card != "" || c.Controller != models.South {
					t.Errorf("C1 site %+v, want south's unnamed site", c)
				}
				if len(st.Realm.BodiesOfWater)+len(st.Realm.SpansOfLand) != 0 {
					t.Errorf("water %v land %v, want the unnamed site in neither", st.Realm.BodiesOfWater, st.Realm.SpansOfLand)
				}
			},
		},
		{
			name: "placement needs only the cell: an unnamed site away from its player's sites is warned",
			lines: []string{unnamedStart,
				`{"type":"turn_start","player":"south"}`,
				`{"type":"site_played","player":"south","cell":"C1","card":"Ember Flat"}`,
				`{"type":"turn_end","player":"south"}`,
				`{"type":"turn_start","player":"north"}`,
				`{"type":"turn_end","player":"north"}`,
				`{"type":"turn_start","player":"south"}`,
				`{"type":"site_played","player":"south","cell":"E3","unnamed":true}`,
			},
			want: []string{string(SiteNotAdjacent)},
		},
		{
			name: "a threshold short while an unnamed site may provide it is not warned",
			lines: []string{gameStart,
				`{"type":"turn_start","player":"south"}`,
				`{"type":"site_played","player":"south","cell":"C1","unnamed":true}`,
				`{"type":"spell_cast","player":"south","card":"Spark"}`,
			},
			want: []string{},
		},
		{
			name: "with every site named, the same threshold is warned",
			lines: []string{gameStart,
				`{"type":"turn_start","player":"south"}`,
				`{"type":"site_played","player":"south","cell":"C1","card":"Tide Pool"}`,
				`{"type":"spell_cast","player":"south","card":"Spark"}`,
			},
			want: []string{string(ThresholdUnmet)},
		},
		{
			name: "an unnamed unit: no summoning sickness, range or void rule, and no cost paid",
			lines: []string{gameStart,
				`{"type":"turn_start","player":"south"}`,
				`{"type":"site_played","player":"south","cell":"C1","card":"Ember Flat"}`,
				`{"type":"unit_summoned","player":"south","cell":"C1","unnamed":true}`,
				`{"type":"card_tapped","player":"south","cell":"C1","unnamed":true}`,
				`{"type":"unit_moved","player":"south","from":"C1","to":"E3","unnamed":true}`,
				`{"type":"card_removed","player":"south","cell":"E3","unnamed":true}`,
			},
			want: []string{},
			check: func(t *testing.T, st models.GameState) {
				if s := st.Players["south"]; s.Mana.Available != 1 {
					t.Errorf("south mana %+v, want the site's 1 still available", s.Mana)
				}
				if _, ok := st.Realm.Cells["E3"]; ok {
					t.Errorf("E3 %+v, want empty after the removal", st.Realm.Cells["E3"])
				}
			},
		},
		{
			name: "card_named: the site's threshold counts from then on, the Avatar takes its name",
			lines: []string{unnamedStart,
				`{"type":"turn_start","player":"south"}`,
				`{"type":"site_played","player":"south","cell":"C1","unnamed":true}`,
				`{"type":"card_named","player":"south","cell":"C1","card":"Ember Flat"}`,
				`{"type":"card_named","player":"north","cell":"C4","card":"Test Warden"}`,
				`{"type":"spell_cast","player":"south","card":"Spark"}`,
			},
			want: []string{},
			check: func(t *testing.T, st models.GameState) {
				if s := st.Players["south"]; s.Affinity.Fire != 1 || s.UnnamedSites != 0 {
					t.Errorf("south %+v, want fire affinity 1, no unnamed site", s)
				}
				if n := st.Players["north"]; n.Avatar != "Test Warden" {
					t.Errorf("north Avatar %q, want Test Warden", n.Avatar)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, all := play(t, testCatalog(), tc.lines...)
			if got := allCodes(all); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("warnings %v, want %v", got, tc.want)
			}
			if tc.check != nil {
				tc.check(t, g.State())
			}
		})
	}
}

func TestUnnamedEventErrors(t *testing.T) {
	tests := []struct {
		name, line, field string
	}{
		{"a card with no name must say it is unnamed", `{"type":"site_played","player":"south","cell":"C1"}`, "card"},
		{"an unnamed card has no name", `{"type":"site_played","player":"south","cell":"C1","card":"Ember Flat","unnamed":true}`, "unnamed"},
		{"card_named needs the name", `{"type":"card_named","player":"south","cell":"C1","unnamed":true}`, "card"},
		{"an unnamed Avatar has no name", `{"type":"game_start","south":{"avatar":"Test Seer","unnamed":true},"north":{"avatar":"Test Warden"}}`, "south.unnamed"},
		{"unnamed is true or false", `{"type":"site_played","player":"south","cell":"C1","unnamed":"yes"}`, "unnamed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGame(testCatalog())
			_, err := applyLine(g, tc.line)
			if !errors.Is(err, ErrInvalidEvent) || !strings.Contains(err.Error(), `"`+tc.field+`"`) {
				t.Errorf("error %v, want one about field %q", err, tc.field)
			}
		})
	}
	// card_named with no unnamed card at the cell is refused.
	g, _ := play(t, testCatalog(), gameStart)
	if _, err := applyLine(g, `{"type":"card_named","player":"south","cell":"B2","card":"Scout"}`); !errors.Is(err, ErrInvalidEvent) {
		t.Errorf("card_named on an empty cell: %v, want ErrInvalidEvent", err)
	}
}

// The text of a state says which cards are unnamed.
func TestUnnamedText(t *testing.T) {
	g, _ := play(t, testCatalog(), `{"type":"game_start","south":{"avatar":"Test Seer"},"north":{"unnamed":true}}`,
		`{"type":"site_played","player":"north","cell":"C4","unnamed":true}`)
	evs := g.Events()
	var b strings.Builder
	if err := WriteText(&b, evs[len(evs)-1], g.State()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#1 site_played north C4 (unnamed)", "north (unnamed Avatar): life 20, mana 1/1, affinity none + 1 unnamed site(s)",
		"C4 (unnamed site) (north): (unnamed Avatar) (north, tapped)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}
