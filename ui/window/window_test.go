package window

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/ui"
	"github.com/tablecam/tablecam/ui/internal/uitest"
)

// script is an InputSource that replays a list of inputs, one per tick.
type script struct{ inputs []Input }

func (s *script) Poll(image.Rectangle) Input {
	if len(s.inputs) == 0 {
		return Input{}
	}
	in := s.inputs[0]
	s.inputs = s.inputs[1:]
	return in
}

// recorder is a ui.Controller that writes down every call.
type recorder struct{ calls []string }

func (r *recorder) Manual(ev models.Event) error {
	r.calls = append(r.calls, fmt.Sprintf("%s %s %d", ev.Type, ev.Player, ev.Amount))
	return nil
}
func (r *recorder) Undo() error { r.calls = append(r.calls, "undo"); return nil }
func (r *recorder) Correct(c models.Correction) error {
	r.calls = append(r.calls, "correct "+c.Name)
	return nil
}
func (r *recorder) Recalibrate(models.Quad) error {
	r.calls = append(r.calls, "recalibrate")
	return nil
}
func (r *recorder) SetPaused(p bool) { r.calls = append(r.calls, fmt.Sprintf("paused %v", p)) }

func cameraUpdate(st models.GameState) models.Update {
	img, q := uitest.Camera(1280, 720, st)
	return models.Update{Frame: 900, Time: 30, Image: img, State: st,
		Observation: models.FrameObservation{Mat: models.MatObservation{Found: true, Corners: &q}}}
}

// readBack draws the game's frame into an offscreen Ebiten image and reads its pixels.
func readBack(g *Game, w, h int) *image.RGBA {
	dst := ebiten.NewImage(w, h)
	defer dst.Deallocate()
	g.DrawFrame(dst)
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	dst.ReadPixels(out.Pix)
	return out
}

func redShare(img *image.RGBA, r image.Rectangle) float64 {
	n, red := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			n++
			if c.R > 150 && c.G < c.R/2 && c.B < c.R/2 {
				red++
			}
		}
	}
	return float64(red) / float64(n)
}

func newGame(rec *recorder, in *script, updates chan models.Update, mode ui.Mode) *Game {
	o := ui.NewOverlay(rec, ui.Options{Mode: mode, Volume: 0.8})
	clock := 10.0
	return NewGame(context.Background(), Config{Overlay: o, Updates: updates, Input: in, Clock: func() float64 { return clock }})
}

func TestWindowShowsTheOverlay(t *testing.T) {
	updates := make(chan models.Update, 2)
	g := newGame(&recorder{}, &script{}, updates, ui.Normal)
	updates <- cameraUpdate(uitest.Midgame())
	onLoop(func() {
		if err := g.Update(); err != nil {
			t.Fatal(err)
		}
		got := readBack(g, 1280, 720)
		want := g.Frame()
		same := 0
		for i := 0; i < len(got.Pix); i += 4 {
			if got.Pix[i] == want.Pix[i] && got.Pix[i+1] == want.Pix[i+1] && got.Pix[i+2] == want.Pix[i+2] {
				same++
			}
		}
		if share := float64(same) / float64(len(got.Pix)/4); share < 0.999 {
			t.Errorf("only %.2f%% of the screen matches the painted frame", 100*share)
		}
		l := ui.LayoutFor(got.Rect, g.cfg.Overlay.View(10))
		top := image.Rect(l.Picture.Min.X, l.Picture.Min.Y+4, l.Picture.Max.X, l.Picture.Min.Y+50)
		if s := redShare(got, top); s > 0.05 {
			t.Errorf("%.0f%% red at the top before death's door", 100*s)
		}
		updates <- cameraUpdate(uitest.DeathsDoor())
		if err := g.Update(); err != nil {
			t.Fatal(err)
		}
		got = readBack(g, 1280, 720)
		if s := redShare(got, top); s < 0.6 {
			t.Errorf("death's door: only %.0f%% of the banner area is red on screen", 100*s)
		}
	})
}

func TestWindowKeysAndClicks(t *testing.T) {
	updates := make(chan models.Update, 1)
	rec := &recorder{}
	in := &script{}
	g := newGame(rec, in, updates, ui.Normal)
	updates <- cameraUpdate(uitest.Midgame())
	l := ui.LayoutFor(image.Rect(0, 0, 1280, 720), ui.View{Update: cameraUpdate(uitest.Midgame())})
	plus := l.HUD[models.North].Plus.Min.Add(l.HUD[models.North].Plus.Size().Div(2))
	in.inputs = []Input{
		{Chars: []rune{'+'}},
		{Keys: []ui.Key{ui.KeyDown}, Shift: true},
		{Keys: []ui.Key{ui.KeyTab}},
		{Chars: []rune{'d'}},
		{Mouse: &plus, Click: true},
		{Keys: []ui.Key{ui.KeyUndo}},
		{Chars: []rune{'p'}},
	}
	onLoop(func() {
		for range 8 {
			if err := g.Update(); err != nil {
				t.Fatal(err)
			}
		}
	})
	want := []string{"life_gain south 1", "life_loss south 5", "damage north 1", "life_gain north 1", "undo", "paused true"}
	if fmt.Sprint(rec.calls) != fmt.Sprint(want) {
		t.Errorf("calls %q, want %q", rec.calls, want)
	}
	// ? shows the help over a dimmed frame; Esc closes it.
	var before, with, after *image.RGBA
	onLoop(func() {
		before = readBack(g, 1280, 720)
		in.inputs = []Input{{Chars: []rune{'?'}}}
		g.Update()
		with = readBack(g, 1280, 720)
		in.inputs = []Input{{Keys: []ui.Key{ui.KeyEscape}}}
		g.Update()
		after = readBack(g, 1280, 720)
	})
	corner := image.Rect(0, 60, 200, 200)
	if b, w := brightness(before, corner), brightness(with, corner); w > b*0.75 {
		t.Errorf("help shown: corner brightness %.0f, before %.0f: not dimmed", w, b)
	}
	if b, a := brightness(before, corner), brightness(after, corner); a < b*0.95 {
		t.Errorf("help closed: corner brightness %.0f, before %.0f", a, b)
	}
}

func brightness(img *image.RGBA, r image.Rectangle) float64 {
	var sum float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			sum += float64(c.R) + float64(c.G) + float64(c.B)
		}
	}
	return sum / float64(r.Dx()*r.Dy())
}

// TestScreenshots writes screenshots of known states, read back from
// Ebiten, when TABLECAM_SCREENSHOTS names a folder. (The README's
// docs/images/overlay-*.png are taken from the demo game with
// tablecam-overlay --screenshot.)
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("TABLECAM_SCREENSHOTS")
	if dir == "" {
		t.Skip("set TABLECAM_SCREENSHOTS=DIR to write the overlay's screenshots")
	}
	recent := uitest.Recent()
	shots := []struct {
		name string
		mode ui.Mode
		st   models.GameState
	}{
		{"known-normal.png", ui.Normal, uitest.Midgame()},
		{"known-deaths-door.png", ui.Normal, uitest.DeathsDoor()},
		{"known-stream.png", ui.Stream, uitest.DeathsDoor()},
	}
	for _, s := range shots {
		updates := make(chan models.Update, 2)
		o := ui.NewOverlay(&recorder{}, ui.Options{Mode: s.mode, Volume: 0.8, Background: ui.ChromaGreen()})
		clock := 10.0
		g := NewGame(context.Background(), Config{Overlay: o, Updates: updates, Input: &script{}, Clock: func() float64 { return clock }})
		u := cameraUpdate(s.st)
		if s.mode == ui.Stream {
			u.Image = nil
		}
		u.Events = recent[:5]
		updates <- models.Update{State: uitest.Midgame(), Events: recent[:len(recent)-2]}
		u.Events = recent[len(recent)-2:]
		updates <- u
		var img *image.RGBA
		onLoop(func() {
			g.Update()
			clock = 11
			img = readBack(g, 1280, 720)
		})
		f, err := os.Create(filepath.Join(dir, s.name))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

func TestStreamWindowIsTransparent(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bg    color.NRGBA
		alpha uint8
	}{{"transparent", color.NRGBA{}, 0}, {"chroma", ui.ChromaGreen(), 255}} {
		updates := make(chan models.Update, 1)
		o := ui.NewOverlay(&recorder{}, ui.Options{Mode: ui.Stream, Background: tc.bg, Volume: 0.8})
		g := NewGame(context.Background(), Config{Overlay: o, Updates: updates, Input: &script{}, Clock: func() float64 { return 0 }})
		updates <- models.Update{State: uitest.Midgame()}
		var img *image.RGBA
		onLoop(func() {
			g.Update()
			img = readBack(g, 1280, 720)
		})
		if c := img.RGBAAt(640, 300); c.A != tc.alpha || (tc.alpha == 255 && c.G != 255) {
			t.Errorf("%s: background pixel on screen %v", tc.name, c)
		}
		l := ui.LayoutFor(img.Rect, o.View(0))
		in := l.HUD[models.South].Panel.Min.Add(image.Pt(60, 60))
		if a := img.RGBAAt(in.X, in.Y).A; a != 255 {
			t.Errorf("%s: HUD alpha %d on screen", tc.name, a)
		}
	}
}

// TestShownOnce: the window says it is shown after its first frame, once.
func TestShownOnce(t *testing.T) {
	shown := 0
	g := NewGame(context.Background(), Config{Overlay: ui.NewOverlay(&recorder{}, ui.Options{}), Width: 320, Height: 180,
		Input: &script{}, Clock: func() float64 { return 0 }, Shown: func() { shown++ }})
	onLoop(func() {
		if shown != 0 {
			t.Errorf("shown %d times before the first frame", shown)
		}
		screen := ebiten.NewImage(320, 180)
		defer screen.Deallocate()
		for range 3 {
			g.Draw(screen)
		}
	})
	if shown != 1 {
		t.Errorf("shown %d times after three frames, want 1", shown)
	}
}
