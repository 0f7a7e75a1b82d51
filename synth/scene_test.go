package synth

import (
	"crypto/sha256"
	"image"
	"math"
	"reflect"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

func sampleRenderer(t testing.TB) *Renderer {
	t.Helper()
	cat, err := models.LoadCatalog("../samples/catalog")
	if err != nil {
		t.Skipf("sample catalog: %v", err)
	}
	r, err := NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// grayMat converts an RGBA image to a single-channel float Mat.
func grayMat(t *testing.T, img *image.RGBA) gocv.Mat {
	t.Helper()
	m, err := gocv.ImageToMatRGB(img)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	g := gocv.NewMat()
	gocv.CvtColor(m, &g, gocv.ColorBGRToGray)
	return g
}

// upright warps the image inside quad (face top-left first, clockwise) to a
// w×h upright face.
func upright(img gocv.Mat, q models.Quad, w, h int) gocv.Mat {
	src := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{
		{X: float32(q[0].X), Y: float32(q[0].Y)}, {X: float32(q[1].X), Y: float32(q[1].Y)},
		{X: float32(q[2].X), Y: float32(q[2].Y)}, {X: float32(q[3].X), Y: float32(q[3].Y)},
	})
	defer src.Close()
	dst := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: float32(w), Y: 0}, {X: float32(w), Y: float32(h)}, {X: 0, Y: float32(h)}})
	defer dst.Close()
	m := gocv.GetPerspectiveTransform2f(src, dst)
	defer m.Close()
	out := gocv.NewMat()
	gocv.WarpPerspective(img, &out, m, image.Pt(w, h))
	return out
}

// ncc is the normalized correlation of two equal-size gray images inside
// r, a rectangle given in fractions of the image size.
func ncc(a, b gocv.Mat, r [4]float64) float64 {
	w, h := float64(a.Cols()), float64(a.Rows())
	var sa, sb, saa, sbb, sab, n float64
	for y := int(r[1] * h); y < int(r[3]*h); y++ {
		for x := int(r[0] * w); x < int(r[2]*w); x++ {
			va, vb := float64(a.GetUCharAt(y, x)), float64(b.GetUCharAt(y, x))
			sa += va
			sb += vb
			saa += va * va
			sbb += vb * vb
			sab += va * vb
			n++
		}
	}
	cov := sab/n - sa/n*sb/n
	return cov / math.Sqrt((saa/n-sa*sa/n/n)*(sbb/n-sb*sb/n/n))
}

// referenceFace gives a card's upright face as a gray w×h Mat.
func referenceFace(t *testing.T, r *Renderer, c *models.Card, w, h int) gocv.Mat {
	face, err := r.FaceOf(c)
	if err != nil {
		t.Fatal(err)
	}
	g := grayMat(t, face)
	defer g.Close()
	out := gocv.NewMat()
	gocv.Resize(g, &out, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	return out
}

// TestTruthLinesUpWithPixels warps the frame inside each fully visible
// card's truth quad to an upright face and checks that it correlates with
// that card's reference face, and not with another card's or with the face
// turned half round.
func TestTruthLinesUpWithPixels(t *testing.T) {
	r := sampleRenderer(t)
	cases := []struct {
		name    string
		clean   bool
		minSame float64
	}{
		{"clean", true, 0.8},
		{"photometry", false, 0.5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checked := 0
			for seed := int64(1); seed <= 6; seed++ {
				sc, err := r.Scene(seed, SceneOptions{Clean: tc.clean, HandChance: -1, JPEGQuality: 85})
				if err != nil {
					t.Fatal(err)
				}
				frame := grayMat(t, sc.Image)
				for _, ct := range sc.Truth.Cards {
					if ct.VisibleFraction < 0.999 {
						continue
					}
					card, ok := r.Catalog().BySlug(ct.Slug)
					if !ok {
						t.Fatalf("truth names unknown slug %q", ct.Slug)
					}
					wmm, hmm := FaceSizeMM(card)
					w, h := int(wmm*2), int(hmm*2)
					got := upright(frame, ct.Quad, w, h)
					want := referenceFace(t, r, card, w, h)
					// Compare the art window, which tells cards apart; the frame
					// layout is alike on every card.
					l := layoutFor(card)
					art := [4]float64{float64(l.art.Min.X) / float64(l.w), float64(l.art.Min.Y) / float64(l.h),
						float64(l.art.Max.X) / float64(l.w), float64(l.art.Max.Y) / float64(l.h)}
					same := ncc(got, want, art)
					turned := gocv.NewMat()
					gocv.Rotate(want, &turned, gocv.Rotate180Clockwise)
					flipped := ncc(got, turned, art)
					other := otherCard(r, card)
					otherFace := referenceFace(t, r, other, w, h)
					diff := ncc(got, otherFace, art)
					if same < tc.minSame || diff > same-0.25 || flipped > same-0.25 {
						t.Errorf("seed %d %s (%s, rotation %d): ncc with own face %.2f, another card %.2f, own face turned 180° %.2f",
							seed, ct.Name, ct.Owner, ct.Rotation, same, diff, flipped)
					}
					checked++
					got.Close()
					want.Close()
					turned.Close()
					otherFace.Close()
				}
				frame.Close()
			}
			if checked < 8 {
				t.Fatalf("only %d fully visible cards checked", checked)
			}
			t.Logf("%d cards checked", checked)
		})
	}
}

// otherCard picks a different card of the same shape.
func otherCard(r *Renderer, c *models.Card) *models.Card {
	for _, o := range r.Catalog().Cards() {
		if o != c && o.Token == c.Token && (o.Type == models.Site) == (c.Type == models.Site) {
			return o
		}
	}
	return c
}

func TestRenderSceneIsDeterministic(t *testing.T) {
	r := sampleRenderer(t)
	a, err := r.Scene(42, SceneOptions{HandChance: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := RenderScene(r.Catalog(), 42, SceneOptions{HandChance: 1})
	if err != nil {
		t.Fatal(err)
	}
	if sha256.Sum256(a.Image.Pix) != sha256.Sum256(b.Image.Pix) {
		t.Error("two renders of seed 42 differ")
	}
	c, err := r.Scene(43, SceneOptions{HandChance: 1})
	if err != nil {
		t.Fatal(err)
	}
	if sha256.Sum256(a.Image.Pix) == sha256.Sum256(c.Image.Pix) {
		t.Error("seeds 42 and 43 render the same frame")
	}
}

// TestTruthConsistency checks many laid-out scenes (without drawing them):
// rotation, owner and tapped agree, the quad's top edge runs the way the
// rotation says, cells match centres, and visible fractions are sane.
func TestTruthConsistency(t *testing.T) {
	r := sampleRenderer(t)
	geom := models.DefaultRealm()
	coveredSites, offGrid, hands := 0, 0, 0
	for seed := int64(0); seed < 150; seed++ {
		st, err := r.sceneStage(seed, SceneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		truth := st.truth()
		if truth.Occluded {
			hands++
		}
		// The realm spans 50–90% of the frame width and stays inside it.
		minX, maxX := math.Inf(1), math.Inf(-1)
		for _, p := range truth.Corners {
			minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
			if p.X < 0 || p.Y < 0 || p.X > float64(truth.Width) || p.Y > float64(truth.Height) {
				t.Errorf("seed %d: realm corner %v outside the frame", seed, p)
			}
		}
		if span := (maxX - minX) / float64(truth.Width); span < 0.45 || span > 0.95 {
			t.Errorf("seed %d: realm spans %.2f of the frame width", seed, span)
		}
		if truth.Corners[0].Y <= truth.Corners[3].Y {
			t.Errorf("seed %d: A1 corner %v is not below A4 %v (south at the bottom)", seed, truth.Corners[0], truth.Corners[3])
		}
		inv := truth.RealmToImage.Inverse()
		for i, c := range truth.Cards {
			north := c.Rotation == 180 || c.Rotation == 270
			if (c.Owner == models.North) != north {
				t.Errorf("seed %d %s: owner %s with rotation %d", seed, c.Name, c.Owner, c.Rotation)
			}
			if c.Tapped != (c.Rotation%180 == 90) {
				t.Errorf("seed %d %s: tapped %v with rotation %d", seed, c.Name, c.Tapped, c.Rotation)
			}
			if c.Type == models.Site && c.Tapped {
				t.Errorf("seed %d %s: a tapped site", seed, c.Name)
			}
			d := math.Mod(c.AngleDeg-float64(c.Rotation)+540, 360) - 180
			if math.Abs(d) > 15 {
				t.Errorf("seed %d %s: angle %.1f far from rotation %d", seed, c.Name, c.AngleDeg, c.Rotation)
			}
			// The face's top edge, back on the mat, points along the face's right.
			p0, p1 := inv.Point(c.Quad[0]), inv.Point(c.Quad[1])
			a := c.AngleDeg * math.Pi / 180
			ex, ey := math.Cos(a), -math.Sin(a)
			l := math.Hypot(p1.X-p0.X, p1.Y-p0.Y)
			if dot := ((p1.X-p0.X)*ex + (p1.Y-p0.Y)*ey) / l; dot < 0.999 {
				t.Errorf("seed %d %s: quad top edge off the face's right (cos %.3f)", seed, c.Name, dot)
			}
			cell, on := geom.CellAtMM(c.CenterMM.X, c.CenterMM.Y)
			switch {
			case on && (c.Cell == nil || *c.Cell != cell):
				t.Errorf("seed %d %s: centre %v is in %v, truth says %v", seed, c.Name, c.CenterMM, cell, c.Cell)
			case !on && c.Cell != nil:
				t.Errorf("seed %d %s: centre %v off the grid, truth says %v", seed, c.Name, c.CenterMM, c.Cell)
			case !on:
				offGrid++
			}
			if c.VisibleFraction < 0 || c.VisibleFraction > 1 {
				t.Errorf("seed %d %s: visible fraction %v", seed, c.Name, c.VisibleFraction)
			}
			// A site with a unit's centre on it is partly covered.
			if c.Type == models.Site {
				for _, u := range truth.Cards[i+1:] {
					if u.Type != models.Site && math.Abs(u.CenterMM.X-c.CenterMM.X) < 30 && math.Abs(u.CenterMM.Y-c.CenterMM.Y) < 20 {
						coveredSites++
						if c.VisibleFraction >= 0.95 {
							t.Errorf("seed %d %s: covered by %s but visible fraction %.2f", seed, c.Name, u.Name, c.VisibleFraction)
						}
						break
					}
				}
			}
		}
	}
	if coveredSites < 50 || offGrid < 5 || hands < 10 {
		t.Errorf("150 scenes hold %d covered sites, %d off-grid cards, %d occluded frames", coveredSites, offGrid, hands)
	}
}

// TestSleeves checks that a sleeve recolours the forearm only: the same
// scene with and without it differs in the arm's pixels and nowhere far
// from them, and the hand keeps its skin.
func TestSleeves(t *testing.T) {
	r := sampleRenderer(t)
	shown := 0
	for seed := int64(40); seed < 45; seed++ {
		sleeve, skin, elsewhere := sleeveChanges(t, r, seed)
		if skin > sleeve/50 || elsewhere > 0 {
			t.Errorf("seed %d: pixels changed outside the sleeve: %d of the bare skin, %d away from the arm (%d of the sleeve)", seed, skin, elsewhere, sleeve)
		}
		if sleeve >= 500 {
			shown++
		}
	}
	if shown < 2 {
		t.Errorf("a sleeve shows in %d of 5 scenes, want ≥ 2", shown)
	}
}

// sleeveChanges renders scene seed with one hand, bare and in a sleeve, and
// counts the pixels that differ: where the sleeve is, where the bare skin
// is, and away from the arm and its shadow.
func sleeveChanges(t *testing.T, r *Renderer, seed int64) (sleeve, skin, elsewhere int) {
	t.Helper()
	opts := SceneOptions{HandChance: 1, Clean: true}
	bare, err := r.Scene(seed, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.SleeveChance = 1
	dressed, err := r.Scene(seed, opts)
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.sceneStage(seed, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.hands) != 1 || !st.hands[0].sleeved {
		t.Fatalf("seed %d: want one sleeved hand, have %d", seed, len(st.hands))
	}
	hd := st.hands[0]
	eachChange(bare.Image, dressed.Image, st.cam.RealmToImage.Inverse(), func(mx, my float64) {
		switch {
		case hd.depth(mx, my) > 0 && hd.colour(mx, my) == hd.sleeve:
			sleeve++
		case hd.depth(mx, my) > 0:
			skin++
		case farFromHand(hd, mx, my, 8):
			elsewhere++
		}
	})
	return sleeve, skin, elsewhere
}

// farFromHand reports whether a mat point lies more than mm from the hand
// and from its shadow.
func farFromHand(hd hand, x, y, mm float64) bool {
	for dy := -mm; dy <= mm; dy += mm / 2 {
		for dx := -mm; dx <= mm; dx += mm / 2 {
			if hd.depth(x+dx, y+dy) > 0 {
				return false
			}
		}
	}
	return true
}

// TestObjects checks that foreign objects change a scene only where they
// and their shadows are: a scene without one is drawn exactly as before
// (the same pixels whatever ObjectChance), one with an object differs only
// near it, and the object over the realm sets the truth's Occluded.
func TestObjects(t *testing.T) {
	r := sampleRenderer(t)
	shown, occluded := 0, 0
	for seed := int64(1); seed <= 8; seed++ {
		base := SceneOptions{HandChance: -1, Clean: true, Width: 640, Height: 360}
		plain, err := r.Scene(seed, base)
		if err != nil {
			t.Fatal(err)
		}
		opts := base
		opts.ObjectChance = 1
		with, err := r.Scene(seed, opts)
		if err != nil {
			t.Fatal(err)
		}
		st, err := r.sceneStage(seed, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.objects)+len(st.hands) == 0 {
			t.Fatalf("seed %d: ObjectChance 1 put nothing on the table", seed)
		}
		on, far := 0, 0
		eachChange(plain.Image, with.Image, st.cam.RealmToImage.Inverse(), func(mx, my float64) {
			near := false
			for _, o := range st.objects {
				near = near || o.near(mx, my)
			}
			for _, hd := range st.hands {
				near = near || !farFromHand(hd, mx, my, 15)
			}
			if near {
				on++
			} else {
				far++
			}
		})
		if far > 0 {
			t.Errorf("seed %d: %d pixels changed away from the objects", seed, far)
		}
		if on > 200 {
			shown++
		}
		if with.Truth.Occluded != plain.Truth.Occluded {
			occluded++
		}
		if with.Truth.Occluded != (plain.Truth.Occluded || st.objectOverRealm() || len(st.hands) > 0 && st.handOverRealm()) {
			t.Errorf("seed %d: Occluded %v, want it set by the objects over the realm", seed, with.Truth.Occluded)
		}
		opts.ObjectChance = 0.5
		if half, err := r.sceneStage(seed, opts); err != nil {
			t.Fatal(err)
		} else if len(half.objects)+len(half.hands) == 0 {
			again, err := r.Scene(seed, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !bytesEqual(again.Image.Pix, plain.Image.Pix) {
				t.Errorf("seed %d: no object, yet the scene is drawn differently with ObjectChance 0.5", seed)
			}
		}
	}
	if shown < 6 || occluded < 3 {
		t.Errorf("objects show in %d of 8 scenes and occlude %d, want ≥ 6 and ≥ 3", shown, occluded)
	}
}

func bytesEqual(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBorderless checks that a borderless mat changes a scene only along
// the realm's border: the pixels that differ from the same scene with the
// border printed all lie within a few millimetres of it (the border's width
// and its soft edge), some do, and the truth is the same.
func TestBorderless(t *testing.T) {
	r := sampleRenderer(t)
	for seed := int64(60); seed < 63; seed++ {
		opts := SceneOptions{HandChance: -1, Clean: true}
		framed, err := r.Scene(seed, opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.Borderless = true
		bare, err := r.Scene(seed, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(framed.Truth, bare.Truth) {
			t.Errorf("seed %d: the truth changes with the border", seed)
		}
		st, err := r.sceneStage(seed, opts)
		if err != nil {
			t.Fatal(err)
		}
		w, h := st.geom.WidthMM(), st.geom.HeightMM()
		reach := st.mat.grid.borderMM/2 + 6 // the border's half width, its soft edge and a few pixels (over a millimetre each on the far side)
		near, far := 0, 0
		eachChange(framed.Image, bare.Image, st.cam.RealmToImage.Inverse(), func(mx, my float64) {
			onBorder := (math.Abs(mx) <= reach || math.Abs(mx-w) <= reach) && my > -reach && my < h+reach ||
				(math.Abs(my) <= reach || math.Abs(my-h) <= reach) && mx > -reach && mx < w+reach
			if onBorder {
				near++
			} else {
				far++
			}
		})
		if near < 500 || far > 0 {
			t.Errorf("seed %d: %d pixels changed along the border, %d away from it; want ≥ 500 and none", seed, near, far)
		}
	}
}

// eachChange calls visit with the mat point (mm, through toMat) of every
// pixel where images a and b (of one size) differ.
func eachChange(a, b *image.RGBA, toMat Homography, visit func(mx, my float64)) {
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i := a.PixOffset(x, y)
			if a.Pix[i] == b.Pix[i] && a.Pix[i+1] == b.Pix[i+1] && a.Pix[i+2] == b.Pix[i+2] {
				continue
			}
			visit(toMat.Apply(float64(x)+0.5, float64(y)+0.5))
		}
	}
}
