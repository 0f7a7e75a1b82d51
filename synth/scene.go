package synth

import (
	"image"
	"math"
	"math/rand"

	"github.com/tablecam/tablecam/models"
)

// SceneOptions tunes RenderScene. The zero value renders a realistic
// 1280×720 frame.
type SceneOptions struct {
	// Width and Height of the frame; 1280×720 when zero.
	Width, Height int
	// Clean turns off the photometric effects (lighting gradient, colour
	// temperature, glare, blur and noise). The board and camera stay the
	// same for a seed either way.
	Clean bool
	// HandChance is the chance that a hand or forearm reaches over the mat:
	// 0 means the default 0.3, a negative value means never.
	HandChance float64
	// SleeveChance is the chance that a hand's forearm is in a sleeve (a
	// fabric colour from a little behind the wrist back): 0 means never.
	// Scenes without sleeves are drawn the same whatever its value.
	SleeveChance float64
	// ObjectChance is the chance that a foreign object (a phone, a cup, a
	// dice bag, a deck box, a pen, a sheet of paper, or an arm in a long
	// sleeve) lies on the table, mostly partly over the realm: 0 means
	// never. Scenes without objects are drawn the same whatever its value.
	ObjectChance float64
	// JPEGQuality, when positive, passes Image through JPEG compression at
	// that quality (files written by WriteStills are JPEG anyway).
	JPEGQuality int
	// Borderless prints the mat's grid without its border: only the
	// realm's inner lines, each ending where the border would run. Scenes
	// are otherwise drawn the same.
	Borderless bool
	// MaxRollDeg, when positive, turns the camera in the image plane by up
	// to ±MaxRollDeg (up to 180: a camera at any angle around the mat);
	// 0 means the default ±10°. The same seed draws the same scene but
	// for the turn.
	MaxRollDeg float64
}

// Scene is a rendered camera frame of a table with its ground truth.
type Scene struct {
	Image *image.RGBA
	Truth SceneTruth
}

// RenderScene renders one random table scene with the catalog's cards. The
// same seed gives the same scene. To render many scenes, make one Renderer
// and call its Scene method, which reuses the loaded faces.
func RenderScene(cat *models.Catalog, seed int64, opts SceneOptions) (*Scene, error) {
	r, err := NewRenderer(cat)
	if err != nil {
		return nil, err
	}
	return r.Scene(seed, opts)
}

// Scene renders one random table scene; see RenderScene.
func (r *Renderer) Scene(seed int64, opts SceneOptions) (*Scene, error) {
	st, err := r.sceneStage(seed, opts)
	if err != nil {
		return nil, err
	}
	img, err := st.frame()
	if err != nil {
		return nil, err
	}
	truth := st.truth()
	truth.Seed = seed
	return &Scene{Image: img, Truth: truth}, nil
}

// sceneStage lays out a random scene without drawing it.
func (r *Renderer) sceneStage(seed int64, opts SceneOptions) (*stage, error) {
	if opts.Width <= 0 || opts.Height <= 0 {
		opts.Width, opts.Height = 1280, 720
	}
	handChance := opts.HandChance
	if handChance == 0 {
		handChance = 0.3
	}
	rng := rand.New(rand.NewSource(seed))
	st := &stage{geom: r.geom}
	st.cam = newCamera(randomPose(rng, opts.MaxRollDeg), r.geom, opts.Width, opts.Height)
	st.mat = r.randomMat(rng)
	st.mat.grid.borderless = opts.Borderless
	st.photo = randomPhotometry(rng, opts.Width, opts.Height)
	a := rng.Float64() * 2 * math.Pi
	d := 0.6 + 1.2*rng.Float64()
	st.shadowX, st.shadowY = d*math.Cos(a), d*math.Sin(a)
	if err := r.randomBoard(rng, st); err != nil {
		return nil, err
	}
	if rng.Float64() < handChance {
		side := []int{0, 0, 0, 0, 1, 1, 1, 2, 3}[rng.Intn(9)]
		tx := -20 + (r.geom.WidthMM()+40)*rng.Float64()
		ty := -10 + (r.geom.HeightMM()+20)*rng.Float64()
		hd := newHand(rng, side, tx, ty, r.geom)
		// A stream of its own, so that the rest of the scene is drawn the
		// same with sleeves or without.
		if sr := rand.New(rand.NewSource(seed ^ 0x51ee7e)); sr.Float64() < opts.SleeveChance {
			hd.dressSleeve(sr)
		}
		st.hands = append(st.hands, hd)
	}
	st.addObjects(seed, opts.ObjectChance)
	if opts.Clean {
		st.photo = cleanPhotometry()
	}
	st.photo.jpegQuality = opts.JPEGQuality
	return st, nil
}

// frame renders the stage and applies the photometry.
func (st *stage) frame() (*image.RGBA, error) {
	f := st.render()
	st.photo.apply(f)
	return st.photo.finish(f)
}

func (r *Renderer) randomMat(rng *rand.Rand) matStyle {
	variant := rng.Intn(matArtVariants)
	m := matStyle{
		art:   r.matArt(variant),
		table: r.table(rng.Intn(4)),
		grid:  randomGridStyle(rng, variant),
		matW:  r.geom.WidthMM() + 2*matMarginX,
		matH:  r.geom.HeightMM() + 2*matMarginY,
	}
	t := 0.85 + 0.3*rng.Float64()
	m.tableTint = [3]float64{t, t * (0.95 + 0.1*rng.Float64()), t * (0.9 + 0.15*rng.Float64())}
	return m
}

// placement is a card to put on the board.
type placement struct {
	card          *models.Card
	owner         models.Player
	cx, cy        float64
	tapped        bool
	jitterDeg     float64
	offGrid, void bool
}

// randomBoard lays out a plausible mid-game board: sites facing their
// owners, avatars and units on sites or in the void, some tapped, tokens,
// and now and then a card off the grid on the mat margin.
func (r *Renderer) randomBoard(rng *rand.Rand, st *stage) error {
	g := r.geom
	centre := func(c models.Cell) (float64, float64) {
		return (float64(c.Col) + 0.5) * g.CellWidthMM, (float64(c.Row) + 0.5) * g.CellHeightMM
	}
	siteAt := map[models.Cell]models.Player{}
	var sites, units []placement
	for _, p := range models.Players {
		n := 1 + rng.Intn(6)
		home := []int{0, 1}
		if p == models.North {
			home = []int{3, 2}
		}
		for i := 0; i < n; i++ {
			var c models.Cell
			for try := 0; try < 20; try++ {
				c = models.Cell{Col: rng.Intn(models.Columns), Row: home[rng.Intn(2)]}
				if rng.Float64() < 0.15 {
					c.Row = rng.Intn(models.Rows)
				}
				if _, taken := siteAt[c]; !taken {
					break
				}
			}
			if _, taken := siteAt[c]; taken {
				continue
			}
			siteAt[c] = p
			x, y := centre(c)
			sites = append(sites, placement{
				card: r.sites[rng.Intn(len(r.sites))], owner: p,
				cx: x + (rng.Float64()*2-1)*4, cy: y + (rng.Float64()*2-1)*3,
				jitterDeg: (rng.Float64()*2 - 1) * 4,
			})
		}
	}
	// Avatars and units.
	var siteCells []models.Cell
	for _, c := range models.AllCells() {
		if _, ok := siteAt[c]; ok {
			siteCells = append(siteCells, c)
		}
	}
	addUnit := func(card *models.Card, owner models.Player, c models.Cell, void bool) {
		x, y := centre(c)
		ox := (rng.Float64()*2 - 1) * 22
		oy := (rng.Float64()*2 - 1) * 12
		units = append(units, placement{
			card: card, owner: owner, cx: x + ox, cy: y + oy,
			tapped:    rng.Float64() < 0.3,
			jitterDeg: (rng.Float64()*2 - 1) * 6, void: void,
		})
	}
	for _, p := range models.Players {
		var own []models.Cell
		for _, c := range siteCells {
			if siteAt[c] == p {
				own = append(own, c)
			}
		}
		c := models.Cell{Col: 2, Row: 0}
		if p == models.North {
			c.Row = 3
		}
		if len(own) > 0 && rng.Float64() < 0.7 {
			c = own[rng.Intn(len(own))]
		}
		addUnit(r.avatars[rng.Intn(len(r.avatars))], p, c, false)
	}
	nUnits := rng.Intn(8)
	for i := 0; i < nUnits; i++ {
		owner := models.Players[rng.Intn(2)]
		card := r.units[rng.Intn(len(r.units))]
		if len(r.tokens) > 0 && rng.Float64() < 0.2 {
			card = r.tokens[rng.Intn(len(r.tokens))]
		}
		if rng.Float64() < 0.8 && len(siteCells) > 0 {
			addUnit(card, owner, siteCells[rng.Intn(len(siteCells))], false)
		} else {
			addUnit(card, owner, models.Cell{Col: rng.Intn(models.Columns), Row: rng.Intn(models.Rows)}, true)
		}
	}
	rng.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	all := append(sites, units...)
	// Now and then a card off the grid, on the mat's margin.
	if rng.Float64() < 0.25 {
		pool := append(append([]*models.Card{}, r.units...), r.spells...)
		card := pool[rng.Intn(len(pool))]
		var x, y float64
		switch rng.Intn(3) {
		case 0:
			x, y = -matMarginX*0.55-20*rng.Float64(), g.HeightMM()*rng.Float64()
		case 1:
			x, y = g.WidthMM()+matMarginX*0.55+20*rng.Float64(), g.HeightMM()*rng.Float64()
		default:
			x, y = g.WidthMM()*rng.Float64(), -matMarginY-30*rng.Float64()
		}
		owner := models.South
		if y > g.HeightMM()/2 {
			owner = models.North
		}
		all = append(all, placement{card: card, owner: owner, cx: x, cy: y,
			jitterDeg: (rng.Float64()*2 - 1) * 12, offGrid: true})
	}
	for _, p := range all {
		face, err := r.face(p.card)
		if err != nil {
			return err
		}
		rot := 0
		if p.owner == models.North {
			rot = 180
		}
		if p.tapped {
			rot += 90
		}
		s := &sprite{card: p.card, face: face, cx: p.cx, cy: p.cy, owner: p.owner,
			rotation: rot, tapped: p.tapped, angle: float64(rot) + p.jitterDeg, imageTurn: r.ImageTurn(p.card)}
		if c, ok := g.CellAtMM(p.cx, p.cy); ok {
			s.cell = &c
		}
		st.sprites = append(st.sprites, s)
	}
	return nil
}

// truth computes the ground truth of a stage.
func (st *stage) truth() SceneTruth {
	t := SceneTruth{
		Width: st.cam.Width, Height: st.cam.Height,
		Corners:      st.cam.RealmCorners(st.geom),
		Geometry:     st.geom,
		RealmToImage: st.cam.RealmToImage,
		TiltDeg:      math.Round(st.cam.TiltDeg*100) / 100,
		RollDeg:      math.Round(st.cam.RollDeg*100) / 100,
		Cards:        []CardTruth{},
	}
	t.Occluded = st.handOverRealm() || st.objectOverRealm()
	for _, s := range st.sprites {
		s.prepare()
	}
	for i, s := range st.sprites {
		var q models.Quad
		for k, p := range s.cornersMM() {
			q[k] = st.cam.RealmToImage.Point(p)
		}
		t.Cards = append(t.Cards, CardTruth{
			Cell: s.cell, Name: s.card.Name, Slug: s.card.Slug, Type: s.card.Type, Token: s.card.Token,
			Owner: s.owner, Rotation: s.rotation, Tapped: s.tapped, Quad: q, ImageTurn: s.imageTurn,
			VisibleFraction: math.Round(st.visibleFraction(i)*1000) / 1000,
			CenterMM:        models.Point{X: math.Round(s.cx*100) / 100, Y: math.Round(s.cy*100) / 100},
			AngleDeg:        math.Round(s.angle*100) / 100,
		})
	}
	return t
}

// handOverRealm reports whether any hand covers part of the realm (objects:
// see objectOverRealm).
func (st *stage) handOverRealm() bool {
	for i := range st.hands {
		for y := 0.0; y <= st.geom.HeightMM(); y += 4 {
			for x := 0.0; x <= st.geom.WidthMM(); x += 4 {
				if st.hands[i].depth(x, y) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// visibleFraction samples the face of sprite i on a grid and counts the
// points that no card above, no hand and no frame edge hides.
func (st *stage) visibleFraction(i int) float64 {
	s := st.sprites[i]
	const na, nb = 16, 22
	total, seen := 0, 0
	for ia := 0; ia < na; ia++ {
		for ib := 0; ib < nb; ib++ {
			a := (float64(ia)+0.5)/na*s.face.wMM - s.face.wMM/2
			b := (float64(ib)+0.5)/nb*s.face.hMM - s.face.hMM/2
			if !insideRoundRect(a, b, s.face.wMM/2, s.face.hMM/2, s.radius) {
				continue
			}
			total++
			x, y := s.cx+a*s.rx+b*s.ux, s.cy+a*s.ry+b*s.uy
			if ix, iy := st.cam.RealmToImage.Apply(x, y); ix < 0 || iy < 0 || ix > float64(st.cam.Width-1) || iy > float64(st.cam.Height-1) {
				continue
			}
			hidden := false
			for j := i + 1; j < len(st.sprites) && !hidden; j++ {
				hidden = st.sprites[j].contains(x, y)
			}
			for h := range st.hands {
				hidden = hidden || st.hands[h].depth(x, y) > 0
			}
			for o := range st.objects {
				hidden = hidden || st.objects[o].covers(x, y)
			}
			if !hidden {
				seen++
			}
		}
	}
	if total == 0 {
		return 0
	}
	return float64(seen) / float64(total)
}
