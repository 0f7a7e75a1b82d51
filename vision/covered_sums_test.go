package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// randomSiteFaces makes n random level-1 faces of w × h pixels (and their
// mean), laid out in lanes: values of four bytes averaged (multiples of ¼,
// as halveBytes gives) when quarters is set, else any floats from 0 to 255.
func randomSiteFaces(rng *rand.Rand, n, w, h int, quarters bool) *siteFaces {
	f := &siteFaces{pxPerMM0: 1}
	f.w[1], f.h[1] = w, h
	f.w[0], f.h[0] = 2*w, 2*h
	pixel := func() float32 {
		if quarters {
			return float32(rng.IntN(1021)) / 4
		}
		return rng.Float32() * 255
	}
	for k := 0; k < n; k++ {
		f.refs = append(f.refs, k)
		for turn := range f.half {
			for i := 0; i < w*h; i++ {
				f.half[turn] = append(f.half[turn], pixel())
			}
		}
	}
	for turn := range f.mean[1] {
		f.mean[1][turn] = make([]float32, w*h)
		for i := range f.mean[1][turn] {
			f.mean[1][turn][i] = pixel()
		}
	}
	f.setLanes()
	return f
}

// randomSiteWindow makes a level-1 window around faces (radius r) whose
// visible pixels lie in runs of every length from 1 to the whole row.
func randomSiteWindow(rng *rand.Rand, f *siteFaces, r int, quarters bool) *siteWindow {
	w := &siteWindow{radius: [2]int{2 * r, r}}
	w.w[1], w.h[1] = f.w[1]+2*r, f.h[1]+2*r
	n := w.w[1] * w.h[1]
	w.px[1], w.vis[1] = make([]float32, n), make([]bool, n)
	for i := range w.px[1] {
		if quarters {
			w.px[1][i] = float32(rng.IntN(1021)) / 4
		} else {
			w.px[1][i] = rng.Float32() * 255
		}
	}
	for y := 0; y < w.h[1]; y++ {
		for x := 0; x < w.w[1]; {
			l := 1 + rng.IntN(3+y) // longer runs further down
			show := rng.IntN(3) > 0
			for ; l > 0 && x < w.w[1]; l, x = l-1, x+1 {
				w.vis[1][y*w.w[1]+x] = show
			}
		}
	}
	return w
}

// TestFaceLanesAsFaceSums checks the level-1 face sums taken sixteen faces
// at a time in vector lanes (siteFaces.laneSums) against those taken face
// by face: every face and subsets of them (in lanes of their own, picked,
// laid out anew as the subset changes and kept while it does not), every
// shift, runs of every
// length, 14 faces (one chunk, two lanes empty) and 37 (three chunks),
// pixels as the faces hold them and any floats. The sums must be equal to
// the last bit.
func TestFaceLanesAsFaceSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	compared := 0
	for _, c := range []struct {
		faces    int
		quarters bool
	}{{14, true}, {37, true}, {14, false}, {37, false}} {
		f := randomSiteFaces(rng, c.faces, 44, 31, c.quarters)
		for trial := 0; trial < 3; trial++ {
			w := randomSiteWindow(rng, f, 2, c.quarters)
			var buf pixelPairs
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					pp := w.pairs(f, 1, dx, dy, &buf)
					for turn := 0; turn < 2; turn++ {
						var which []int32
						if (dx+dy)%2 != 0 {
							// Mostly a few faces, as screened; at dx 0 most
							// of them (37 faces: more than a chunk's).
							for k := range f.refs {
								if rng.IntN(3) == 0 || (dx == 0 && rng.IntN(4) > 0) {
									which = append(which, int32(k))
								}
							}
							rng.Shuffle(len(which), func(i, j int) { which[i], which[j] = which[j], which[i] })
							if len(which) == 0 {
								continue
							}
						}
						n := len(which)
						if which == nil {
							n = len(f.refs)
						}
						got := make([]faceSums, n)
						if !f.laneSums(w.px[1], turn, which, n, pp, got) {
							t.Skip("no AVX-512 here: the lanes are not used")
						}
						f.noLanes = true
						want := w.faceSums(f, 1, turn, which, 0, pp, nil)
						f.noLanes = false
						for k := range want {
							for i := range want[k] {
								if math.Float64bits(got[k][i]) != math.Float64bits(want[k][i]) {
									t.Fatalf("%d faces, quarters %v, shift (%d, %d), turn %d, face %d of %v, sum %d: %v in lanes, %v face by face",
										c.faces, c.quarters, dx, dy, turn, k, which, i, got[k][i], want[k][i])
								}
							}
							if want[k][1] != 0 {
								compared++
							}
						}
						// faceSums itself takes the lanes.
						again := w.faceSums(f, 1, turn, which, 0, pp, nil)
						for k := range again {
							if again[k] != got[k] {
								t.Fatalf("faceSums gave %v, the lanes %v", again[k], got[k])
							}
						}
					}
				}
			}
		}
	}
	if compared == 0 {
		t.Error("every sum 0: nothing compared")
	}
}

// visibleRunsPlain is visibleRuns pixel by pixel: its reference.
func visibleRunsPlain(vis []bool, w int) []visibleRun {
	var out []visibleRun
	for y := 0; y*w < len(vis); y++ {
		row := vis[y*w : (y+1)*w]
		for x := 0; x < w; {
			if !row[x] {
				x++
				continue
			}
			x0 := x
			for x < w && row[x] {
				x++
			}
			out = append(out, visibleRun{int32(y), int32(x0), int32(x)})
		}
	}
	return out
}

// TestVisibleRunsAsPlain checks visibleRuns, which reads a mask eight
// pixels at a time, against the pixel-by-pixel reading: masks 1 to 70
// pixels wide, runs short and long, sparse and dense, all hidden and all
// visible.
func TestVisibleRunsAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	runs := 0
	for w := 1; w <= 70; w++ {
		for trial := 0; trial < 20; trial++ {
			h := 1 + rng.IntN(6)
			vis := make([]bool, w*h)
			switch trial {
			case 0: // all hidden
			case 1:
				for i := range vis {
					vis[i] = true
				}
			default:
				long := 1 + rng.IntN(20) // the mean length of a stretch
				show := rng.IntN(2) == 0
				for i := range vis {
					if rng.IntN(long) == 0 {
						show = !show
					}
					vis[i] = show
				}
			}
			got, want := visibleRuns(vis, w), visibleRunsPlain(vis, w)
			if len(got) != len(want) {
				t.Fatalf("%d wide, %d high, trial %d: %d runs, the plain reading %d", w, h, trial, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%d wide, %d high, trial %d: run %d is %v, the plain reading's %v", w, h, trial, i, got[i], want[i])
				}
			}
			runs += len(want)
		}
	}
	if runs == 0 {
		t.Error("no runs compared")
	}
}

// TestEdgeSumsAsPlain checks the edge sums read sixteen pixels at a time
// against those read pixel by pixel (edgeSums.plain): regions from 1×1 to
// 133×111, narrower and wider than a vector and its border pixels, of
// noise, of smooth gradients with card-like steps (edges of every strength
// both ways), some hidden, some not, a buffer reused from a larger region.
// Every sum must be equal to the last bit.
func TestEdgeSumsAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 3))
	var fast, plain edgeSums
	plain.plain = true
	edges := 0
	for _, size := range [][2]int{{133, 111}, {1, 1}, {2, 3}, {3, 2}, {5, 7}, {17, 4}, {20, 5}, {21, 21}, {36, 9}, {37, 40}, {64, 64}, {100, 3}, {120, 97}} {
		w, h := size[0], size[1]
		for trial := 0; trial < 4; trial++ {
			img := make([]byte, w*h)
			hidden := make([]byte, w*h)
			cx, cy := rng.IntN(w+1), rng.IntN(h+1)
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					var v int
					switch trial {
					case 0:
						v = rng.IntN(256)
					default: // a gradient, a rectangle's step, a little noise
						v = 40 + (x*trial+y)%90 + rng.IntN(3*trial)
						if x >= cx/2 && x < cx && y >= cy/2 && y < cy {
							v += 30 * trial
						}
					}
					img[y*w+x] = byte(min(v, 255))
					if trial >= 2 && (x+2*y)%11 < trial {
						hidden[y*w+x] = 255
					}
				}
			}
			m, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8U, img)
			if err != nil {
				t.Fatal(err)
			}
			fast.read(m, hidden)
			plain.read(m, hidden)
			m.Close()
			for name, pair := range map[string][2][]float32{"columns": {fast.cols, plain.cols}, "rows": {fast.rows, plain.rows}} {
				got, want := pair[0], pair[1]
				if len(got) != len(want) {
					t.Fatalf("%d×%d, trial %d: %d %s sums, plain %d", w, h, trial, len(got), name, len(want))
				}
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%d×%d, trial %d: %s sum %d is %v, read pixel by pixel %v", w, h, trial, name, i, got[i], want[i])
					}
				}
			}
			if e, _ := plain.column(w/2, 0, h); e > 0 {
				edges++
			}
		}
	}
	if edges == 0 {
		t.Error("no edges read: nothing compared")
	}
}

// alignNormalPlain is alignNormal as alignFace first read it: its
// reference.
func alignNormalPlain(in alignInput, pp pixelPairs, tx, ty, th0 float64) (ata [5][5]float64, atb [5]float64, n int) {
	tw, th, ww, wh := in.tw, in.th, in.ww, in.wh
	px, gx, gy, ok, t := in.px, in.gx, in.gy, in.ok, in.t
	ct, st := math.Cos(th0), math.Sin(th0)
	for _, run := range pp.runs {
		v, u0 := int(run.face)/tw, int(run.face)%tw
		y := float64(v) + 0.5 - float64(th)/2
		for u := u0; u < u0+int(run.n); u++ {
			x := float64(u) + 0.5 - float64(tw)/2
			fx := float64(ww)/2 + tx + ct*x - st*y - 0.5
			fy := float64(wh)/2 + ty + st*x + ct*y - 0.5
			x0, y0 := int(math.Floor(fx)), int(math.Floor(fy))
			if x0 < 0 || y0 < 0 || x0+1 >= ww || y0+1 >= wh {
				continue
			}
			i := y0*ww + x0
			if !ok[i] || !ok[i+1] || !ok[i+ww] || !ok[i+ww+1] {
				continue
			}
			ax, ay := float32(fx-float64(x0)), float32(fy-float64(y0))
			lerp := func(p []float32) float64 {
				top := p[i] + ax*(p[i+1]-p[i])
				bot := p[i+ww] + ax*(p[i+ww+1]-p[i+ww])
				return float64(top + ay*(bot-top))
			}
			I, GX, GY := lerp(px), lerp(gx), lerp(gy)
			f := [5]float64{I, 1, GX, GY, GX*(-st*x-ct*y) + GY*(ct*x-st*y)}
			tv := float64(t[v*tw+u])
			for a := range f {
				for c := a; c < len(f); c++ {
					ata[a][c] += f[a] * f[c]
				}
				atb[a] += f[a] * tv
			}
			n++
		}
	}
	return ata, atb, n
}

// TestAlignNormalAsPlain checks alignNormal against the plain loop it
// stands for, on windows about a site under a unit (both turns, every
// face) and over the bare mat, at shifts and turns that move the face
// partly off the window: the normal equations must be equal to the last
// bit, and some read many pixels.
func TestAlignNormalAsPlain(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	_, site := sitesByScan(t, cat)
	faces := siteFacesOf(t, a)
	const cx, cy = 150.0, 111.5
	read := 0
	for _, rot := range []models.Rotation{0, 180} {
		unit := placement{slug: "granite_warden", x: cx - 13, y: cy + 6, rot: rot}
		gray, v := renderedTopGray(t, a, cat, []placement{{slug: site, x: cx, y: cy, rot: rot, jitter: 2}, unit}, 95+uint64(rot))
		found := []placed{{topDownQuad(v, unit.x, unit.y, float64(unit.rot), models.CardShortMM, models.CardLongMM), models.KindStandard}}
		s := v.pxPerMM
		for _, at := range [][2]float64{{cx, cy}, {cx + 1.5, cy - 1}, {cx + 90, cy - 60}} {
			p := sitePlacement{cx: (at[0] + v.marginMM) * s, cy: (v.geo.HeightMM() + v.marginMM - at[1]) * s, angleDeg: 1}
			w := readSiteWindow(gray, s, faces, p, 4, found, stripHiddenPad)
			gx, gy, ok := windowSteps(&faces.arena, w.px[0], w.vis[0], w.w[0], w.h[0])
			for face := range faces.refs {
				turn := face % 2
				in := alignInput{faces.faceAt(0, turn, face), faces.w[0], faces.h[0], w.px[0], gx, gy, ok, w.w[0], w.h[0]}
				var buf pixelPairs
				pp := w.pairs(faces, 0, face%3-1, face%5-2, &buf)
				for _, m := range [][3]float64{{0, 0, 0}, {1.3, -0.7, 0.02}, {-3.9, 3.4, -0.03}, {5.5, -6, 0.2}} {
					ata, atb, n := alignNormal(in, pp, m[0], m[1], m[2])
					wa, wb, wn := alignNormalPlain(in, pp, m[0], m[1], m[2])
					if ata != wa || atb != wb || n != wn {
						t.Fatalf("turn %d, at %v, face %d, move %v: %v %v over %d pixels, plainly %v %v over %d", rot, at, face, m, ata, atb, n, wa, wb, wn)
					}
					read += n
				}
			}
		}
		gray.Close()
	}
	if read == 0 {
		t.Error("no pixel read: nothing compared")
	}
}

// TestScoreOutlineAsPlain checks the outline scores taken sixteen
// placements at a time against those taken one by one (edgeSums.plain):
// every turn, grids of 1 to 45 placements a row in steps of 1, 2 and 3,
// the outline partly or wholly off the region, over noise and a
// rectangle's edges, some hidden. Every score must be equal to the last
// bit.
func TestScoreOutlineAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	segs := siteOutlineSegments()
	compared := 0
	for trial := 0; trial < 40; trial++ {
		w, h := 40+rng.IntN(100), 40+rng.IntN(80)
		img := make([]byte, w*h)
		hidden := make([]byte, w*h)
		x0, y0, x1, y1 := rng.IntN(w/2), rng.IntN(h/2), w/2+rng.IntN(w/2), h/2+rng.IntN(h/2)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := 60 + rng.IntN(20)
				if x >= x0 && x < x1 && y >= y0 && y < y1 {
					v += 120
				}
				img[y*w+x] = byte(v)
				if trial%3 == 0 && x > w/3 && x < w/2 && y > h/3 {
					hidden[y*w+x] = 255
				}
			}
		}
		m, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8U, img)
		if err != nil {
			t.Fatal(err)
		}
		var sums edgeSums
		sums.read(m, hidden)
		m.Close()
		turn := rng.IntN(9) - 4
		pieces := placeOutline(segs, float64(turn)*placeTurnStepDeg, float64(w)/2+rng.Float64()*20-10, float64(h)/2+rng.Float64()*20-10)
		step := 1 + rng.IntN(3)
		ix0, iy0 := -rng.IntN(70), -rng.IntN(50)
		ix1, iy1 := ix0+rng.IntN(45*step), iy0+rng.IntN(20)
		got, _ := sums.scoreGrid(pieces, turn, ix0, ix1, iy0, iy1, step, nil, nil)
		sums.plain = true
		want, _ := sums.scoreGrid(pieces, turn, ix0, ix1, iy0, iy1, step, nil, nil)
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d scores, one by one %d", trial, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("trial %d (%d×%d, step %d): placement %d scores %v, one by one %v", trial, w, h, step, i, got[i], want[i])
			}
			if want[i].score != 0 {
				compared++
			}
		}
	}
	if compared == 0 {
		t.Error("every score 0: nothing compared")
	}
}

// TestWindowSumsBothTurns checks the window's sums taken for both turns in
// one pass (statsBoth) against those taken turn by turn: every shift, runs
// of every length, pixels as the faces hold them and any floats. The sums
// must be equal to the last bit.
func TestWindowSumsBothTurns(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	compared := 0
	for _, quarters := range []bool{true, false} {
		f := randomSiteFaces(rng, 3, 44, 31, quarters)
		for trial := 0; trial < 4; trial++ {
			w := randomSiteWindow(rng, f, 2, quarters)
			var buf pixelPairs
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					pp := w.pairs(f, 1, dx, dy, &buf)
					both := w.statsBoth(f, 1, pp)
					for turn := range both {
						if want := w.stats(f, 1, turn, pp); both[turn] != want {
							t.Fatalf("quarters %v, shift (%d, %d), turn %d: %+v in one pass, %+v turn by turn", quarters, dx, dy, turn, both[turn], want)
						}
						if both[turn].ok {
							compared++
						}
					}
				}
			}
		}
	}
	if compared == 0 {
		t.Error("no window's sums compared")
	}
}

// TestWindowPixels checks a window's pixels as read sixteen at a time
// against the bytes they are read from: 1 to 70 of them (tails and all),
// covered or not at random, into buffers that held other values.
func TestWindowPixels(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	shown := 0
	for n := 0; n <= 70; n++ {
		grey, cover := make([]byte, n), make([]byte, n)
		for i := range grey {
			grey[i] = byte(rng.IntN(256))
			if rng.IntN(3) == 0 {
				cover[i] = byte(1 + rng.IntN(255))
			}
		}
		if n == 0 {
			continue
		}
		px, vis := make([]float32, n), make([]bool, n)
		for i := range px {
			px[i], vis[i] = -1, i%2 == 0 // what a buffer held before
		}
		windowPixels(grey, cover, px, vis)
		for i := range grey {
			if px[i] != float32(grey[i]) || vis[i] != (cover[i] == 0) {
				t.Fatalf("%d bytes, pixel %d (grey %d, cover %d): %v, visible %v", n, i, grey[i], cover[i], px[i], vis[i])
			}
			if vis[i] {
				shown++
			}
		}
	}
	if shown == 0 {
		t.Error("no pixel visible: nothing compared")
	}
}

// pairsPlain is siteWindow.pairs reading every run of the window: its
// reference.
func (w *siteWindow) pairsPlain(faces *siteFaces, level, dx, dy int) pixelPairs {
	tw, th := faces.w[level], faces.h[level]
	b := int(math.Round(siteWindowBorderMM * faces.pxPerMM0 / float64(int(1)<<level)))
	r := w.radius[level]
	ww := w.w[level]
	var pp pixelPairs
	lo, hi := max(b+r+dx, 0), min(tw-b+r+dx, ww)
	for _, run := range visibleRunsPlain(w.vis[level], ww) {
		v := int(run.y) - r - dy
		if v < b || v >= th-b {
			continue
		}
		x0, x1 := max(int(run.x0), lo), min(int(run.x1), hi)
		if x1 <= x0 {
			continue
		}
		pp.runs = append(pp.runs, pixelRun{win: int32(int(run.y)*ww + x0), face: int32(v*tw + x0 - r - dx), n: int32(x1 - x0)})
		pp.n += x1 - x0
	}
	return pp
}

// TestPairsAsPlain checks the pixel pairs of a window (which read only the
// runs of the rows over the face) against those of every run read, at
// every shift, with a buffer kept from call to call.
func TestPairsAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	f := randomSiteFaces(rng, 2, 44, 31, true)
	pairs := 0
	for trial := 0; trial < 5; trial++ {
		w := randomSiteWindow(rng, f, 2, true)
		var buf pixelPairs
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				got, want := w.pairs(f, 1, dx, dy, &buf), w.pairsPlain(f, 1, dx, dy)
				if got.n != want.n || len(got.runs) != len(want.runs) {
					t.Fatalf("shift (%d, %d): %d pairs in %d runs, plainly %d in %d", dx, dy, got.n, len(got.runs), want.n, len(want.runs))
				}
				for i := range want.runs {
					if got.runs[i] != want.runs[i] {
						t.Fatalf("shift (%d, %d): run %d is %v, plainly %v", dx, dy, i, got.runs[i], want.runs[i])
					}
				}
				pairs += want.n
			}
		}
	}
	if pairs == 0 {
		t.Error("no pixel pairs compared")
	}
}

// TestWarpAffineIsOpenCVs checks warpAffineGrey, the covered-site
// window's own affine warp, against gocv's WarpAffineWithParams (linear,
// inverse map, constant 0 border) byte for byte: on noise and on a still's
// top-down grey, 300 maps turned any way, scaled from a third to three,
// whole pixels and halves, windows inside, across the edges and beyond.
func TestWarpAffineIsOpenCVs(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 7))
	gray, _ := stillTopGray(t, "0003")
	defer gray.Close()
	noise := gocv.NewMatWithSize(57, 83, gocv.MatTypeCV8U)
	defer noise.Close()
	gocv.RandU(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 0, 0, 0))
	compared := 0
	for _, img := range []gocv.Mat{noise, gray} {
		for trial := 0; trial < 150; trial++ {
			w, h := 1+rng.IntN(110), 1+rng.IntN(90)
			a := rng.Float64() * 2 * math.Pi
			switch trial % 5 {
			case 0:
				a = 0
			case 1:
				a = math.Pi
			}
			k := 1/3.0 + rng.Float64()*(3-1/3.0)
			if trial%7 == 0 {
				k = 1
			}
			ca, sa := math.Cos(a)*k, math.Sin(a)*k
			cx := rng.Float64()*float64(img.Cols()+40) - 20
			cy := rng.Float64()*float64(img.Rows()+40) - 20
			if trial%3 == 0 {
				cx, cy = math.Round(cx*2)/2, math.Round(cy*2)/2
			}
			m := [6]float64{ca, -sa, cx, sa, ca, cy}
			mat := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
			for i, c := range m {
				mat.SetDoubleAt(i/3, i%3, c)
			}
			want := gocv.NewMat()
			gocv.WarpAffineWithParams(img, &want, mat, image.Pt(w, h), gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderConstant, color.RGBA{})
			mat.Close()
			wb, _ := want.DataPtrUint8()
			got := make([]byte, w*h)
			if !warpAffineGrey(img, m, w, h, got) {
				t.Fatal("warpAffineGrey did not read a grey image")
			}
			for i := range got {
				if got[i] != wb[i] {
					t.Fatalf("trial %d (%d×%d from %d×%d, map %v): pixel (%d, %d) is %d, OpenCV's %d", trial, w, h, img.Cols(), img.Rows(), m, i%w, i/w, got[i], wb[i])
				}
				if wb[i] != 0 {
					compared++
				}
			}
			want.Close()
		}
	}
	if compared == 0 {
		t.Error("every pixel 0: nothing compared")
	}
}
