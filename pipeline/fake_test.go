package pipeline

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// scriptSource plays n blank frames whose first pixels carry their index,
// so that scriptAnalyzer knows which frame it reads. Frames in broken make
// the stream fail (a camera unplugged) until failures reopens have been
// tried; frames in corrupt cannot be decoded.
type scriptSource struct {
	mu       sync.Mutex
	n, next  int
	broken   map[int]bool
	failures int
	reopens  int
	corrupt  map[int]bool
	down     bool
}

func (s *scriptSource) Read(dst *gocv.Mat) (Frame, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= s.n {
		return Frame{}, io.EOF
	}
	if s.broken[s.next] && s.reopens < s.failures {
		s.down = true
		return Frame{}, errors.New("fake camera: unplugged")
	}
	i := s.next
	s.next++
	fr := Frame{Index: i, Time: float64(i) / 30, Name: fmt.Sprintf("frame%04d.png", i)}
	if s.corrupt[i] {
		return fr, fmt.Errorf("%s: %w", fr.Name, ErrCorruptFrame)
	}
	m := gocv.NewMatWithSize(48, 64, gocv.MatTypeCV8UC3)
	defer m.Close()
	m.SetUCharAt(0, 0, uint8(i%256))
	m.SetUCharAt(0, 1, uint8(i/256))
	m.CopyTo(dst)
	return fr, nil
}

func (s *scriptSource) Reopen() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reopens++
	if s.reopens < s.failures {
		return errors.New("fake camera: still unplugged")
	}
	s.down = false
	return nil
}

func (s *scriptSource) Skip(index int) error { s.next = max(s.next, index); return nil }
func (s *scriptSource) FPS() float64         { return 30 }
func (s *scriptSource) Close() error         { return nil }
func (s *scriptSource) Live() bool           { return false }
func (s *scriptSource) String() string       { return "script" }

// scriptAnalyzer reads the observation scripted for the frame's index.
type scriptAnalyzer struct {
	obs   []models.FrameObservation
	reads int
}

func (a *scriptAnalyzer) Analyze(frame gocv.Mat, _ *calibration.Calibration) (models.FrameObservation, error) {
	a.reads++
	i := int(frame.GetUCharAt(0, 0)) + 256*int(frame.GetUCharAt(0, 1))
	if i >= len(a.obs) {
		return models.FrameObservation{}, fmt.Errorf("no observation for frame %d", i)
	}
	return a.obs[i], nil
}

type placed struct {
	cell   string
	name   string
	typ    models.CardType
	owner  models.Player
	tapped bool
}

// script gives observations for a short game: each change is preceded by
// hand frames (occluded) and followed by a still board.
func script() []models.FrameObservation {
	board := []placed{
		{"C1", "Lantern Warden", models.Avatar, models.South, false},
		{"C4", "Tide Oracle", models.Avatar, models.North, false},
	}
	var obs []models.FrameObservation
	frames := func(n int, occluded bool) {
		for k := 0; k < n; k++ {
			o := models.FrameObservation{Frame: len(obs), Time: float64(len(obs)) / 30, Occluded: occluded}
			for _, p := range board {
				name, typ := p.name, string(p.typ)
				kind := models.KindStandard
				if p.typ == models.Site {
					kind = models.KindSite
				}
				o.Cards = append(o.Cards, models.CardObservation{Cell: models.CellPtr(models.MustCell(p.cell)),
					Name: &name, Type: &typ, Kind: kind, Owner: p.owner, Tapped: p.tapped,
					Rotation: models.RotationFor(p.owner, p.tapped), Confidence: 0.95})
			}
			obs = append(obs, o)
		}
	}
	tap := func(name string, tapped bool) {
		for i := range board {
			if board[i].name == name {
				board[i].tapped = tapped
			}
		}
	}
	frames(30, false)
	changes := []func(){
		func() {
			board = append(board, placed{"C1", "Emberfall Ridge", models.Site, models.South, false})
			tap("Lantern Warden", true)
		},
		func() { board = append(board, placed{"C1", "Ember Whelp", models.Minion, models.South, false}) },
		func() {
			board = append(board, placed{"C4", "Tidewrack Cove", models.Site, models.North, false})
			tap("Tide Oracle", true)
		},
		func() { tap("Lantern Warden", false) },
		func() {
			for i := range board {
				if board[i].name == "Ember Whelp" {
					board[i].cell = "C2"
				}
			}
		},
	}
	for _, c := range changes {
		frames(10, true)
		c()
		frames(30, false)
	}
	return obs
}
