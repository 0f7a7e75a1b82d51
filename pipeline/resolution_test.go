package pipeline

import (
	"fmt"
	"image"
	"io"
	"path/filepath"
	"slices"
	"testing"

	"gocv.io/x/gocv"
)

// scaledSource shows frames from..until-1 of a video at another size, as a
// webcam of another resolution would (soft lines where it scales up).
type scaledSource struct {
	Source
	size        image.Point
	from, until int
}

func (s *scaledSource) Read(dst *gocv.Mat) (Frame, error) {
	if err := s.Source.Skip(s.from); err != nil {
		return Frame{}, err
	}
	fr, err := s.Source.Read(dst)
	if err != nil {
		return fr, err
	}
	if fr.Index >= s.until {
		return Frame{}, io.EOF
	}
	gocv.Resize(*dst, dst, s.size, 0, 0, gocv.InterpolationLinear)
	return fr, nil
}

// TestOtherResolutions runs the whole pipeline (automatic calibration, real
// vision, tracker) on the start of the bundled demo game scaled to other
// frame sizes: the game must start and its first cards must be read. Scaled
// up, the mat's lines are soft, and automatic calibration settles on the
// wrong lattice (half the realm's rows) in some frames (frame 4 of the demo
// at 1280×720, for one); the session must not stay on it.
func TestOtherResolutions(t *testing.T) {
	if testing.Short() {
		t.Skip("reads about 80 frames through vision per case")
	}
	video := filepath.Join("..", "samples", "games", "demo", "game.avi")
	want := []string{"game_start", "card_tapped Tide Oracle C1", "unit_summoned Wandering Tinker C1"}
	for _, tc := range []struct {
		size image.Point
		from int
	}{
		{image.Pt(1280, 720), 0},
		{image.Pt(1280, 720), 4},
		{image.Pt(1280, 720), 5},
		{image.Pt(640, 360), 0},
	} {
		t.Run(fmt.Sprintf("%dx%d from frame %d", tc.size.X, tc.size.Y, tc.from), func(t *testing.T) {
			src, err := OpenVideo(video)
			if err != nil {
				t.Skip("no demo game:", err)
			}
			defer src.Close()
			log := &syncBuffer{}
			cfg := Config{Source: &scaledSource{Source: src, size: tc.size, from: tc.from, until: 80}, Catalog: sampleCatalog(t),
				Journal: filepath.Join(t.TempDir(), "game.jsonl"), Log: log}
			evs, _ := watch(t, cfg)
			for _, w := range want {
				if !slices.Contains(evs, w) {
					t.Errorf("no %q in the events %q\nlog:\n%s", w, evs, log)
				}
			}
		})
	}
}
