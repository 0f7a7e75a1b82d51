package synth

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/rules"
)

// TestScriptedGameIsLegal replays the scripted game's events through the
// rules engine: the only warning is the one the script commits on purpose.
func TestScriptedGameIsLegal(t *testing.T) {
	r := sampleRenderer(t)
	for _, seed := range []int64{1, 2, 3} {
		sc, err := scriptGame(r.Catalog(), seed, 7)
		if err != nil {
			t.Fatal(err)
		}
		g := rules.NewGame(r.Catalog())
		start := models.Event{Type: models.GameStart, First: models.South,
			South: &models.Seat{Avatar: sc.avatars[models.South].Name},
			North: &models.Seat{Avatar: sc.avatars[models.North].Name}}
		if _, err := g.Apply(start); err != nil {
			t.Fatal(err)
		}
		var codes []string
		counts := map[models.EventType]int{}
		for _, s := range sc.steps {
			for _, evs := range [][]models.Event{s.before, s.events, s.trail} {
				for _, ev := range evs {
					counts[ev.Type]++
					ws, err := g.Apply(ev)
					if err != nil {
						t.Fatalf("seed %d: %+v: %v", seed, ev, err)
					}
					for _, w := range ws {
						codes = append(codes, string(w.Code))
						t.Logf("seed %d: %s: %s", seed, w.Code, w.Message)
					}
				}
			}
		}
		if len(codes) != 1 || codes[0] != "unit.summoning_sick" || len(sc.warnings) != 1 {
			t.Errorf("seed %d: warnings %v, want only the deliberate unit.summoning_sick", seed, codes)
		}
		for _, typ := range []models.EventType{models.SitePlayed, models.UnitSummoned, models.CardTapped, models.CardUntapped,
			models.UnitMoved, models.CardRemoved, models.TurnStart, models.TurnEnd} {
			if counts[typ] == 0 {
				t.Errorf("seed %d: the game has no %s event", seed, typ)
			}
		}
	}
}

// TestWriteGame renders a short game small and reads the video back with
// OpenCV: frame count and size match the truth, no two frames are equal,
// events fall on hand-free frames whose board shows them, and the board
// holds still for half a second between hands.
func TestWriteGame(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a video")
	}
	r := sampleRenderer(t)
	dir := t.TempDir()
	truth, err := WriteGame(context.Background(), dir, r.Catalog(), 4, GameOptions{Width: 320, Height: 180, Turns: 2, Frames: true})
	if err != nil {
		t.Fatal(err)
	}
	vc, err := gocv.VideoCaptureFile(filepath.Join(dir, "game.avi"))
	if err != nil {
		t.Fatal(err)
	}
	defer vc.Close()
	if fps := vc.Get(gocv.VideoCaptureFPS); math.Abs(fps-30) > 0.01 {
		t.Errorf("video at %v fps", fps)
	}
	frame := gocv.NewMat()
	defer frame.Close()
	n := 0
	var prev []byte
	for vc.Read(&frame) {
		if frame.Empty() {
			break
		}
		if frame.Cols() != 320 || frame.Rows() != 180 {
			t.Fatalf("frame %d is %d×%d", n, frame.Cols(), frame.Rows())
		}
		cur := frame.ToBytes()
		if prev != nil && bytes.Equal(cur, prev) {
			t.Errorf("frames %d and %d are identical", n-1, n)
		}
		prev = cur
		n++
	}
	if n != truth.Frames {
		t.Errorf("read %d frames, truth lists %d", n, truth.Frames)
	}
	if jpgs, _ := filepath.Glob(filepath.Join(dir, "frames", "*.jpg")); len(jpgs) != truth.Frames {
		t.Errorf("%d numbered frames, truth lists %d", len(jpgs), truth.Frames)
	}
	loaded, err := LoadGameTruth(filepath.Join(dir, "truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Events) != len(truth.Events) || loaded.Frames != truth.Frames {
		t.Fatalf("truth.json round trip: %d events, %d frames", len(loaded.Events), loaded.Frames)
	}
	for _, ev := range loaded.Events {
		if ev.Frame == nil || *ev.Frame >= loaded.Frames {
			t.Fatalf("event %+v has no frame in range", ev)
		}
		f := loaded.PerFrame[*ev.Frame]
		if f.Hand {
			t.Errorf("%s at frame %d: a hand frame", ev.Type, *ev.Frame)
			continue
		}
		switch ev.Type {
		case models.SitePlayed, models.UnitSummoned:
			if !holds(f.Board[ev.Cell.String()], ev.Card, ev.Player, false) {
				t.Errorf("%s %s at frame %d: board %v", ev.Type, ev.Card, *ev.Frame, f.Board)
			}
		case models.UnitMoved:
			if !holds(f.Board[ev.To.String()], ev.Card, ev.Player, true) {
				t.Errorf("%s %s to %v at frame %d: board %v", ev.Type, ev.Card, ev.To, *ev.Frame, f.Board)
			}
		}
	}
	// Between two hands the board holds still for at least 0.5 s.
	run := 0
	for i, f := range loaded.PerFrame {
		if f.Hand {
			if run > 0 && run < 15 && i-run > 0 {
				t.Errorf("only %d still frames before frame %d", run, i)
			}
			run = 0
			continue
		}
		run++
	}
}

// holds reports whether cards lists the named card of owner (any tapped
// state unless wantTapped).
func holds(cards []BoardCard, name string, owner models.Player, wantTapped bool) bool {
	for _, c := range cards {
		if c.Name == name && (owner == models.NoPlayer || c.Owner == owner) && (!wantTapped || c.Tapped) {
			return true
		}
	}
	return false
}
