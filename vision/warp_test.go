package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// openCVWarp is the reference: OpenCV's bilinear WarpPerspective, black outside.
func openCVWarp(src gocv.Mat, toSrc homography, size image.Point) gocv.Mat {
	h := homographyMat(toSrc)
	defer h.Close()
	out := gocv.NewMat()
	gocv.WarpPerspectiveWithParams(src, &out, h, size, gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderConstant, color.RGBA{})
	return out
}

// warpDifference compares two images of the same size and type: the mean
// absolute difference per sample and the share of samples more than two
// grey levels apart.
func warpDifference(t *testing.T, a, b gocv.Mat) (mean, far float64) {
	t.Helper()
	if a.Rows() != b.Rows() || a.Cols() != b.Cols() || a.Type() != b.Type() {
		t.Fatalf("warps differ in shape: %dx%d %v and %dx%d %v", a.Cols(), a.Rows(), a.Type(), b.Cols(), b.Rows(), b.Type())
	}
	diff := gocv.NewMat()
	defer diff.Close()
	gocv.AbsDiff(a, b, &diff)
	flat := diff.Reshape(1, 0)
	defer flat.Close()
	n := float64(flat.Rows() * flat.Cols())
	mean = flat.Sum().Val1 / n
	gocv.Threshold(flat, &flat, 2, 255, gocv.ThresholdBinary)
	return mean, float64(gocv.CountNonZero(flat)) / n
}

// tiltedView is a view of a still's realm turned and tilted so that part of
// the top-down image falls outside the camera frame.
func tiltedView(v *view) *view {
	w := *v
	turn := homography{math.Cos(0.3), -math.Sin(0.3), 300, math.Sin(0.3), math.Cos(0.3), -200, 0.0002, 0.0001, 1}
	w.toImage = turn.Then(v.toImage)
	return &w
}

// turnedView is a view turned 70° about a point of the realm: along its
// rows, the source position climbs the camera frame's rows steeply, which
// the vector paths' windows of a few rows do not hold (they take their
// slower way).
func turnedView(v *view) *view {
	w := *v
	c, s := math.Cos(1.2), math.Sin(1.2)
	cx, cy := float64(v.size.X)/2, float64(v.size.Y)/2
	w.toImage = homography{c, -s, cx - c*cx + s*cy, s, c, cy - s*cx - c*cy, 0, 0, 1}.Then(v.toImage)
	return &w
}

func TestWarpMatchesOpenCV(t *testing.T) {
	prev := SetOpenCVThreads(1)
	defer SetOpenCVThreads(prev)
	for _, name := range []string{"0003", "0042", "0077"} {
		frame, cal, _ := stillFrame(t, name)
		defer frame.Close()
		gray := grayOf(frame)
		defer gray.Close()
		bgra := gocv.NewMat()
		defer bgra.Close()
		gocv.CvtColor(frame, &bgra, gocv.ColorBGRToBGRA)
		v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		views := map[string]*view{"full": v, "half": v.scaled(0.5), "tilted": tiltedView(v), "turned": turnedView(v.scaled(0.5)), "turned full": turnedView(v)}
		images := map[string]gocv.Mat{"grey": gray, "colour": frame, "BGRA": bgra}
		for vn, view := range views {
			for in, img := range images {
				t.Run(fmt.Sprintf("%s/%s/%s", name, vn, in), func(t *testing.T) {
					want := openCVWarp(img, view.toImage, view.size)
					defer want.Close()
					got := gocv.NewMat()
					defer got.Close()
					if err := view.warpInto(img, &got); err != nil {
						t.Fatal(err)
					}
					// OpenCV rounds source positions to 1/32 pixel and its
					// weights to 1/2048; ours are exact: a steep edge may
					// differ by a few levels, the rest by rounding.
					mean, far := warpDifference(t, got, want)
					if mean > 0.15 || far > 0.0005 {
						t.Errorf("mean difference %.3f levels, %.3f%% of samples more than 2 levels apart; want ≤ 0.15 and ≤ 0.05%%", mean, 100*far)
					}
					if vn == "tilted" && in == "grey" {
						if black := 1 - float64(gocv.CountNonZero(got))/float64(got.Rows()*got.Cols()); black < 0.05 {
							t.Errorf("only %.1f%% of the tilted view lies outside the frame; the test wants a view that leaves the frame", 100*black)
						}
					}
					if in == "BGRA" {
						return
					}
					// The vector paths must compute exactly what the plain one does.
					plain := gocv.NewMat()
					defer plain.Close()
					if err := warpPerspectiveWidth(img, &plain, view.toImage, view.size, noVectors); err != nil {
						t.Fatal(err)
					}
					for _, width := range []vectorWidth{avx2Vectors, widestVectors} {
						vec := gocv.NewMat()
						if err := warpPerspectiveWidth(img, &vec, view.toImage, view.size, width); err != nil {
							t.Fatal(err)
						}
						if mean, _ := warpDifference(t, vec, plain); mean != 0 {
							t.Errorf("vector width %d and plain warps differ: mean %.5f levels", width, mean)
						}
						vec.Close()
					}
				})
			}
		}
	}
}

// TestWarpBeyondHorizon checks that top-down pixels at or beyond the
// camera's horizon are black, not a mirrored copy of the frame as OpenCV's
// warp makes them.
func TestWarpBeyondHorizon(t *testing.T) {
	src := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 200, 200, 0), 100, 100, gocv.MatTypeCV8UC1)
	defer src.Close()
	// w = 1 - x/50: the columns x ≥ 50 are at or beyond the horizon, where
	// x' = (40 - x)/w lands back inside the source from x ≈ 61 on (y' is
	// 10 throughout).
	toSrc := homography{-1, 0, 40, -0.2, 0, 10, -1.0 / 50, 0, 1}
	mirrored := openCVWarp(src, toSrc, image.Pt(100, 40))
	r := mirrored.Region(image.Rect(50, 0, 100, 40))
	if gocv.CountNonZero(r) == 0 {
		t.Fatal("the test's homography maps nothing beyond the horizon into the source")
	}
	r.Close()
	mirrored.Close()
	for _, width := range []vectorWidth{noVectors, avx2Vectors, widestVectors} {
		out := gocv.NewMat()
		if err := warpPerspectiveWidth(src, &out, toSrc, image.Pt(100, 40), width); err != nil {
			t.Fatal(err)
		}
		before := out.Region(image.Rect(0, 0, 30, 40))
		beyond := out.Region(image.Rect(50, 0, 100, 40))
		if n := gocv.CountNonZero(before); n != 30*40 {
			t.Errorf("vector width %d: %d of the %d pixels in front of the horizon are lit, want all", width, n, 30*40)
		}
		if n := gocv.CountNonZero(beyond); n != 0 {
			t.Errorf("vector width %d: %d pixels beyond the horizon are lit, want none", width, n)
		}
		before.Close()
		beyond.Close()
		out.Close()
	}
}

// TestWarpSmallSource checks that the vector paths warp images narrower
// than their windows (64 bytes grey, 128 colour), and lower than their
// rows, exactly as the plain one does: every window reaches past the
// image, where it reads zeros (grey), or the group takes the slower way
// (colour).
func TestWarpSmallSource(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cols, rows int
		toSrc      homography
	}{
		{"narrow, magnified and turned", 40, 30, homography{0.3, -0.1, -4, 0.1, 0.3, -3, 0.0004, 0.0002, 1}},
		{"a colour window wide, turned", 50, 40, homography{0.35, -0.08, -5, 0.06, 0.3, -4, 0.0003, 0.0002, 1}},
		{"short, shrunk", 200, 3, homography{1.7, 0.05, -10, 0.02, 0.05, -0.5, 0, 0, 1}},
		{"one column", 1, 50, homography{0.1, 0, -1, 0, 0.5, -2, 0, 0.0005, 1}},
	} {
		for _, typ := range []gocv.MatType{gocv.MatTypeCV8UC1, gocv.MatTypeCV8UC3} {
			t.Run(fmt.Sprintf("%s/%d channels", tc.name, map[gocv.MatType]int{gocv.MatTypeCV8UC1: 1, gocv.MatTypeCV8UC3: 3}[typ]), func(t *testing.T) {
				src := gocv.NewMatWithSize(tc.rows, tc.cols, typ)
				defer src.Close()
				gocv.RandU(&src, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 256, 256, 0))
				size := image.Pt(160, 120)
				plain := gocv.NewMat()
				defer plain.Close()
				if err := warpPerspectiveWidth(src, &plain, tc.toSrc, size, noVectors); err != nil {
					t.Fatal(err)
				}
				samples := plain.Reshape(1, 0)
				defer samples.Close()
				if lit, all := gocv.CountNonZero(samples), size.X*size.Y*src.Channels(); lit < 100 || lit > all-100 {
					t.Fatalf("%d of %d samples lit: the view should show the image and beyond it", lit, all)
				}
				for _, width := range []vectorWidth{avx2Vectors, widestVectors} {
					vec := gocv.NewMat()
					if err := warpPerspectiveWidth(src, &vec, tc.toSrc, size, width); err != nil {
						t.Fatal(err)
					}
					if mean, _ := warpDifference(t, vec, plain); mean != 0 {
						t.Errorf("vector width %d and plain warps differ: mean %.5f levels", width, mean)
					}
					vec.Close()
				}
			})
		}
	}
}

// BenchmarkWarp compares the own warp with OpenCV's on a bundled still: the
// grey frame at full resolution and the colour frame at half, as a frame
// read in full warps them, through the still's view and through it turned
// 70° (a camera turned round the mat).
func BenchmarkWarp(b *testing.B) {
	frame, cal, _ := benchStill(b)
	v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	gray := grayOf(frame)
	defer gray.Close()
	out := gocv.NewMat()
	defer out.Close()
	for _, c := range []struct {
		name string
		img  gocv.Mat
		view *view
	}{{"grey full", gray, v}, {"colour half", frame, v.scaled(0.5)}, {"grey full turned", gray, turnedView(v)}, {"colour half turned", frame, turnedView(v.scaled(0.5))}} {
		b.Run("own "+c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := c.view.warpInto(c.img, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("OpenCV "+c.name, func(b *testing.B) {
			h := homographyMat(c.view.toImage)
			defer h.Close()
			for i := 0; i < b.N; i++ {
				gocv.WarpPerspectiveWithParams(c.img, &out, h, c.view.size, gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderConstant, color.RGBA{})
			}
		})
	}
}

// TestGrayFrameIsWhatTheWarpReads checks that the grey of only the part of
// a frame a view's warp reads (grayFrameInto) is grayInto's grey there,
// and that the warp of it is the warp of the whole frame's grey, pixel for
// pixel, whatever the rest of the grey image held: on bundled stills,
// through their view, a view of a corner of it (a small part of the frame)
// and one tilted past the frame's edges.
func TestGrayFrameIsWhatTheWarpReads(t *testing.T) {
	for _, name := range []string{"0003", "0042", "0077"} {
		frame, cal, _ := stillFrame(t, name)
		defer frame.Close()
		full := grayOf(frame)
		defer full.Close()
		v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		corner := *v
		corner.size = image.Pt(v.size.X/3, v.size.Y/3)
		views := map[string]*view{"full": v, "half": v.scaled(0.5), "corner": &corner, "tilted": tiltedView(v)}
		for vn, view := range views {
			t.Run(name+"/"+vn, func(t *testing.T) {
				got := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(165, 0, 0, 0), frame.Rows(), frame.Cols(), gocv.MatTypeCV8UC1)
				defer got.Close()
				if err := view.grayFrameInto(frame, &got); err != nil {
					t.Fatal(err)
				}
				r := view.warpSource(image.Pt(frame.Cols(), frame.Rows()))
				if vn == "corner" && r.Dx()*r.Dy() > frame.Cols()*frame.Rows()/2 {
					t.Errorf("the corner view reads %v of the %dx%d frame; the test wants one that reads a small part", r, frame.Cols(), frame.Rows())
				}
				a, b := got.Region(r), full.Region(r)
				if n := differing(a, b); n != 0 {
					t.Errorf("%d of the %v part's pixels differ from the whole frame's grey", n, r)
				}
				a.Close()
				b.Close()
				want := gocv.NewMat()
				defer want.Close()
				top := gocv.NewMat()
				defer top.Close()
				if err := view.warpInto(full, &want); err != nil {
					t.Fatal(err)
				}
				if err := view.warpInto(got, &top); err != nil {
					t.Fatal(err)
				}
				if n := differing(top, want); n != 0 {
					t.Errorf("%d of the top-down pixels differ from the warp of the whole frame's grey (%v read)", n, r)
				}
			})
		}
	}
}

// TestGrayIsCvtColor checks the own BGR to grey conversion against
// gocv.CvtColor byte for byte, at every vector width: on an image of all
// 2^24 colours, on noise of sizes that are no multiple of the vectors',
// and on a region of a still (the rest of the grey image left as it was).
func TestGrayIsCvtColor(t *testing.T) {
	pix := make([]byte, 3*4096*4096)
	for i := 0; i < 4096*4096; i++ {
		pix[3*i], pix[3*i+1], pix[3*i+2] = byte(i), byte(i>>8), byte(i>>16)
	}
	all, err := gocv.NewMatFromBytes(4096, 4096, gocv.MatTypeCV8UC3, pix)
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	images, names := []gocv.Mat{all}, []string{"all colours"}
	for _, size := range []image.Point{{1, 1}, {63, 2}, {65, 3}, {130, 7}, {681, 5}} {
		noise := gocv.NewMatWithSize(size.Y, size.X, gocv.MatTypeCV8UC3)
		defer noise.Close()
		gocv.RandU(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 256, 256, 0))
		images, names = append(images, noise), append(names, fmt.Sprintf("noise %dx%d", size.X, size.Y))
	}
	for i, img := range images {
		want := grayOf(img)
		for _, width := range []vectorWidth{noVectors, widestVectors} {
			got := gocv.NewMat()
			if err := grayRegionInto(img, &got, image.Rect(0, 0, img.Cols(), img.Rows()), width); err != nil {
				t.Fatal(err)
			}
			if n := differing(got, want); n != 0 {
				t.Errorf("%s, vector width %d: %d of %d pixels differ from CvtColor's grey", names[i], width, n, img.Rows()*img.Cols())
			}
			got.Close()
		}
		want.Close()
	}
	frame, _, _ := stillFrame(t, "0003")
	defer frame.Close()
	want := grayOf(frame)
	defer want.Close()
	r := image.Rect(37, 21, 1001, 650)
	for _, width := range []vectorWidth{noVectors, widestVectors} {
		got := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(165, 0, 0, 0), frame.Rows(), frame.Cols(), gocv.MatTypeCV8UC1)
		if err := grayRegionInto(frame, &got, r, width); err != nil {
			t.Fatal(err)
		}
		in, wantIn := got.Region(r), want.Region(r)
		if n := differing(in, wantIn); n != 0 {
			t.Errorf("still region, vector width %d: %d pixels differ from CvtColor's grey", width, n)
		}
		data, err := got.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		outside := 0
		for y := 0; y < got.Rows(); y++ {
			for x := 0; x < got.Cols(); x++ {
				if !image.Pt(x, y).In(r) && data[y*got.Cols()+x] != 165 {
					outside++
				}
			}
		}
		if outside != 0 {
			t.Errorf("still region, vector width %d: %d pixels outside the region changed", width, outside)
		}
		in.Close()
		wantIn.Close()
		got.Close()
	}
}
