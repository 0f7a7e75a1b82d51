package pipeline

import (
	"context"
	"fmt"
	"image"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/vision"
	"gocv.io/x/gocv"
)

// TestKnockedCameraMakesNoMoves plays a still board whose camera is knocked
// 60 px aside two seconds in. Read through the old corners, every card
// seems to jump a cell or vanish; the game must be held from the first
// check that sees the move until the realm is found again, so the journal
// gets no move, removal or tap that did not happen.
func TestKnockedCameraMakesNoMoves(t *testing.T) {
	still := gocv.IMRead("../samples/stills/0008.jpg", gocv.IMReadColor)
	if still.Empty() {
		t.Skip("no sample stills")
	}
	defer still.Close()
	for _, knockAt := range []int{60, 62} { // on a drift check's frame, and between two
		t.Run(fmt.Sprintf("knocked at frame %d", knockAt), func(t *testing.T) {
			dir := knockedCameraFrames(t, still, -60, -30, knockAt, 120)
			log := &syncBuffer{}
			cfg := Config{Frames: dir, Camera: -1, Catalog: sampleCatalog(t), Vision: vision.Options{CacheDir: t.TempDir()},
				Journal: filepath.Join(t.TempDir(), "j.jsonl"), Log: log}
			s, err := Start(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var before, after int
			for u := range s.Updates() {
				for _, ev := range u.Events {
					if ev.Frame == nil || *ev.Frame < knockAt {
						before++
						continue
					}
					after++
					switch ev.Type {
					case models.UnitMoved, models.CardRemoved, models.SiteDestroyed, models.CardTapped, models.CardUntapped:
						t.Errorf("frame %d: %s %s (from %v to %v): nothing moved on the table", *ev.Frame, ev.Type, ev.Card, ev.From, ev.To)
					}
				}
			}
			if err := s.Wait(); err != nil {
				t.Fatal(err)
			}
			if before == 0 {
				t.Fatalf("the board was not read before the knock:\n%s", log.String())
			}
			if !strings.Contains(log.String(), "realm found again") {
				t.Errorf("the knock was not noticed:\n%s", log.String())
			}
		})
	}
}

// knockedCameraFrames writes a folder of frames numbered from 000: the
// still, and from frame knockAt on the still shifted by (dx, dy) pixels, as
// a knocked camera sees it.
func knockedCameraFrames(t *testing.T, still gocv.Mat, dx, dy float64, knockAt, frames int) string {
	t.Helper()
	shift := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer shift.Close()
	for i, v := range []float64{1, 0, dx, 0, 1, dy} {
		shift.SetDoubleAt(i/3, i%3, v)
	}
	moved := gocv.NewMat()
	defer moved.Close()
	gocv.WarpAffine(still, &moved, shift, image.Pt(still.Cols(), still.Rows()))
	dir := t.TempDir()
	for i := 0; i < frames; i++ {
		img := still
		if i >= knockAt {
			img = moved
		}
		if !gocv.IMWrite(filepath.Join(dir, fmt.Sprintf("%03d.jpg", i)), img) {
			t.Fatal("cannot write a frame")
		}
	}
	return dir
}
