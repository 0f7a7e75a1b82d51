package calibration

import (
	"testing"

	"gocv.io/x/gocv"
)

func TestDrifted(t *testing.T) {
	t.Parallel()
	base := scene{seed: 31, tiltDeg: 18, rotDeg: 4, widthFrac: 0.7, lineMM: 1.5, borderMM: 3, contrast: 0.8,
		lightLines: true, busy: true, cards: 8, noise: 3, jpegQuality: 88}
	ref, _ := base.render(t)
	c, err := Detect(ref, Options{})
	ref.Close()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(s scene) scene
		dim    float64 // scale the brightness of the new frame (0 = unchanged)
		want   bool
	}{
		{"same table, new sensor noise", func(s scene) scene { return s }, 0, false},
		{"hand over the mat", func(s scene) scene { s.hand = true; return s }, 0, false},
		{"five more cards", func(s scene) scene { s.cards += 5; return s }, 0, false},
		{"lights dimmed", func(s scene) scene { return s }, 0.7, false},
		{"one pixel of jitter", func(s scene) scene { s.shiftX += 1; return s }, 0, false},
		{"camera moved 8 px sideways", func(s scene) scene { s.shiftX += 8; return s }, 0, true},
		{"camera moved 6 px down", func(s scene) scene { s.shiftY += 6; return s }, 0, true},
		{"mat turned 1.5°", func(s scene) scene { s.rotDeg += 1.5; return s }, 0, true},
		{"mat turned 2°", func(s scene) scene { s.rotDeg += 2; return s }, 0, true},
		{"camera tilted further", func(s scene) scene { s.tiltDeg += 5; return s }, 0, true},
		{"camera zoomed", func(s scene) scene { s.widthFrac += 0.03; return s }, 0, true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.change(base)
			s.noiseSeed = uint64(i + 1) // every new frame has noise of its own
			frame, _ := s.render(t)
			defer frame.Close()
			if tt.dim > 0 {
				frame.ConvertToWithParams(&frame, gocv.MatTypeCV8UC3, float32(tt.dim), 0)
			}
			got, score := c.Drifted(frame)
			n, _ := c.driftCounts(frame)
			t.Logf("score %.2f, %+v", score, n)
			if got != tt.want {
				t.Errorf("Drifted = %v (score %.2f), want %v", got, score, tt.want)
			}
			if score < 0 || score > 1 {
				t.Errorf("score %.2f outside 0–1", score)
			}
		})
	}
	// A frame of another size means the camera changed.
	small := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3)
	defer small.Close()
	if got, _ := c.Drifted(small); !got {
		t.Error("a 640x480 frame for a 1280x720 calibration is not reported as drifted")
	}
}

func TestDriftedManualReference(t *testing.T) {
	t.Parallel()
	s := scene{seed: 32, tiltDeg: 10, widthFrac: 0.7, lineMM: 2, borderMM: 2, contrast: 1, cards: 4, noise: 2}
	frame, truth := s.render(t)
	defer frame.Close()
	c, err := FromCorners(truth, frame.Cols(), frame.Rows())
	if err != nil {
		t.Fatal(err)
	}
	if c.Reference != nil {
		t.Fatal("manual calibration has a reference before seeing a frame")
	}
	if got, _ := c.Drifted(frame); got || c.Reference == nil {
		t.Fatalf("first Drifted = %v, reference set %v; want false and set", got, c.Reference != nil)
	}
	s.shiftX += 10
	moved, _ := s.render(t)
	defer moved.Close()
	if got, score := c.Drifted(moved); !got {
		t.Errorf("moved camera not reported (score %.2f)", score)
	}
}
