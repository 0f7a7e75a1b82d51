package synth

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"strconv"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// TestDebugOverlay writes a scene with its truth quads drawn, when SYNTH_DEBUG names a file.
func TestDebugOverlay(t *testing.T) {
	out := os.Getenv("SYNTH_DEBUG")
	if out == "" {
		t.Skip("set SYNTH_DEBUG=file.png to write an overlay")
	}
	cat, err := models.LoadCatalog("../samples/catalog")
	if err != nil {
		t.Skip(err)
	}
	sc, err := RenderScene(cat, 5, SceneOptions{HandChance: 1})
	if err != nil {
		t.Fatal(err)
	}
	img := sc.Image
	line := func(a, b models.Point, c color.RGBA) {
		for k := 0; k <= 400; k++ {
			u := float64(k) / 400
			x, y := int(a.X+(b.X-a.X)*u), int(a.Y+(b.Y-a.Y)*u)
			if image.Pt(x, y).In(img.Rect) {
				img.SetRGBA(x, y, c)
			}
		}
	}
	for _, c := range sc.Truth.Cards {
		for k := 0; k < 4; k++ {
			col := color.RGBA{255, 0, 255, 255}
			if k == 0 {
				col = color.RGBA{0, 255, 0, 255}
			}
			line(c.Quad[k], c.Quad[(k+1)%4], col)
		}
		t.Logf("%v %s %s rot %d vis %.2f", c.Cell, c.Name, c.Owner, c.Rotation, c.VisibleFraction)
	}
	for k := 0; k < 4; k++ {
		line(sc.Truth.Corners[k], sc.Truth.Corners[(k+1)%4], color.RGBA{255, 255, 0, 255})
	}
	t.Log("occluded", sc.Truth.Occluded)
	f, _ := os.Create(out)
	defer f.Close()
	png.Encode(f, img)
}

// TestDebugVideoFrame writes frame SYNTH_DEBUG_FRAME of the video SYNTH_DEBUG_VIDEO to SYNTH_DEBUG.
func TestDebugVideoFrame(t *testing.T) {
	video, out := os.Getenv("SYNTH_DEBUG_VIDEO"), os.Getenv("SYNTH_DEBUG")
	if video == "" || out == "" {
		t.Skip("set SYNTH_DEBUG_VIDEO, SYNTH_DEBUG_FRAME and SYNTH_DEBUG to extract a frame")
	}
	n, _ := strconv.Atoi(os.Getenv("SYNTH_DEBUG_FRAME"))
	vc, err := gocv.VideoCaptureFile(video)
	if err != nil {
		t.Fatal(err)
	}
	defer vc.Close()
	m := gocv.NewMat()
	defer m.Close()
	for i := 0; i <= n; i++ {
		if !vc.Read(&m) {
			t.Fatalf("video ends before frame %d", n)
		}
	}
	gocv.IMWrite(out, m)
}
