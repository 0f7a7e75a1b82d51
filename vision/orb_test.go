package vision

import (
	"fmt"
	"image"
	"slices"
	"sort"
	"testing"

	"gocv.io/x/gocv"
)

// equalizedStill is a bundled still's equalised top-down grey image, as
// keypoints are looked for in it (caller closes).
func equalizedStill(t *testing.T, name string) gocv.Mat {
	t.Helper()
	gray, v := stillTopGray(t, name)
	defer gray.Close()
	eq := newContrastEqualizer(v.pxPerMM)
	defer eq.close()
	out := gocv.NewMat()
	eq.equalize(gray, &out)
	return out
}

// sortedFeatures lists features as "x,y:descriptor", sorted.
func sortedFeatures(f features) []string {
	out := make([]string, len(f.Points))
	for i, p := range f.Points {
		out[i] = fmt.Sprintf("%.2f,%.2f:%x", p.X, p.Y, f.Descs[i])
	}
	sort.Strings(out)
	return out
}

// fastScoreORB is OpenCV's ORB as the frame detector is to reproduce it:
// the frame's parameters, FAST scores, keeping n keypoints (caller closes).
func fastScoreORB(n int) gocv.ORB {
	return gocv.NewORBWithParams(n, orbScaleFactor, orbLevels, orbPatch, 0, 2, gocv.ORBScoreTypeFAST, orbPatch, fastThreshold)
}

// TestFrameORBIsORB checks that the frame detector keeps exactly the
// keypoints and descriptors OpenCV's ORB with FAST scores keeps, frame after
// frame, whatever threshold the last frame left it with: busy frames, a
// frame so dark that FAST at ORB's own threshold yields fewer corners than
// ORB keeps, and busy frames again after it.
func TestFrameORBIsORB(t *testing.T) {
	a, b := equalizedStill(t, "0003"), equalizedStill(t, "0010")
	defer a.Close()
	defer b.Close()
	dark := gocv.NewMat()
	defer dark.Close()
	a.ConvertToWithParams(&dark, gocv.MatTypeCV8U, 0.15, 0) // a dim room, unequalised
	const n = 10000
	ref := fastScoreORB(n)
	defer ref.Close()
	fast, avx2, scalar := newFrameORB(n), newFrameORBWidth(n, avx2Vectors), newFrameORBWidth(n, noVectors)
	defer fast.close()
	defer avx2.close()
	defer scalar.close()
	empty := gocv.NewMat()
	defer empty.Close()
	for i, tc := range []struct {
		name string
		img  gocv.Mat
	}{{"busy", a}, {"another busy", b}, {"the same again", b}, {"dark", dark}, {"busy after dark", a}, {"dark after busy", dark}} {
		want, err := detect(&ref, tc.img, empty)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Points) < 100 {
			t.Fatalf("frame %d (%s): ORB found only %d keypoints: not a test", i, tc.name, len(want.Points))
		}
		ws := sortedFeatures(want)
		for _, d := range []struct {
			name string
			orb  *frameORB
		}{{"frameORB", fast}, {"frameORB with AVX2 at most", avx2}, {"frameORB without SIMD", scalar}} {
			got, err := d.orb.detect(tc.img)
			if err != nil {
				t.Fatal(err)
			}
			got.describeAll()
			gs := sortedFeatures(got)
			if len(ws) != len(gs) {
				t.Fatalf("frame %d (%s): %s finds %d keypoints, ORB %d", i, tc.name, d.name, len(gs), len(ws))
			}
			for k := range ws {
				if ws[k] != gs[k] {
					t.Fatalf("frame %d (%s): %s finds keypoint %s, ORB %s", i, tc.name, d.name, gs[k], ws[k])
				}
			}
		}
	}
}

// TestFrameORBDescribesAnyFew checks that the keypoints described a few at
// a time, scattered and out of order, as a frame's matching asks for them,
// get ORB's descriptors: each one's blur is made around it (see
// blurAround), never read from an image or a part not blurred yet.
func TestFrameORBDescribesAnyFew(t *testing.T) {
	a, b := equalizedStill(t, "0003"), equalizedStill(t, "0010")
	defer a.Close()
	defer b.Close()
	const n = 10000
	ref := fastScoreORB(n)
	defer ref.Close()
	o := newFrameORB(n)
	defer o.close()
	empty := gocv.NewMat()
	defer empty.Close()
	for _, tc := range []struct {
		name  string
		img   gocv.Mat
		every int // describe every every-th keypoint, last first
	}{{"busy, every 97th", a, 97}, {"another busy, every 31st", b, 31}, {"busy again, every 7th", a, 7}} {
		want, err := detect(&ref, tc.img, empty)
		if err != nil {
			t.Fatal(err)
		}
		// (A keypoint of the second level may land where one of the
		// first lies.)
		wants := map[keypoint][]descriptor{}
		for i, p := range want.Points {
			wants[p] = append(wants[p], want.Descs[i])
		}
		got, err := o.detect(tc.img)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Points) != len(want.Points) {
			t.Fatalf("%s: %d keypoints, ORB %d", tc.name, len(got.Points), len(want.Points))
		}
		checked := 0
		for i := len(got.Points) - 1; i >= 0; i -= tc.every {
			got.describe([]int{i})
			w := wants[got.Points[i]]
			if !slices.Contains(w, got.Descs[i]) {
				t.Fatalf("%s: keypoint %d at %v described %x, ORB %x", tc.name, i, got.Points[i], got.Descs[i], w)
			}
			checked++
		}
		if checked < 50 {
			t.Fatalf("%s: only %d keypoints checked: not a test", tc.name, checked)
		}
	}
}

// TestFrameORBLevelWithoutQuota checks a budget so small that the second
// pyramid level's quota is nothing: the first level's keypoint keeps its
// own position there (where its angle and descriptor are read), and all is
// still what OpenCV's ORB finds.
func TestFrameORBLevelWithoutQuota(t *testing.T) {
	img := equalizedStill(t, "0003")
	defer img.Close()
	empty := gocv.NewMat()
	defer empty.Close()
	for _, n := range []int{1, 2} {
		ref := fastScoreORB(n)
		want, err := detect(&ref, img, empty)
		ref.Close()
		if err != nil {
			t.Fatal(err)
		}
		o := newFrameORB(n)
		got, err := o.detect(img)
		if err != nil {
			o.close()
			t.Fatal(err)
		}
		got.describeAll()
		o.close()
		if len(want.Points) == 0 || len(got.Points) != len(want.Points) {
			t.Fatalf("budget %d: %d keypoints, ORB %d (want some)", n, len(got.Points), len(want.Points))
		}
		ws, gs := sortedFeatures(want), sortedFeatures(got)
		for k := range ws {
			if ws[k] != gs[k] {
				t.Errorf("budget %d: keypoint %s, ORB %s", n, gs[k], ws[k])
			}
		}
	}
}

// TestFrameORBLooksAgain checks the frame detector's ways of looking again
// at its own threshold on a level where the last frame's leaves it short of
// corners: a quarter of the way down, when the rows so far hold too few (a
// dim frame after a busy one), and whole, when they did not (a frame busy
// only in its top third after a busy one); and that either way, and on the
// frames after, it keeps exactly what OpenCV's ORB keeps.
func TestFrameORBLooksAgain(t *testing.T) {
	busy := equalizedStill(t, "0003")
	defer busy.Close()
	dim := gocv.NewMat()
	defer dim.Close()
	busy.ConvertToWithParams(&dim, gocv.MatTypeCV8U, 0.15, 0)
	// The top third of the busy frame over the dim one.
	top := dim.Clone()
	defer top.Close()
	third := busy.Rows() / 3
	src, dst := busy.Region(image.Rect(0, 0, busy.Cols(), third)), top.Region(image.Rect(0, 0, busy.Cols(), third))
	src.CopyTo(&dst)
	src.Close()
	dst.Close()
	n := Options{}.frameFeatures()
	ref := fastScoreORB(n)
	defer ref.Close()
	o := newFrameORB(n)
	defer o.close()
	empty := gocv.NewMat()
	defer empty.Close()
	// The busy frame under a dim top third, which holds no corner the
	// detector keeps.
	bottom := busy.Clone()
	defer bottom.Close()
	src, dst = dim.Region(image.Rect(0, 0, busy.Cols(), third)), bottom.Region(image.Rect(0, 0, busy.Cols(), third))
	src.CopyTo(&dst)
	src.Close()
	dst.Close()
	const no, some, either = 0, 1, -1
	for i, tc := range []struct {
		name         string
		img          gocv.Mat
		early, whole int // whether some level is looked at again so
	}{
		{"busy", busy, no, no},
		{"busy again", busy, no, no},
		{"dim after busy", dim, some, no},
		{"busy after dim", busy, no, no},
		{"busy at the top after busy", top, no, some},
		{"busy after that", busy, no, no},
		{"busy below a dim top after busy", bottom, either, either},
		{"the same again", bottom, no, no},
		{"and again", bottom, no, no},
	} {
		early0, whole0, ok := o.lookedAgain()
		if !ok {
			t.Skip("the detector's own FAST does not run on this processor")
		}
		want, err := detect(&ref, tc.img, empty)
		if err != nil {
			t.Fatal(err)
		}
		got, err := o.detect(tc.img)
		if err != nil {
			t.Fatal(err)
		}
		got.describeAll()
		early, whole, _ := o.lookedAgain()
		if tc.early != either && (early > early0) != (tc.early == some) || tc.whole != either && (whole > whole0) != (tc.whole == some) {
			t.Errorf("frame %d (%s): levels looked at again early %d, whole %d; want early %s, whole %s",
				i, tc.name, early-early0, whole-whole0, []string{"none", "some"}[tc.early], []string{"none", "some"}[tc.whole])
		}
		ws, gs := sortedFeatures(want), sortedFeatures(got)
		if len(ws) < 100 || len(gs) != len(ws) {
			t.Fatalf("frame %d (%s): %d keypoints, ORB %d (want 100 or more)", i, tc.name, len(gs), len(ws))
		}
		for k := range ws {
			if ws[k] != gs[k] {
				t.Fatalf("frame %d (%s): keypoint %s, ORB %s", i, tc.name, gs[k], ws[k])
			}
		}
	}
}
