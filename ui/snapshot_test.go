package ui

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/ui/internal/uitest"
)

// cameraImage is the stand-in camera frame, drawn once (it shows Midgame's cards).
var cameraImage = sync.OnceValues(func() (*image.RGBA, models.Quad) {
	return uitest.Camera(1280, 720, uitest.Midgame())
})

// gameClock is the time of day the test views' events start at.
var gameClock = time.Date(2026, 11, 29, 14, 2, 0, 0, time.UTC)

// views are the known states the painter's tests and snapshots draw.
func testViews() map[string]View {
	recent := func(now float64) []Recent {
		var out []Recent
		evs := uitest.Recent()
		for i, ev := range evs {
			out = append(out, Recent{Event: ev, At: now - float64(len(evs)-i)*1.5, Clock: gameClock.Add(time.Duration(i) * 37 * time.Second)})
		}
		return out
	}
	camera := func(st models.GameState) models.Update {
		img, q := cameraImage()
		return models.Update{Frame: 1520, Time: 50.6, Image: img, State: st,
			Observation: models.FrameObservation{Mat: models.MatObservation{Found: true, Corners: &q}}}
	}
	base := View{Now: 100, Recent: recent(100), Volume: 0.8, Focus: models.South}
	normal := base
	normal.Update = camera(uitest.Midgame())
	door := base
	door.Update = camera(uitest.DeathsDoor())
	blow := base
	blow.Update = camera(uitest.DeathBlow())
	board := base
	board.Update = models.Update{State: uitest.Midgame(), Frame: 3}
	rect := normal
	rect.Rectified = true
	stream := base
	stream.Mode = Stream
	stream.Update = models.Update{State: uitest.DeathsDoor()}
	stream.Background = ChromaGreen()
	help := normal
	help.Help = true
	correcting := normal
	correcting.Correcting = &Correcting{Cell: models.MustCell("C2"), Card: "Kiln Hound", Owner: models.South, Text: "ki",
		Suggestions: []string{"Kiln Hound", "Kindled Oak", "Skyward Kite"}, Selected: 1}
	hover := normal
	l := LayoutFor(image.Rect(0, 0, 1280, 720), hover)
	mouse := l.CellCenter(models.MustCell("D3")).Add(image.Pt(30, 20))
	hover.Mouse = &mouse
	resumed := normal
	resumed.Recent = append(recent(100)[:4:4], recent(100)[4:]...)
	for i := range resumed.Recent[:4] {
		resumed.Recent[i].Earlier = true
	}
	calibrating := normal
	calibrating.Calibrating = &Calibrating{Clicked: []image.Point{{120, 590}, {820, 590}}}
	return map[string]View{"correcting": correcting, "hover": hover, "calibrating": calibrating, "resumed": resumed, "normal": normal, "deaths-door": door, "death-blow": blow, "board": board,
		"rectified": rect, "stream": stream, "help": help}
}

func TestWriteSnapshots(t *testing.T) {
	dir := os.Getenv("TABLECAM_UI_SNAPSHOTS")
	if dir == "" {
		t.Skip("set TABLECAM_UI_SNAPSHOTS=DIR to write the painter's snapshots")
	}
	p := NewPainter()
	for name, v := range testViews() {
		dst := image.NewRGBA(image.Rect(0, 0, 1280, 720))
		p.Paint(dst, v)
		f, err := os.Create(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, dst); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if f, err := os.Create(filepath.Join(dir, "icon.png")); err == nil {
		png.Encode(f, AppIcon(128))
		f.Close()
	}
	for _, size := range []image.Point{{1920, 1080}, {854, 480}} {
		for _, name := range []string{"normal", "stream"} {
			dst := image.NewRGBA(image.Rectangle{Max: size})
			p.Paint(dst, testViews()[name])
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%dx%d.png", name, size.X, size.Y)))
			if err != nil {
				t.Fatal(err)
			}
			if err := png.Encode(f, dst); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
	}
}
