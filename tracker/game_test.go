package tracker

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/rules"
)

func sampleCatalog(t testing.TB) *models.Catalog {
	t.Helper()
	cat, err := models.LoadCatalog("../samples/catalog")
	if err != nil {
		t.Skip("no sample catalog:", err)
	}
	return cat
}

func newRules(cat *models.Catalog) func() Rules {
	return func() Rules { return rules.NewGame(cat) }
}

func cellp(s string) *models.Cell { return models.CellPtr(models.MustCell(s)) }

// opening is a short game as the tracker would report it.
func opening() [][]models.Event {
	return [][]models.Event{
		{{Type: models.GameStart, South: &models.Seat{Avatar: "Lantern Warden"}, North: &models.Seat{Avatar: "Tide Oracle"}}},
		{{Type: models.TurnStart, Player: S}, {Type: models.SitePlayed, Player: S, Cell: cellp("C1"), Card: "Emberfall Ridge"},
			{Type: models.CardTapped, Player: S, Cell: cellp("C1"), Card: "Lantern Warden"}},
		{{Type: models.UnitSummoned, Player: S, Cell: cellp("C1"), Card: "Ember Whelp"}},
		{{Type: models.TurnEnd, Player: S}, {Type: models.TurnStart, Player: N}, {Type: models.SitePlayed, Player: N, Cell: cellp("C4"), Card: "Tidewrack Cove"}},
	}
}

func record(t *testing.T, g *Game, batches [][]models.Event) {
	t.Helper()
	for _, b := range batches {
		if _, _, err := g.Record(b, Camera); err != nil {
			t.Fatal(err)
		}
	}
}

func stateJSON(t *testing.T, g *Game) string {
	t.Helper()
	b, err := json.Marshal(g.State())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// journaledGame starts a game of the sample catalog with a journal in a
// temporary folder.
func journaledGame(t *testing.T) (*models.Catalog, string, *Journal, *Game) {
	t.Helper()
	cat := sampleCatalog(t)
	path := filepath.Join(t.TempDir(), "game.jsonl")
	j, err := CreateJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	return cat, path, j, NewGame(newRules(cat), j, cat)
}

func TestJournalReplayIsIdentical(t *testing.T) {
	cat, path, j, g := journaledGame(t)
	if err := g.Start("test", cat.Path); err != nil {
		t.Fatal(err)
	}
	record(t, g, opening())
	if _, _, err := g.Record([]models.Event{{Type: models.Damage, Player: N, Amount: 3}}, Manual); err != nil {
		t.Fatal(err)
	}
	if err := g.Correct(models.Correction{Kind: models.RenameCard, Cell: cellp("C1"), Card: "Ember Whelp", Name: "Cindertail Fox"}); err != nil {
		t.Fatal(err)
	}
	if err := g.Undo(); err != nil { // takes back the rename
		t.Fatal(err)
	}
	if err := g.Undo(); err != nil { // takes back the damage
		t.Fatal(err)
	}
	want := stateJSON(t, g)
	j.Close()

	entries, torn, err := ReadJournal(path)
	if err != nil || torn != nil {
		t.Fatal(err, torn)
	}
	replayed := LoadGame(newRules(cat), entries, nil, cat)
	if got := stateJSON(t, replayed); got != want {
		t.Fatalf("replayed state differs\n got %s\nwant %s", got, want)
	}
	if st := replayed.State(); st.Players["north"].Life != 20 {
		t.Errorf("north life %d after the damage was undone, want 20", st.Players["north"].Life)
	}
}

func TestUndoAndCorrections(t *testing.T) {
	cat := sampleCatalog(t)
	tests := []struct {
		name  string
		do    func(g *Game) error
		check func(t *testing.T, st models.GameState)
	}{
		{"undo takes back the last batch", func(g *Game) error { return g.Undo() }, func(t *testing.T, st models.GameState) {
			if st.Active != S || len(st.Players["north"].Sites) != 0 {
				t.Errorf("active %v, north sites %v: north's turn should be undone", st.Active, st.Players["north"].Sites)
			}
		}},
		{"rename a misread card", func(g *Game) error {
			return g.Correct(models.Correction{Kind: models.RenameCard, Cell: cellp("C1"), Card: "Ember Whelp", Name: "cindertail fox"})
		}, func(t *testing.T, st models.GameState) {
			units := st.Realm.Cells["C1"].Units
			if len(units) != 2 || units[1].Card != "Cindertail Fox" {
				t.Errorf("C1 units %+v, want the Whelp renamed Cindertail Fox", units)
			}
		}},
		{"give a card to the other player", func(g *Game) error {
			return g.Correct(models.Correction{Kind: models.ChangeOwner, Cell: cellp("C4"), Card: "Tidewrack Cove", Owner: S})
		}, func(t *testing.T, st models.GameState) {
			if s := st.Realm.Cells["C4"].Site; s == nil || s.Controller != S {
				t.Errorf("C4 site %+v, want it south's", s)
			}
		}},
		{"drop a false event", func(g *Game) error {
			return g.Correct(models.Correction{Kind: models.DropEvent, Event: 4}) // the summon
		}, func(t *testing.T, st models.GameState) {
			if units := st.Realm.Cells["C1"].Units; len(units) != 1 {
				t.Errorf("C1 units %+v, want only the Avatar", units)
			}
			if m := st.Players["south"].Mana; m.Available != 0 && st.Active == S {
				t.Errorf("south mana %+v", m)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGame(newRules(cat), nil, cat)
			record(t, g, opening())
			if err := tc.do(g); err != nil {
				t.Fatal(err)
			}
			tc.check(t, g.State())
			// The correction is an entry of its own; history keeps every event.
			if n := len(g.Entries()); n != 9 {
				t.Errorf("%d journal entries, want 9 (8 events and the fix)", n)
			}
		})
	}
}

func TestCorrectionRenameFollowsTheCard(t *testing.T) {
	cat := sampleCatalog(t)
	g := NewGame(newRules(cat), nil, cat)
	record(t, g, opening()[:3])
	if err := g.Correct(models.Correction{Kind: models.RenameCard, Cell: cellp("C1"), Card: "Ember Whelp", Name: "Gale Sprite"}); err != nil {
		t.Fatal(err)
	}
	// The camera keeps reading the card under its old name: later events
	// about it are corrected too.
	if _, _, err := g.Record([]models.Event{{Type: models.UnitMoved, Player: S, Card: "Ember Whelp", From: cellp("C1"), To: cellp("C2")}}, Camera); err != nil {
		t.Fatal(err)
	}
	st := g.State()
	if units := st.Realm.Cells["C2"].Units; len(units) != 1 || units[0].Card != "Gale Sprite" {
		t.Fatalf("C2 units %+v, want Gale Sprite", units)
	}
	if got := g.Board().At(models.MustCell("C2")).Units[0].Card; got != "Ember Whelp" {
		t.Errorf("the camera's board says %q, want the name it reads", got)
	}
}

func TestBadCorrections(t *testing.T) {
	cat := sampleCatalog(t)
	g := NewGame(newRules(cat), nil, cat)
	record(t, g, opening())
	for _, c := range []models.Correction{
		{Kind: models.RenameCard, Cell: cellp("C1"), Card: "Ember Whelp", Name: "No Such Card"},
		{Kind: models.RenameCard, Cell: cellp("E2"), Card: "Ember Whelp", Name: "Gale Sprite"},
		{Kind: models.DropEvent, Event: 99},
		{Kind: "paint"},
	} {
		if err := g.Correct(c); !errors.Is(err, ErrBadCorrection) {
			t.Errorf("%+v: got %v, want ErrBadCorrection", c, err)
		}
	}
	empty := NewGame(newRules(cat), nil, cat)
	if err := empty.Undo(); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("undo on a new game: %v", err)
	}
}

func TestTruncatedLastLine(t *testing.T) {
	cat, path, j, g := journaledGame(t)
	record(t, g, opening())
	want := stateJSON(t, g)
	j.Close()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":99,"kind":"event","event":{"type":"dam`)
	f.Close()

	j2, entries, torn, err := ResumeJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if torn == nil || torn.Line != 9 || !strings.Contains(torn.Error(), "game.jsonl:9") {
		t.Fatalf("torn line %v, want line 9 reported", torn)
	}
	g2 := LoadGame(newRules(cat), entries, j2, cat)
	if got := stateJSON(t, g2); got != want {
		t.Fatalf("state after resume differs")
	}
	if _, _, err := g2.Record([]models.Event{{Type: models.LifeLoss, Player: N, Amount: 2}}, Manual); err != nil {
		t.Fatal(err)
	}
	j2.Close()
	entries, torn, err = ReadJournal(path)
	if err != nil || torn != nil {
		t.Fatalf("journal after resume: %v %v", err, torn)
	}
	if last := entries[len(entries)-1]; last.Event == nil || last.Event.Type != models.LifeLoss || last.Seq != 9 {
		t.Fatalf("last entry %+v", last)
	}
}

// A crash that leaves only part of a frame's batch on disk (the batch is
// written at once, but a crash can cut a write short) must not leave half
// of what the frame showed in force: the part is cut off, as a torn line
// is, and the resumed game stands where the last whole batch left it, so
// that it reads those frames again.
func TestPartialLastBatchIsCutOff(t *testing.T) {
	cat, path, j, g := journaledGame(t)
	batches := opening()
	record(t, g, batches[:len(batches)-1])
	want := stateJSON(t, g)
	record(t, g, batches[len(batches)-1:])
	j.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The last batch has three events: keep its first line only.
	lines := strings.SplitAfter(string(data), "\n")
	kept := strings.Join(lines[:len(lines)-3], "")
	if err := os.WriteFile(path, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}

	entries, torn, err := ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if torn == nil || torn.Batch == 0 || torn.Written != 1 || torn.Size != 3 || !strings.Contains(torn.Error(), "1 of its 3 events") {
		t.Fatalf("torn %v: want the last batch reported as 1 of 3 events", torn)
	}
	if got := stateJSON(t, LoadGame(newRules(cat), entries, nil, cat)); got != want {
		t.Errorf("replay keeps part of a cut batch:\n got %s\nwant %s", got, want)
	}

	j2, entries, torn, err := ResumeJournal(path)
	if err != nil || torn == nil {
		t.Fatalf("resume: %v, torn %v", err, torn)
	}
	g2 := LoadGame(newRules(cat), entries, j2, cat)
	if got := stateJSON(t, g2); got != want {
		t.Fatalf("resumed state keeps part of a cut batch")
	}
	record(t, g2, batches[len(batches)-1:])
	j2.Close()
	entries, torn, err = ReadJournal(path)
	if err != nil || torn != nil {
		t.Fatalf("journal after resume: %v %v", err, torn)
	}
	whole := NewGame(newRules(cat), nil, cat)
	record(t, whole, batches)
	if got, want := stateJSON(t, LoadGame(newRules(cat), entries, nil, cat)), stateJSON(t, whole); got != want {
		t.Errorf("the batch written again after the resume: state differs from the uninterrupted game")
	}
}

func TestBadJournalLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(path, []byte("{\"seq\":1,\"kind\":\"start\"}\nnot json\n{\"seq\":2,\"kind\":\"end\"}\n"), 0o644)
	_, _, err := ReadJournal(path)
	if !errors.Is(err, ErrBadJournal) || !strings.Contains(err.Error(), "bad.jsonl:2") {
		t.Fatalf("got %v, want ErrBadJournal naming line 2", err)
	}
}

func TestGameFeedsTrackerBoard(t *testing.T) {
	cat := sampleCatalog(t)
	g := NewGame(newRules(cat), nil, cat)
	record(t, g, opening())
	want := "C1: site Emberfall Ridge (south) | Lantern Warden (south, tapped) | Ember Whelp (south)\nC4: site Tidewrack Cove (north) | Tide Oracle (north)\n"
	if got := g.Board().String(); !reflect.DeepEqual(got, want) {
		t.Fatalf("board\n%s\nwant\n%s", got, want)
	}
}
