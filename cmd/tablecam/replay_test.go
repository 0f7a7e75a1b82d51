package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/rules"
	"github.com/tablecam/tablecam/tracker"
)

func TestReplayRebuildsTheJournal(t *testing.T) {
	cat, err := models.LoadCatalog("../../samples/catalog")
	if err != nil {
		t.Skip(err)
	}
	path := filepath.Join(t.TempDir(), "game.jsonl")
	j, err := tracker.CreateJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	g := tracker.NewGame(func() tracker.Rules { return rules.NewGame(cat) }, j, cat)
	c1 := models.CellPtr(models.MustCell("C1"))
	batches := [][]models.Event{
		{{Type: models.GameStart, South: &models.Seat{Avatar: "Lantern Warden"}, North: &models.Seat{Avatar: "Tide Oracle"}}},
		{{Type: models.TurnStart, Player: models.South}, {Type: models.SitePlayed, Player: models.South, Cell: c1, Card: "Emberfall Ridge"}},
		{{Type: models.UnitSummoned, Player: models.South, Cell: c1, Card: "Ember Whelp"}},
		{{Type: models.Damage, Player: models.North, Amount: 5}},
	}
	if err := g.Start("test", cat.Path); err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		if _, _, err := g.Record(b, tracker.Camera); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Correct(models.Correction{Kind: models.RenameCard, Cell: c1, Card: "Ember Whelp", Name: "Gale Sprite"}); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(g.State())
	j.Close()
	// A crash cut the last line short.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":9,"kind":"undo`)
	f.Close()

	var out, errOut bytes.Buffer
	code := run(context.Background(), env{args: []string{"replay", "--json", "--final", path}, stdout: &out, stderr: &errOut})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if got := strings.TrimSpace(out.String()); got != string(want) {
		t.Fatalf("replayed state\n got %s\nwant %s", got, want)
	}
	if !strings.Contains(errOut.String(), "game.jsonl:8: last line cut short") {
		t.Errorf("stderr does not report the torn line:\n%s", errOut.String())
	}
	if !strings.Contains(string(want), `"Gale Sprite"`) || !strings.Contains(string(want), `"life":15`) {
		t.Errorf("state lacks the correction or the damage: %s", want)
	}

	out.Reset()
	if code := run(context.Background(), env{args: []string{"replay", path}, stdout: &out, stderr: &errOut}); code != 0 {
		t.Fatalf("text replay exit %d", code)
	}
	if n := strings.Count(out.String(), "\n#"); n != 5 || !strings.Contains(out.String(), "#3 unit_summoned south C1 Gale Sprite") {
		t.Errorf("text replay shows %d events, want 5 with the renamed summon:\n%s", n, out.String())
	}
}

func TestReplayBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"seq\":1,\"kind\":\"start\"}\n{oops\n{\"seq\":2,\"kind\":\"end\"}\n"), 0o644)
	for _, args := range [][]string{{"replay"}, {"replay", filepath.Join(dir, "missing.jsonl")}, {"replay", bad}} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), env{args: args, stdout: &out, stderr: &errOut}); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut.String())
		}
	}
}
