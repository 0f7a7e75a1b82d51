package vision

import (
	"fmt"
	"image"
	"slices"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// TestCannyIsOpenCVs checks that canny marks exactly the edges OpenCV's
// Canny marks, on blurred and sharp stills, on noise (where most pixels
// pass the low threshold), on images narrower than the eight pixels done at
// once, and with the thresholds given the wrong way round; and with its
// options, exactly those of OpenCV's GaussianBlur before and Dilate after.
func TestCannyIsOpenCVs(t *testing.T) {
	type input struct {
		name      string
		img       gocv.Mat
		low, high float64
	}
	var inputs []input
	for _, name := range []string{"0003", "0042"} {
		gray, _ := stillTopGray(t, name)
		defer gray.Close()
		blur := gocv.NewMat()
		defer blur.Close()
		gocv.GaussianBlur(gray, &blur, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
		inputs = append(inputs, input{name + " blurred", blur, 40, 120}, input{name + " sharp", gray, 40, 120}, input{name + " swapped", blur, 120.7, 40.2})
	}
	noise := gocv.NewMatWithSize(203, 301, gocv.MatTypeCV8UC1)
	defer noise.Close()
	gocv.RandU(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 0, 0, 0))
	inputs = append(inputs, input{"noise", noise, 40, 120}, input{"noise low", noise, 300, 600})
	for _, size := range []image.Point{{1, 1}, {5, 3}, {7, 9}, {13, 2}} {
		small := gocv.NewMatWithSize(size.Y, size.X, gocv.MatTypeCV8UC1)
		defer small.Close()
		gocv.RandU(&small, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 0, 0, 0))
		inputs = append(inputs, input{fmt.Sprintf("noise %dx%d", size.X, size.Y), small, 40, 120})
	}
	d := newEdgeDetector()
	defer d.close()
	none := gocv.NewMat()
	defer none.Close()
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer kernel.Close()
	for _, in := range inputs {
		want := gocv.NewMat()
		gocv.Canny(in.img, &want, float32(in.low), float32(in.high))
		// The options: the edges of the image blurred as the outline search
		// blurs it, and the edges dilated as it thickens them.
		blurred, wantBlurred := gocv.NewMat(), gocv.NewMat()
		gocv.GaussianBlur(in.img, &blurred, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
		gocv.Canny(blurred, &wantBlurred, float32(in.low), float32(in.high))
		for _, opts := range []cannyOptions{{}, {blur: true}, {thick: true}, {blur: true, thick: true}} {
			w := want.Clone()
			if opts.blur {
				wantBlurred.CopyTo(&w)
			}
			if opts.thick {
				gocv.Dilate(w, &w, kernel)
			}
			for _, width := range []vectorWidth{widestVectors, avx2Vectors, noVectors} {
				got := gocv.NewMat()
				if err := d.cannyWidth(in.img, none, &got, in.low, in.high, opts, width); err != nil {
					t.Fatal(err)
				}
				diff := gocv.NewMat()
				gocv.BitwiseXor(got, w, &diff)
				if n := gocv.CountNonZero(diff); n != 0 {
					t.Errorf("%s (vectors %d, %+v): %d of %d pixels differ from OpenCV's (%d edge pixels)", in.name, width, opts, n, in.img.Rows()*in.img.Cols(), gocv.CountNonZero(w))
				}
				diff.Close()
				got.Close()
			}
			w.Close()
		}
		// The edges, thin and thickened, and the blurred image at once;
		// the source a region of a bigger image.
		framed := gocv.NewMatWithSize(in.img.Rows()+4, in.img.Cols()+6, gocv.MatTypeCV8UC1)
		gocv.RandU(&framed, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 0, 0, 0))
		region := framed.Region(image.Rect(3, 2, in.img.Cols()+3, in.img.Rows()+2))
		in.img.CopyTo(&region)
		wantThick := gocv.NewMat()
		gocv.Dilate(wantBlurred, &wantThick, kernel)
		for _, width := range []vectorWidth{widestVectors, avx2Vectors, noVectors} {
			got, gotThick, gotBlurred := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
			if err := d.cannyWidth(region, none, &got, in.low, in.high, cannyOptions{blur: true, thickToo: &gotThick, blurred: &gotBlurred}, width); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				what      string
				got, want gocv.Mat
			}{{"edges", got, wantBlurred}, {"thick edges", gotThick, wantThick}, {"blurred image", gotBlurred, blurred}} {
				diff := gocv.NewMat()
				gocv.AbsDiff(c.got, c.want, &diff)
				if n := gocv.CountNonZero(diff); n != 0 {
					t.Errorf("%s (vectors %d), all at once: %d of %d pixels of the %s differ from OpenCV's", in.name, width, n, in.img.Rows()*in.img.Cols(), c.what)
				}
				diff.Close()
			}
			got.Close()
			gotThick.Close()
			gotBlurred.Close()
		}
		wantThick.Close()
		region.Close()
		framed.Close()
		blurred.Close()
		wantBlurred.Close()
		if in.name == "0003 blurred" && gocv.CountNonZero(want) < 1000 {
			t.Errorf("%s: only %d edge pixels; the comparison wants a frame with edges", in.name, gocv.CountNonZero(want))
		}
		want.Close()
	}
}

// TestCannyMask checks that no edge is marked under the mask and none is
// followed through it: a vertical step, strong at the top and weak below,
// is found whole without a mask; with a band across it masked, the weak
// part below the band has no strong part to follow from and is dropped,
// while the weak part above it still hangs from the strong top.
func TestCannyMask(t *testing.T) {
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(100, 0, 0, 0), 100, 200, gocv.MatTypeCV8UC1)
	defer img.Close()
	// Sobel's derivative across a step of c grey levels is 4c: 400 (above
	// the high threshold of 120) over rows 0–29, 80 (between the
	// thresholds) below.
	strong := img.Region(image.Rect(100, 0, 200, 30))
	strong.SetTo(gocv.NewScalar(200, 0, 0, 0))
	strong.Close()
	weak := img.Region(image.Rect(100, 30, 200, 100))
	weak.SetTo(gocv.NewScalar(120, 0, 0, 0))
	weak.Close()
	mask := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), 100, 200, gocv.MatTypeCV8UC1)
	defer mask.Close()
	band := mask.Region(image.Rect(0, 40, 200, 50))
	band.SetTo(gocv.NewScalar(255, 0, 0, 0))
	band.Close()
	none := gocv.NewMat()
	defer none.Close()
	edgesIn := func(edges gocv.Mat, top, bottom int) int {
		r := edges.Region(image.Rect(0, top, 200, bottom))
		defer r.Close()
		return gocv.CountNonZero(r)
	}
	d := newEdgeDetector()
	defer d.close()
	for _, width := range []vectorWidth{widestVectors, avx2Vectors, noVectors} {
		whole, masked := gocv.NewMat(), gocv.NewMat()
		if err := d.cannyWidth(img, none, &whole, 40, 120, cannyOptions{}, width); err != nil {
			t.Fatal(err)
		}
		if err := d.cannyWidth(img, mask, &masked, 40, 120, cannyOptions{}, width); err != nil {
			t.Fatal(err)
		}
		if n := edgesIn(whole, 50, 100); n < 40 {
			t.Errorf("vectors %d: without a mask, %d edge pixels on the weak step's lower part, want it found", width, n)
		}
		if n := edgesIn(masked, 40, 50); n != 0 {
			t.Errorf("vectors %d: %d edge pixels under the mask, want none", width, n)
		}
		if n := edgesIn(masked, 50, 100); n != 0 {
			t.Errorf("vectors %d: %d edge pixels on the weak step below the mask, want none (nothing strong to follow from)", width, n)
		}
		if n, want := edgesIn(masked, 0, 40), edgesIn(whole, 0, 40); n != want || n < 35 {
			t.Errorf("vectors %d: %d edge pixels above the mask, want the %d found without it", width, n, want)
		}
		whole.Close()
		masked.Close()
	}
}

// BenchmarkCanny compares the own Canny with OpenCV's on the blurred
// top-down image of a bundled still.
func BenchmarkCanny(b *testing.B) {
	frame, cal, _ := benchStill(b)
	v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	frameGray, gray := grayOf(frame), gocv.NewMat()
	defer frameGray.Close()
	defer gray.Close()
	if err := v.warpInto(frameGray, &gray); err != nil {
		b.Fatal(err)
	}
	blur, edges, none := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer blur.Close()
	defer edges.Close()
	defer none.Close()
	gocv.GaussianBlur(gray, &blur, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	keepFreedMemory() // as an Analyzer runs: OpenCV's buffers are not paged in anew each time
	d := newEdgeDetector()
	defer d.close()
	b.Run("own", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := d.canny(blur, none, &edges, 40, 120); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("OpenCV", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			gocv.Canny(blur, &edges, 40, 120)
		}
	})
}

// TestFilledRectsAreGocvs checks that filledRects keeps exactly the
// rectangles that gocv's FindContours, ContourArea and MinAreaRect give for
// the contours that pass its tests, in the same order, on the outline
// search's edge maps of stills (with and without the faces of their
// identified cards masked) and on noise; the map given as it is, and framed
// for the search in place.
func TestFilledRectsAreGocvs(t *testing.T) {
	a := newTestAnalyzer(t, devCatalog(t))
	o := newOutlineFinder()
	defer o.close()
	var maps []gocv.Mat
	for _, name := range []string{"0003", "0042", "0077"} {
		gray, v := stillTopGray(t, name)
		defer gray.Close()
		known := matchedQuads(t, a, gray)
		for _, faces := range [][]models.Quad{nil, known} {
			o.maskFaces(gray, v, faces)
			edges := gocv.NewMat()
			defer edges.Close()
			if err := o.cardEdges(gray, &edges); err != nil {
				t.Fatal(err)
			}
			maps = append(maps, edges)
		}
	}
	noise := gocv.NewMatWithSize(300, 400, gocv.MatTypeCV8UC1)
	defer noise.Close()
	gocv.RandU(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 0, 0, 0))
	gocv.Threshold(noise, &noise, 200, 255, gocv.ThresholdBinary)
	maps = append(maps, noise)
	kept := 0
	for i, edges := range maps {
		for _, c := range []struct{ minArea, fill float64 }{{2772, 0.8}, {20, 0.5}, {0, 0}} {
			var want []filledRect
			contours := gocv.FindContours(edges, gocv.RetrievalList, gocv.ChainApproxSimple)
			for k := 0; k < contours.Size(); k++ {
				pv := contours.At(k)
				area := gocv.ContourArea(pv)
				if area < c.minArea {
					continue
				}
				rr := gocv.MinAreaRect(pv)
				if area < c.fill*float64(min(rr.Width, rr.Height))*float64(max(rr.Width, rr.Height)) {
					continue
				}
				r := filledRect{center: rr.Center, width: rr.Width, height: rr.Height}
				copy(r.corners[:], rr.Points)
				want = append(want, r)
			}
			contours.Close()
			// As it is (copied with a border inside), and framed (followed
			// in place).
			framed := newFramedEdges()
			edges.CopyTo(framed.sized(edges.Rows(), edges.Cols()))
			for _, m := range []gocv.Mat{edges, framed.edges} {
				// The maps hold 0 and 255 only: followed as they are, and
				// thresholded first.
				for _, edgesOnly := range []bool{true, false} {
					in := m.Clone()
					if m.Ptr() == framed.edges.Ptr() {
						edges.CopyTo(&framed.edges)
						in.Close()
						in = framed.edges
					}
					got, err := o.edges.filledRects(in, c.minArea, c.fill, edgesOnly)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						t.Errorf("map %d, area ≥ %v, fill ≥ %v, edges only %v: %d rectangles %v, gocv's %d %v", i, c.minArea, c.fill, edgesOnly, len(got), got, len(want), want)
					}
					if in.Ptr() != framed.edges.Ptr() {
						in.Close()
					}
				}
			}
			framed.close()
			kept += len(want)
		}
	}
	if kept == 0 {
		t.Error("no rectangle kept on any map: the test compares nothing")
	}
}

// cannyMaskedReference is Canny's detector as canny runs it with a mask,
// written out plainly: the derivatives (OpenCV's 3×3 Sobel, replicated
// border) and their L1 magnitude at every pixel, masked or not; a pixel
// may be on an edge when it is unmasked, its magnitude passes low and is a
// maximum across the gradient (OpenCV's comparisons, 0 beyond the image);
// edges grow from those passing high through the ones that may be.
func cannyMaskedReference(img, mask gocv.Mat, low, high int) []byte {
	dxm, dym := gocv.NewMat(), gocv.NewMat()
	defer dxm.Close()
	defer dym.Close()
	gocv.Sobel(img, &dxm, gocv.MatTypeCV16S, 1, 0, 3, 1, 0, gocv.BorderReplicate)
	gocv.Sobel(img, &dym, gocv.MatTypeCV16S, 0, 1, 3, 1, 0, gocv.BorderReplicate)
	rows, cols := img.Rows(), img.Cols()
	masked, _ := mask.DataPtrUint8()
	dxs, _ := dxm.DataPtrInt16()
	dys, _ := dym.DataPtrInt16()
	dx, dy := make([]int, rows*cols), make([]int, rows*cols)
	for i := range dx {
		dx[i], dy[i] = int(dxs[i]), int(dys[i])
	}
	mag := func(x, y int) int {
		if x < 0 || y < 0 || x >= cols || y >= rows {
			return 0
		}
		return magnitude(dx[y*cols+x]) + magnitude(dy[y*cols+x])
	}
	const maybe, edge = 1, 2
	marks := make([]byte, rows*cols)
	var stack []int
	for y := range rows {
		for x := range cols {
			i := y*cols + x
			m := mag(x, y)
			if m <= low || masked[i] != 0 {
				continue
			}
			ax, ay := magnitude(dx[i]), magnitude(dy[i])<<15
			tg22x := ax * 13573
			var peak bool
			switch {
			case ay < tg22x:
				peak = m > mag(x-1, y) && m >= mag(x+1, y)
			case ay > tg22x+ax<<16:
				peak = m > mag(x, y-1) && m >= mag(x, y+1)
			default:
				s := 1
				if (dx[i] < 0) != (dy[i] < 0) {
					s = -1
				}
				peak = m > mag(x-s, y-1) && m > mag(x+s, y+1)
			}
			switch {
			case peak && m > high:
				marks[i] = edge
				stack = append(stack, i)
			case peak:
				marks[i] = maybe
			}
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%cols, i/cols
		for ny := y - 1; ny <= y+1; ny++ {
			for nx := x - 1; nx <= x+1; nx++ {
				if nx >= 0 && ny >= 0 && nx < cols && ny < rows && marks[ny*cols+nx] == maybe {
					marks[ny*cols+nx] = edge
					stack = append(stack, ny*cols+nx)
				}
			}
		}
	}
	out := make([]byte, rows*cols)
	for i, m := range marks {
		if m == edge {
			out[i] = 255
		}
	}
	return out
}

// magnitude is |x|, as the L1 gradient adds it.
func magnitude(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestCannyMaskedIsWhole checks that canny with a mask, or with the part
// of the image to look in given as polygons, marks exactly the edges of
// cannyMaskedReference with the same mask: on top-down stills with the
// outline search's part (the part the camera frame shows, less the faces
// of their identified cards, given as polygons and, for the reference, as
// the mask of the pixels whose centres lie outside it), with masks of
// rectangles a few pixels apart and of noise, with and without its blur
// and thickening, at every vector width.
func TestCannyMaskedIsWhole(t *testing.T) {
	a := newTestAnalyzer(t, devCatalog(t))
	o := newOutlineFinder()
	defer o.close()
	type input struct {
		name      string
		img, mask gocv.Mat // mask: where no edge may be, for the reference
		// The outline search's part of the image instead of the mask:
		// what canny is given when within is set.
		within []models.Point
		hidden []models.Quad
	}
	var inputs []input
	for _, name := range []string{"0003", "0042"} {
		gray, v := stillTopGray(t, name)
		defer gray.Close()
		known := matchedQuads(t, a, gray)
		o.maskFaces(gray, v, known)
		if len(o.within) == 0 || len(o.hidden) == 0 {
			t.Fatalf("%s: the outline search looks within %v, hides %d quads", name, o.within, len(o.hidden))
		}
		// The same as a mask: outside the polygon, inside any quad.
		mask := polygonMask(gray.Rows(), gray.Cols(), o.within)
		gocv.BitwiseNot(mask, &mask)
		for _, q := range o.hidden {
			face := polygonMask(gray.Rows(), gray.Cols(), q[:])
			gocv.BitwiseOr(mask, face, &mask)
			face.Close()
		}
		if n := gocv.CountNonZero(mask); n == 0 || n == gray.Rows()*gray.Cols() {
			t.Fatalf("%s: the outline search's mask covers %d pixels of %d", name, n, gray.Rows()*gray.Cols())
		}
		inputs = append(inputs, input{name: name + " outline search", img: gray, mask: mask, within: slices.Clone(o.within), hidden: slices.Clone(o.hidden)})
		rects := gocv.NewMatWithSize(gray.Rows(), gray.Cols(), gocv.MatTypeCV8UC1)
		rects.SetTo(gocv.NewScalar(0, 0, 0, 0))
		for y, i := 0, 0; y < gray.Rows(); y, i = y+37+i%11, i+1 {
			for x := i % 7; x < gray.Cols(); x += 9 + 5*(i%13) {
				r := rects.Region(image.Rect(x, y, min(x+3+(x*7+y)%60, gray.Cols()), min(y+5+x%50, gray.Rows())))
				r.SetTo(gocv.NewScalar(255, 0, 0, 0))
				r.Close()
			}
		}
		inputs = append(inputs, input{name: name + " rectangles", img: gray, mask: rects})
	}
	noise := gocv.NewMatWithSize(203, 301, gocv.MatTypeCV8UC1)
	defer noise.Close()
	gocv.RandU(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 0, 0, 0))
	noiseMask := gocv.NewMatWithSize(203, 301, gocv.MatTypeCV8UC1)
	gocv.RandU(&noiseMask, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 0, 0, 0))
	gocv.Threshold(noiseMask, &noiseMask, 20, 255, gocv.ThresholdBinary) // most pixels masked
	inputs = append(inputs, input{name: "noise", img: noise, mask: noiseMask})
	d := newEdgeDetector()
	defer d.close()
	none := gocv.NewMat()
	defer none.Close()
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer kernel.Close()
	for _, in := range inputs {
		defer in.mask.Close()
		blurred := gocv.NewMat()
		gocv.GaussianBlur(in.img, &blurred, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
		for _, opts := range []cannyOptions{{}, {blur: true}, {blur: true, thick: true}} {
			src := in.img
			if opts.blur {
				src = blurred
			}
			ref, err := gocv.NewMatFromBytes(in.img.Rows(), in.img.Cols(), gocv.MatTypeCV8UC1, cannyMaskedReference(src, in.mask, 40, 120))
			if err != nil {
				t.Fatal(err)
			}
			if opts.thick {
				gocv.Dilate(ref, &ref, kernel)
			}
			for _, width := range []vectorWidth{widestVectors, avx2Vectors, noVectors} {
				got := gocv.NewMat()
				given, o := in.mask, opts
				if in.within != nil {
					given, o.within, o.hidden = none, in.within, in.hidden
				}
				if err := d.cannyWidth(in.img, given, &got, 40, 120, o, width); err != nil {
					t.Fatal(err)
				}
				diff := gocv.NewMat()
				gocv.BitwiseXor(got, ref, &diff)
				if n := gocv.CountNonZero(diff); n != 0 || gocv.CountNonZero(ref) == 0 {
					t.Errorf("%s (vectors %d, %+v): %d pixels differ of the reference's %d edge pixels", in.name, width, opts, n, gocv.CountNonZero(ref))
				}
				diff.Close()
				got.Close()
			}
			ref.Close()
		}
		blurred.Close()
	}
}

// matchedQuads gives the quads of the cards matched by keypoints in a
// top-down grey image.
func matchedQuads(t *testing.T, a *Analyzer, gray gocv.Mat) []models.Quad {
	t.Helper()
	f, err := a.det.detect(gray)
	if err != nil {
		t.Fatal(err)
	}
	var known []models.Quad
	for _, d := range a.index.matchFrame(f, 1) {
		known = append(known, d.quad)
	}
	return known
}

// TestBlurIsGaussianBlur checks the own blur against OpenCV's
// GaussianBlur (5×5, σ from the size, replicated border) byte for byte, at
// every vector width: on the half-resolution top-down grey image of
// bundled stills (the steady test's) and on noise of sizes from a pixel to
// wider than a vector, narrower and shorter than the kernel among them.
func TestBlurIsGaussianBlur(t *testing.T) {
	var inputs []gocv.Mat
	var names []string
	for _, name := range []string{"0003", "0042"} {
		frame, cal, _ := stillFrame(t, name)
		defer frame.Close()
		v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		small := v.scaled(0.5).warp(frame)
		defer small.Close()
		gray := grayOf(small)
		defer gray.Close()
		inputs, names = append(inputs, gray), append(names, "still "+name)
	}
	for _, size := range []image.Point{{1, 1}, {2, 3}, {4, 4}, {5, 5}, {17, 9}, {64, 33}, {65, 2}, {681, 479}} {
		noise := gocv.NewMatWithSize(size.Y, size.X, gocv.MatTypeCV8UC1)
		defer noise.Close()
		gocv.RandU(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 0, 0, 0))
		inputs, names = append(inputs, noise), append(names, fmt.Sprintf("noise %dx%d", size.X, size.Y))
	}
	for i, in := range inputs {
		want := gocv.NewMat()
		gocv.GaussianBlur(in, &want, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
		for _, width := range []vectorWidth{noVectors, avx2Vectors, widestVectors} {
			got := gocv.NewMat()
			if err := blurWidth(in, &got, width); err != nil {
				t.Fatal(err)
			}
			if got.Rows() != want.Rows() || got.Cols() != want.Cols() {
				t.Errorf("%s, vector width %d: blurred to %dx%d, want %dx%d", names[i], width, got.Cols(), got.Rows(), want.Cols(), want.Rows())
			} else if n := differing(got, want); n != 0 {
				t.Errorf("%s, vector width %d: %d of %d pixels differ from OpenCV's blur", names[i], width, n, in.Rows()*in.Cols())
			}
			got.Close()
		}
		want.Close()
	}
}
