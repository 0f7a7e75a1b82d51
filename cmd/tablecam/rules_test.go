package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
)

const sampleCatalog = "../../samples/catalog"

// runCmd runs tablecam with args and stdin and returns the exit code and output.
func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), env{args: args, stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut})
	return code, out.String(), errOut.String()
}

// decodeStates reads the JSON lines of "tablecam rules --json".
func decodeStates(t *testing.T, out string) []models.GameState {
	t.Helper()
	var states []models.GameState
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var st models.GameState
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&st); err != nil {
			t.Fatalf("line %d: %v\n%s", i+1, err, line)
		}
		states = append(states, st)
	}
	return states
}

// TestRulesWholeSampleGame replays the bundled whole game: many turns for both
// players, no rule warnings, and a death blow at the end.
func TestRulesWholeSampleGame(t *testing.T) {
	code, out, errOut := runCmd(t, "", "rules", "--json", "--catalog", sampleCatalog, "../../samples/games/whole-game.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	states := decodeStates(t, out)
	for i, st := range states {
		if st.Event != i {
			t.Fatalf("state %d has event %d", i, st.Event)
		}
		if len(st.Warnings) > 0 {
			t.Errorf("event %d: %+v", i, st.Warnings)
		}
	}
	last := states[len(states)-1]
	if last.Winner != models.North || !last.Players["south"].Defeated || last.Turn < 10 {
		t.Errorf("final state: winner %v, south %+v, turn %d", last.Winner, last.Players["south"], last.Turn)
	}
	// Somewhere before the end, south was at death's door but not yet defeated.
	door := false
	for _, st := range states {
		door = door || (st.Players["south"].DeathsDoor && !st.Players["south"].Defeated)
	}
	if !door {
		t.Errorf("south never stood at death's door before the death blow")
	}
}

// TestRulesJSONShape checks the JSON of one event against the shape.
func TestRulesJSONShape(t *testing.T) {
	game := `{"type":"game_start","south":{"avatar":"Lantern Warden"},"north":{"avatar":"Ashen Sovereign"},"first":"south"}
{"type":"turn_start","player":"south"}
{"type":"site_played","player":"south","cell":"C1","card":"Emberfall Ridge"}
{"type":"site_destroyed","cell":"C1"}
{"type":"site_played","player":"south","cell":"E4","card":"Tidewrack Cove"}
`
	code, out, errOut := runCmd(t, game, "rules", "--json", "--catalog", sampleCatalog, "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines for 5 events", len(lines))
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(lines[2]), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"event", "active", "turn", "winner", "players", "realm", "warnings"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("no %q in %s", k, lines[2])
		}
	}
	if raw["winner"] != nil || raw["active"] != "south" || raw["event"] != 2.0 || raw["turn"] != 1.0 {
		t.Errorf("header fields: %s", lines[2])
	}
	south := raw["players"].(map[string]any)["south"].(map[string]any)
	if mana := south["mana"].(map[string]any); mana["available"] != 1.0 || mana["total"] != 1.0 {
		t.Errorf("south mana %v", mana)
	}
	if aff := south["affinity"].(map[string]any); aff["fire"] != 1.0 || aff["water"] != 0.0 {
		t.Errorf("south affinity %v", aff)
	}
	cells := raw["realm"].(map[string]any)["cells"].(map[string]any)
	if len(cells) != 2 {
		t.Errorf("realm.cells lists %d cells, want only C1 and C4: %v", len(cells), cells)
	}
	c1 := cells["C1"].(map[string]any)
	if site := c1["site"].(map[string]any); site["card"] != "Emberfall Ridge" || site["controller"] != "south" {
		t.Errorf("C1 site %v", site)
	}
	if u := c1["units"].([]any)[0].(map[string]any); u["card"] != "Lantern Warden" || u["owner"] != "south" || u["tapped"] != true || u["entered_this_turn"] != false {
		t.Errorf("C1 avatar %v", u)
	}
	if lw := raw["realm"].(map[string]any)["spans_of_land"]; lw == nil {
		t.Errorf("no spans_of_land")
	}
	// Rubble has a null controller.
	if !strings.Contains(lines[3], `"C1":{"site":{"card":"Rubble","controller":null}`) {
		t.Errorf("Rubble: %s", lines[3])
	}
	// A warning names the code, the player, the cells and a message.
	st := decodeStates(t, lines[4])[0]
	if len(st.Warnings) != 2 || st.Warnings[0].Code != "site.not_nearest_avatar" || st.Warnings[0].Player != models.South ||
		len(st.Warnings[0].Cells) == 0 || st.Warnings[0].Message == "" {
		t.Errorf("warnings %+v", st.Warnings)
	}
	if !strings.Contains(lines[0], `"warnings":[]`) || !strings.Contains(lines[0], `"bodies_of_water":[]`) {
		t.Errorf("empty lists are not []: %s", lines[0])
	}
}

// TestRulesBadInput: invalid input exits 2 with a message naming the line and field.
func TestRulesBadInput(t *testing.T) {
	start := `{"type":"game_start","south":{"avatar":"Lantern Warden"},"north":{"avatar":"Ashen Sovereign"}}` + "\n"
	tests := []struct {
		name, input, want string
	}{
		{"bad JSON", start + `{"type":"turn_start",`, `stdin: line 2: invalid event: bad JSON`},
		{"unknown card", start + `{"type":"site_played","player":"south","cell":"C1","card":"Emberfal Ridge"}`,
			`stdin: line 2: field "card": unknown card "Emberfal Ridge" (did you mean Emberfall Ridge?)`},
		{"bad cell", start + `{"type":"site_played","player":"south","cell":"F9","card":"Emberfall Ridge"}`,
			`stdin: line 2: field "cell": "F9" is not a realm cell (A1–E4)`},
		{"unknown type", start + `{"type":"shuffle"}`, `stdin: line 2: field "type": unknown event type "shuffle"`},
		{"negative amount", start + "\n" + `{"type":"damage","player":"north","amount":-1}`, `stdin: line 3: field "amount": -1 is negative`},
		{"unknown avatar", `{"type":"game_start","south":{"avatar":"Sorcerer"},"north":{"avatar":"Ashen Sovereign"}}`,
			`stdin: line 1: field "south.avatar": unknown card "Sorcerer"`},
		{"a card not at the cell", start + `{"type":"card_tapped","cell":"B2","card":"Lantern Warden"}`,
			`stdin: line 2: field "cell": no Lantern Warden at B2`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCmd(t, tc.input, "rules", "--catalog", sampleCatalog, "-")
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q does not say %q", errOut, tc.want)
			}
		})
	}
	// A field that is not an event field is skipped, and said so.
	code, out, errOut := runCmd(t, start+`{"type":"turn_start","player":"south","note":"first turn"}`, "rules", "--json", "--catalog", sampleCatalog, "-")
	if code != 0 || len(decodeStates(t, out)) != 2 || !strings.Contains(errOut, `stdin: line 2: field "note" is not an event field; skipped`) {
		t.Errorf("extra field: exit %d, stderr %q", code, errOut)
	}
	if code, _, _ := runCmd(t, "", "rules", "--catalog", sampleCatalog, "no-such-file.jsonl"); code != 2 {
		t.Errorf("missing file: exit %d", code)
	}
	if code, _, _ := runCmd(t, "", "rules"); code != 2 {
		t.Errorf("no file: exit %d", code)
	}
}

// TestRulesText checks the readable output: board, players and warnings.
func TestRulesText(t *testing.T) {
	code, out, errOut := runCmd(t, "", "rules", "../../samples/games/rule-warnings.jsonl", "--catalog", sampleCatalog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"#2 site_played south B1 Tidewrack Cove",
		"south Lantern Warden: life 20, mana 1/1, affinity 1 water; sites B1",
		"! site.not_nearest_avatar (south B1 C1):",
		"! unit.subsurface (south B1):",
		"! life.gain_at_deaths_door (north C4):",
		"        A     B     C     D     E\n     4  .     .     n~@",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q", want)
		}
	}
}

// replayOnSharedList runs `tablecam rules --json` on a game with the real
// card list and gives the states, or skips the test when the list is absent.
func replayOnSharedList(t *testing.T, game string) []models.GameState {
	t.Helper()
	const shared = "../../../shared/data/sorcery-cards.json"
	if _, err := models.LoadCatalog(shared); err != nil {
		t.Skipf("no shared card list: %v", err)
	}
	code, out, errOut := runCmd(t, "", "rules", "--json", "--catalog", shared, game)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	return decodeStates(t, out)
}

// TestRulesRulebookGame replays the game of the rulebook's examples with the
// real card list, when it is present.
func TestRulesRulebookGame(t *testing.T) {
	states := replayOnSharedList(t, "../../samples/games/rulebook-game.jsonl")
	var warned []string
	for _, st := range states {
		for _, w := range st.Warnings {
			warned = append(warned, string(w.Code))
		}
	}
	if strings.Join(warned, " ") != "threshold.unmet" {
		t.Errorf("warnings %v, want only Sir Pelleas's threshold.unmet", warned)
	}
	last := states[len(states)-1]
	if last.Winner != models.South || !last.Players["north"].Defeated {
		t.Errorf("final: winner %v north %+v", last.Winner, last.Players["north"])
	}
}

// TestRulesWarningsOnly: --warnings prints the events that raise warnings, then the final state.
func TestRulesWarningsOnly(t *testing.T) {
	code, out, errOut := runCmd(t, "", "rules", "--warnings", "--json", "--catalog", sampleCatalog, "../../samples/games/rule-warnings.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	states := decodeStates(t, out)
	if len(states) != 14 {
		t.Errorf("%d states, want the 14 events with warnings", len(states))
	}
	for _, st := range states {
		if len(st.Warnings) == 0 {
			t.Errorf("event %d has no warnings", st.Event)
		}
	}
	code, out, _ = runCmd(t, "", "rules", "--warnings", "--json", "--catalog", sampleCatalog, "../../samples/games/whole-game.jsonl")
	if states := decodeStates(t, out); code != 0 || len(states) != 1 || states[0].Winner != models.North {
		t.Errorf("a game without warnings: exit %d, %d states", code, len(states))
	}
}

// TestRulesKeywordsGame replays the keywords sample on the real card list:
// summoning sickness on a move, Charge, Airborne diagonals, Movement +1, an
// Automaton, an X cost and a minion that provides threshold.
func TestRulesKeywordsGame(t *testing.T) {
	states := replayOnSharedList(t, "../../samples/games/keywords-game.jsonl")
	var warned []string
	for _, st := range states {
		for _, w := range st.Warnings {
			warned = append(warned, fmt.Sprintf("%d %s", st.Event, w.Code))
		}
	}
	want := "20 unit.summoning_sick, 32 unit.summoning_sick, 35 threshold.unmet, 36 unit.move_range"
	if got := strings.Join(warned, ", "); got != want {
		t.Errorf("warnings %s\nwant     %s", got, want)
	}
	last := states[len(states)-1]
	if got := last.Players["south"].Affinity; got != (models.Thresholds{Air: 2, Earth: 1, Fire: 3}) {
		t.Errorf("south affinity %v: Blacksmith Family provides one fire", got)
	}
	if got := states[35].Players["south"].Mana; got != (models.ManaState{Available: 1, Total: 4}) {
		t.Errorf("south mana after Arcane Barrage with X = 3: %+v, want 1/4", got)
	}
	if got := last.Players["north"].Life; got != 17 {
		t.Errorf("north life %d, want 17", got)
	}
}

// TestRulesBadInputNamesFile: an events file with a bad line is named, with
// the line, in the error.
func TestRulesBadInputNamesFile(t *testing.T) {
	start := `{"type":"game_start","south":{"avatar":"Lantern Warden"},"north":{"avatar":"Ashen Sovereign"}}` + "\n" +
		`{"type":"turn_start","player":"south"}` + "\n# a comment\n"
	tests := []struct {
		name, line, want string
	}{
		{"unknown card", `{"type":"site_played","player":"south","cell":"C1","card":"Emberfal Ridge"}`,
			`: line 4: field "card": unknown card "Emberfal Ridge"`},
		{"bad cell", `{"type":"unit_moved","card":"Lantern Warden","from":"C1","to":"C0"}`,
			`: line 4: field "to": "C0" is not a realm cell (A1–E4)`},
		{"malformed JSON", `{"type":"damage","player":"north","amount":3`, `: line 4: invalid event: bad JSON`},
		{"missing amount", `{"type":"damage","player":"north"}`, `: line 4: field "amount": missing: damage needs an amount`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "scenario.jsonl")
			if err := os.WriteFile(path, []byte(start+tc.line+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := runCmd(t, "", "rules", "--catalog", sampleCatalog, path)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errOut, path+tc.want) {
				t.Errorf("stderr %q does not say %q", errOut, path+tc.want)
			}
		})
	}
}
