package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDeckCheck(t *testing.T) {
	dir := t.TempDir()
	unknown := filepath.Join(dir, "unknown.txt")
	if err := os.WriteFile(unknown, []byte("Avatar\n1 Lantern Warden\nAtlas\n4 Emberfal Ridge\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"a legal deck", []string{"../../samples/decks/ember-tide.txt"}, 0,
			[]string{"ember-tide.txt: legal (Avatar Lantern Warden, atlas 30 sites, spellbook 60 spells)"}},
		{"an illegal deck", []string{"../../samples/decks/illegal.txt"}, 1, []string{
			"illegal.txt:4: the deck has 2 Avatars",
			"illegal.txt:11: 3 copies of Quarry of Kings; Elite cards are limited to 2 per deck",
			"illegal.txt:12: Searing Lash is a magic; the atlas holds only sites",
			"illegal.txt:17: 6 copies of Ember Whelp (lines 15, 17)",
			"illegal, 6 problems"}},
		{"an unknown card", []string{unknown}, 2, []string{`unknown.txt:4: bad decklist: unknown card "Emberfal Ridge" (did you mean Emberfall Ridge?)`}},
		{"a missing file", []string{filepath.Join(dir, "none.txt")}, 2, []string{"no such file"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"deck", "check", "--catalog", sampleCatalog}, tc.args...)
			code, out, errOut := runCmd(t, "", args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; %s%s", code, tc.code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
		})
	}
	code, out, _ := runCmd(t, "", "deck", "check", "--json", "--catalog", sampleCatalog, "../../samples/decks/illegal.txt")
	var res struct {
		Legal    bool `json:"legal"`
		Atlas    int  `json:"atlas"`
		Problems []struct {
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"problems"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 1 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if res.Legal || res.Atlas != 11 || len(res.Problems) != 6 || res.Problems[0].Line != 4 {
		t.Errorf("json %+v", res)
	}
	if code, _, _ := runCmd(t, "", "deck"); code != 2 {
		t.Errorf("no subcommand: exit %d", code)
	}
}
