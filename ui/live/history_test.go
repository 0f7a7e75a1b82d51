package live

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/rules"
	"github.com/tablecam/tablecam/tracker"
	"github.com/tablecam/tablecam/ui"
)

// sampleCatalog loads the bundled sample catalog.
func sampleCatalog(t *testing.T) *models.Catalog {
	t.Helper()
	dir := filepath.Join("..", "..", "samples", "catalog")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("bundled sample catalog missing:", err)
	}
	cat, err := models.LoadCatalog(dir)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestHistory writes a game through the tracker's journal (camera events, a
// typed one, an undo, a rename), cuts its last line short as a crash would,
// and reads back what the overlay lists when the game is resumed.
func TestHistory(t *testing.T) {
	cat := sampleCatalog(t)
	path := filepath.Join(t.TempDir(), "game.jsonl")
	j, err := tracker.CreateJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	g := tracker.NewGame(func() tracker.Rules { return rules.NewGame(cat) }, j, cat)
	if err := g.Start("test", cat.Path); err != nil {
		t.Fatal(err)
	}
	cell := func(s string) *models.Cell { return models.CellPtr(models.MustCell(s)) }
	frame := func(n int) *int { return &n }
	batches := [][]models.Event{
		{{Type: models.GameStart, South: &models.Seat{Avatar: "Tide Oracle"}, North: &models.Seat{Avatar: "Ashen Sovereign"}, First: models.South, Frame: frame(10)},
			{Type: models.TurnStart, Player: models.South, Frame: frame(10)}},
		{{Type: models.SitePlayed, Player: models.South, Cell: cell("C1"), Card: "Tidewrack Cove", Frame: frame(40)}},
		{{Type: models.UnitSummoned, Player: models.South, Cell: cell("C1"), Card: "Reefstalker", Frame: frame(90)}},
	}
	for _, b := range batches {
		if _, _, err := g.Record(b, tracker.Camera); err != nil {
			t.Fatal(err)
		}
	}
	// A typed event, undone: it must not be listed.
	if _, _, err := g.Record([]models.Event{{Type: models.Damage, Player: models.North, Amount: 3}}, tracker.Manual); err != nil {
		t.Fatal(err)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	// The camera misread the minion: corrected, it is listed by its right name.
	if err := g.Correct(models.Correction{Kind: models.RenameCard, Cell: cell("C1"), Card: "Reefstalker", Name: "Tidecaller Adept"}); err != nil {
		t.Fatal(err)
	}
	// The minion taps the turn it came: a warning the resumed overlay must show.
	if _, ws, err := g.Record([]models.Event{{Type: models.CardTapped, Player: models.South, Cell: cell("C1"), Card: "Reefstalker", Frame: frame(120)}}, tracker.Camera); err != nil || len(ws) == 0 {
		t.Fatalf("tapping a minion the turn it came: warnings %v, error %v", ws, err)
	}
	// A typed event after it, raising none: the rules' state forgets the warning.
	if _, _, err := g.Record([]models.Event{{Type: models.ManaSpent, Player: models.South, Amount: 1}}, tracker.Manual); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _, err := tracker.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	// The crash: half a line at the end.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":99,"kind":"ev`)
	f.Close()

	res, err := History(path, cat, 3)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Events
	want := []models.EventType{models.UnitSummoned, models.CardTapped, models.ManaSpent}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(got), len(want), got)
	}
	at := func(seq int) time.Time {
		for _, e := range entries {
			if e.Seq == seq {
				return e.At
			}
		}
		t.Fatalf("no entry %d", seq)
		return time.Time{}
	}
	var seqs []int // the journal entries of the listed events, from the journal
	for _, e := range entries {
		if e.Kind == tracker.EntryEvent && e.Event.Type != models.Damage && e.Event.Type != models.GameStart && e.Event.Type != models.TurnStart && e.Event.Type != models.SitePlayed {
			seqs = append(seqs, e.Seq)
		}
	}
	for i, r := range got {
		if r.Event.Type != want[i] || !r.Earlier {
			t.Errorf("event %d: %s (earlier %v), want %s from before the restart", i, r.Event.Type, r.Earlier, want[i])
		}
		if !r.Clock.Equal(at(seqs[i])) || r.Clock.IsZero() {
			t.Errorf("event %d (%s) at %v, want the journal's %v", i, r.Event.Type, r.Clock, at(seqs[i]))
		}
	}
	if got[0].Event.Card != "Tidecaller Adept" || got[1].Event.Card != "Tidecaller Adept" {
		t.Errorf("the corrected minion is listed as %q and %q", got[0].Event.Card, got[1].Event.Card)
	}
	// The state after the last event holds none of them; the turn raised
	// some, among them the summoning-sick tap.
	if ws := g.State().Warnings; len(ws) != 1 || ws[0].Code != rules.ManaInsufficient {
		t.Fatalf("the last event's warnings: %+v", ws)
	}
	if !hasWarning(res.Warnings, rules.UnitSummoningSick, "C1") || !hasWarning(res.Warnings, rules.ManaInsufficient, "") {
		t.Errorf("this turn's warnings: %+v, want the summoning-sick tap at C1 and the last mana spent", res.Warnings)
	}
	all, err := History(path, cat, HistoryLength)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Events) != 6 {
		t.Errorf("%d events in force, want 6 (the undone damage left out): %+v", len(all.Events), all.Events)
	}
	// The overlay lists them until new events push them out, and shows the
	// warning until the turn ends.
	ov := ui.NewOverlay(nil, ui.Options{History: all.Events, Warnings: all.Warnings})
	st := g.State()
	st.Warnings = nil
	ov.Receive(models.Update{State: st}, 1)
	v := ov.View(1)
	if len(v.Recent) != 6 || !v.Recent[5].Earlier || v.Recent[5].Event.Type != models.ManaSpent {
		t.Errorf("overlay lists %+v", v.Recent)
	}
	if ws := v.ShownWarnings(); len(ws) != len(all.Warnings) || !hasWarning(ws, rules.UnitSummoningSick, "C1") {
		t.Errorf("overlay shows warnings %+v, want this turn's %+v", ws, all.Warnings)
	}
}

// hasWarning reports whether ws holds a warning with the code, naming the
// cell (any cells when cell is "").
func hasWarning(ws []models.Warning, code models.WarningCode, cell string) bool {
	for _, w := range ws {
		if w.Code != code {
			continue
		}
		if cell == "" {
			return true
		}
		for _, c := range w.Cells {
			if c.String() == cell {
				return true
			}
		}
	}
	return false
}

func TestHistoryBadJournal(t *testing.T) {
	cat := sampleCatalog(t)
	if _, err := History(filepath.Join(t.TempDir(), "missing.jsonl"), cat, 5); err == nil {
		t.Error("a missing journal gave no error")
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("not json\n{\"seq\":1,\"kind\":\"start\"}\n"), 0o644)
	if _, err := History(bad, cat, 5); err == nil {
		t.Error("a bad journal gave no error")
	}
}
