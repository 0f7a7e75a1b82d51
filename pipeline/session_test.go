package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/tracker"
)

func sampleCatalog(t testing.TB) *models.Catalog {
	t.Helper()
	cat, err := models.LoadCatalog("../samples/catalog")
	if err != nil {
		t.Skip("no sample catalog:", err)
	}
	return cat
}

// syncBuffer is a log that the session writes from its goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var corners = models.Quad{{X: 4, Y: 44}, {X: 60, Y: 44}, {X: 60, Y: 4}, {X: 4, Y: 4}}

func scriptConfig(t testing.TB, src Source, journal string, log *syncBuffer) Config {
	c := corners
	return Config{Source: src, Catalog: sampleCatalog(t), Corners: &c, Analyzer: &scriptAnalyzer{obs: script()},
		Journal: journal, Retry: time.Millisecond, MaxRetry: 4 * time.Millisecond, Log: log,
		NoGate: true} // the script's frames are blank: only the analyzer knows what they show
}

// watch runs a session to its end and gives its events and final state.
func watch(t *testing.T, cfg Config) ([]string, models.GameState) {
	t.Helper()
	s, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var evs []string
	var last models.GameState
	for u := range s.Updates() {
		for _, ev := range u.Events {
			evs = append(evs, brief(ev))
		}
		if u.State.Players != nil {
			last = u.State
		}
	}
	if err := s.Wait(); err != nil {
		t.Fatal(err)
	}
	return evs, last
}

func brief(ev models.Event) string {
	s := string(ev.Type)
	if ev.Card != "" {
		s += " " + ev.Card
	}
	if ev.Cell != nil {
		s += " " + ev.Cell.String()
	}
	if ev.From != nil {
		s += " " + ev.From.String() + "→" + ev.To.String()
	}
	return s
}

var scriptEvents = []string{
	"game_start",
	"turn_start", "site_played Emberfall Ridge C1", "card_tapped Lantern Warden C1",
	"unit_summoned Ember Whelp C1",
	"turn_end", "turn_start", "site_played Tidewrack Cove C4", "card_tapped Tide Oracle C4",
	"turn_end", "turn_start", "card_untapped Lantern Warden C1",
	"unit_moved Ember Whelp C1→C2",
}

func TestSessionFaults(t *testing.T) {
	tests := []struct {
		name    string
		src     *scriptSource
		wantLog []string
	}{
		{"clean", &scriptSource{n: len(script())}, nil},
		{"camera drops out and comes back", &scriptSource{n: len(script()), broken: map[int]bool{95: true}, failures: 4},
			[]string{"fake camera: unplugged; retrying", "frames again at frame 95"}},
		{"corrupt frames are skipped", &scriptSource{n: len(script()), corrupt: map[int]bool{50: true, 51: true}},
			[]string{"frame 50: frame0050.png: corrupt frame; skipped", "frame 51: frame0051.png"}},
	}
	var want models.GameState
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := &syncBuffer{}
			evs, st := watch(t, scriptConfig(t, tc.src, filepath.Join(t.TempDir(), "j.jsonl"), log))
			if !reflect.DeepEqual(evs, scriptEvents) {
				t.Fatalf("events\n got %q\nwant %q", evs, scriptEvents)
			}
			if i == 0 {
				want = st
			} else if !reflect.DeepEqual(st, want) {
				t.Errorf("state differs from the clean run")
			}
			for _, w := range tc.wantLog {
				if !strings.Contains(log.String(), w) {
					t.Errorf("log lacks %q:\n%s", w, log.String())
				}
			}
		})
	}
}

func TestSessionController(t *testing.T) {
	log := &syncBuffer{}
	cfg := scriptConfig(t, &scriptSource{n: len(script())}, filepath.Join(t.TempDir(), "j.jsonl"), log)
	s, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	paused := false
	for u := range s.Updates() {
		if !paused && len(u.Events) > 0 && u.Events[len(u.Events)-1].Type == models.UnitSummoned {
			s.SetPaused(true)
			paused = true
			if err := s.Manual(models.Event{Type: models.Damage, Player: models.North, Amount: 4}); err != nil {
				t.Fatal(err)
			}
			if got := s.State().Players["north"].Life; got != 16 {
				t.Errorf("north life %d after 4 damage", got)
			}
			if err := s.Manual(models.Event{Type: models.SitePlayed, Player: models.North}); err == nil {
				t.Error("a site typed by hand was accepted")
			}
			if err := s.Undo(); err != nil {
				t.Fatal(err)
			}
			if got := s.State().Players["north"].Life; got != 20 {
				t.Errorf("north life %d after undo", got)
			}
			if err := s.Correct(models.Correction{Kind: models.RenameCard, Cell: models.CellPtr(models.MustCell("C1")), Card: "Ember Whelp", Name: "Gale Sprite"}); err != nil {
				t.Fatal(err)
			}
			moved := models.Quad{{X: 6, Y: 46}, {X: 62, Y: 46}, {X: 62, Y: 6}, {X: 6, Y: 6}}
			if err := s.Recalibrate(moved); err != nil {
				t.Fatal(err)
			}
			s.mu.Lock()
			got := s.cal.Corners
			s.mu.Unlock()
			if got != moved {
				t.Errorf("corners %v after recalibrating to %v", got, moved)
			}
			if err := s.Recalibrate(models.Quad{}); err == nil {
				t.Error("a degenerate quad was accepted as the realm")
			}
			s.SetPaused(false)
		}
	}
	if err := s.Wait(); err != nil {
		t.Fatal(err)
	}
	if err := s.Undo(); !errors.Is(err, ErrEnded) {
		t.Errorf("undo after the end: %v, want ErrEnded", err)
	}
	st := s.State()
	if u := st.Realm.Cells["C2"].Units; len(u) != 1 || u[0].Card != "Gale Sprite" {
		t.Errorf("C2 units %+v: the renamed card should have moved there under its new name", u)
	}
	if !paused {
		t.Fatal("the summon never came")
	}
}

// TestResumeAfterKill runs a watch in a child process (this test binary),
// kills it with SIGKILL in the middle of the game, resumes the journal, and
// checks that the game ends as an uninterrupted one does.
func TestResumeAfterKill(t *testing.T) {
	if os.Getenv("TABLECAM_KILL_CHILD") != "" {
		return
	}
	dir := t.TempDir()
	journal := filepath.Join(dir, "game.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestKillChild$", "-test.v")
	cmd.Env = append(os.Environ(), "TABLECAM_KILL_CHILD="+journal)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the child has journaled the summon, then kill it.
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, _ := os.ReadFile(journal)
		if bytes.Contains(data, []byte("unit_summoned")) {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the child never summoned:\n%s", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	entries, _, err := tracker.ReadJournal(journal)
	if err != nil {
		t.Fatal(err)
	}
	if entries[len(entries)-1].Kind == tracker.EntryEnd {
		t.Fatal("the child ended before it was killed")
	}
	unfinished, err := tracker.Unfinished(dir)
	if err != nil || len(unfinished) != 1 || unfinished[0] != journal {
		t.Fatalf("unfinished journals %v %v, want the killed one offered for resume", unfinished, err)
	}

	log := &syncBuffer{}
	cfg := scriptConfig(t, &scriptSource{n: len(script())}, journal, log)
	cfg.Resume = true
	_, resumed := watch(t, cfg)
	_, clean := watch(t, scriptConfig(t, &scriptSource{n: len(script())}, filepath.Join(dir, "clean.jsonl"), log))
	if !reflect.DeepEqual(resumed, clean) {
		a, _ := json.Marshal(resumed)
		b, _ := json.Marshal(clean)
		t.Fatalf("resumed game differs from an uninterrupted one\nresumed %s\n  clean %s", a, b)
	}
	entries, _, _ = tracker.ReadJournal(journal)
	if entries[len(entries)-1].Kind != tracker.EntryEnd {
		t.Error("the resumed game did not end its journal")
	}
}

// TestKillChild is the child of TestResumeAfterKill: a watch slowed to real
// time, so that it is still running when it is killed.
func TestKillChild(t *testing.T) {
	journal := os.Getenv("TABLECAM_KILL_CHILD")
	if journal == "" {
		t.Skip("only run as the child of TestResumeAfterKill")
	}
	cfg := scriptConfig(t, &scriptSource{n: len(script())}, journal, &syncBuffer{})
	cfg.Realtime = true
	s, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for u := range s.Updates() {
		for _, ev := range u.Events {
			fmt.Println(brief(ev))
		}
	}
	s.Wait()
}
