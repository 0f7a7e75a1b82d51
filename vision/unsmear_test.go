package vision

import (
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// TestUnsmearFrame smears bundled stills' camera frames as a camera moving
// while it exposes does (evenly over the frame, 10-18 px, several
// directions) and reads them as the analyzer does: the smear is found and
// undone in the camera frame (unsmearFrame), and the top-down image warped
// from it again is as sharp along its softer axis as when the smear is
// looked for in the top-down image only (no frame given), and much
// sharper where that search misses it. The
// analyzer then names the still's wholly shown cards, and names none
// wrongly.
func TestUnsmearFrame(t *testing.T) {
	a, err := NewAnalyzer(devCatalog(t), Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, c := range []struct {
		still string
		n     int     // smear, camera pixels
		angle float64 // degrees
		// sharper: the top-down image's own search misses this smear
		// (its softer axis stays 0.33), the camera frame's finds it.
		sharper bool
	}{
		{"0003", 12, 20, false},
		{"0042", 16, 100, true},
		{"0077", 18, 145, false},
		{"0021", 10, 170, false},
	} {
		frame, cal, truth := stillFrame(t, c.still)
		defer frame.Close()
		smear(&frame, c.n, c.angle*math.Pi/180)
		v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		read := func(inFrame bool) (bool, axisSharpness) {
			frameGray, gray, blurred := grayOf(frame), gocv.NewMat(), gocv.NewMat()
			defer frameGray.Close()
			defer gray.Close()
			defer blurred.Close()
			if err := v.warpInto(frameGray, &gray); err != nil {
				t.Fatal(err)
			}
			fg := &frameGray
			if !inFrame {
				fg = nil
			}
			sharpened, s, _ := sharpenIfSoft(&gray, &blurred, fg, v, nil)
			return sharpened, s
		}
		_, topOnly := read(false)
		sharpened, s := read(true)
		want := topOnly.softer() - 0.01
		if c.sharper {
			want = topOnly.softer() + 0.1
		}
		if !sharpened || s.softer() < want {
			t.Errorf("still %s smeared %d px at %.0f°: sharpened %v, softer axis %.2f, want %.2f or more (%.2f with the smear looked for in the top-down image only)",
				c.still, c.n, c.angle, sharpened, s.softer(), want, topOnly.softer())
		}
		obs, err := a.Analyze(frame, cal)
		if err != nil {
			t.Fatal(err)
		}
		named := map[string]int{}
		for _, o := range obs.Cards {
			if o.Slug != nil {
				named[*o.Slug]++
			}
		}
		whole, found := 0, 0
		defer func() {
			if found < whole {
				t.Errorf("still %s smeared %d px at %.0f°: %d of %d wholly shown cards named", c.still, c.n, c.angle, found, whole)
			}
		}()
		shown := map[string]int{}
		for _, ct := range truth.Cards {
			shown[ct.Slug]++
			if ct.VisibleFraction < 0.999 {
				continue
			}
			whole++
			if named[ct.Slug] > 0 {
				found++
			}
		}
		for slug, n := range named {
			if shown[slug] == 0 {
				t.Errorf("still %s smeared %d px at %.0f°: %d card(s) named %s, which the still does not show", c.still, c.n, c.angle, n, slug)
			}
		}
		t.Logf("still %s smeared %d px at %.0f°: softer axis %.2f (top-down search %.2f); %d of %d wholly shown cards named", c.still, c.n, c.angle, s.softer(), topOnly.softer(), found, whole)
	}
}
