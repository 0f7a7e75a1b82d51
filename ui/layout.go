package ui

import (
	"image"
	"math"

	"github.com/tablecam/tablecam/models"
)

// HUDLayout places one player's HUD.
type HUDLayout struct {
	Panel  image.Rectangle
	Header image.Rectangle
	// Life holds the life number; Minus and Plus are its buttons.
	Life, Minus, Plus image.Rectangle
	Mana              image.Rectangle
	// Icons hold the element icons in models.Elements order (air, earth, fire, water).
	Icons [4]image.Rectangle
	Sites image.Rectangle
}

// Layout says where everything goes on the screen for one view. The painter
// draws by it and the window hit-tests clicks with it, so both agree.
type Layout struct {
	Bounds image.Rectangle
	// Scale is the size of the layout relative to a 1280×720 frame.
	Scale float64
	Mode  Mode

	TopBar, BottomBar, Sidebar, Events image.Rectangle
	// Picture is the area the camera image or the top-down board is drawn in.
	Picture image.Rectangle
	// Image is where the camera image lands (empty when it is not drawn).
	Image image.Rectangle
	// Board is the top-down realm (rectified or schematic); empty in the camera view.
	Board image.Rectangle
	// Cells are the screen quads of the 20 cells, by models.Cell.Index, each
	// with corners south-west, south-east, north-east, north-west.
	Cells [models.Columns * models.Rows][4]pt
	// HasCells is false when the realm's position is unknown (no calibration yet).
	HasCells bool
	// HUD is indexed by player: HUD[models.South], HUD[models.North].
	HUD [3]HUDLayout

	imgScale  float64
	imgOrigin pt
	// realmToImage maps realm millimetres to camera pixels (camera view only).
	realmToImage models.Homography
	hasRealm     bool
}

func scaled(s float64, v float64) int { return int(math.Round(s * v)) }

// LayoutFor lays out a frame of the given bounds for view v.
func LayoutFor(b image.Rectangle, v View) Layout {
	s := math.Min(float64(b.Dx())/1280, float64(b.Dy())/720)
	if s <= 0 {
		s = 1
	}
	l := Layout{Bounds: b, Scale: s, Mode: v.Mode}
	if v.Mode == Stream {
		l.layoutStream()
		return l
	}
	sw := scaled(s, 340)
	l.Sidebar = image.Rect(b.Max.X-sw, b.Min.Y, b.Max.X, b.Max.Y)
	l.TopBar = image.Rect(b.Min.X, b.Min.Y, l.Sidebar.Min.X, b.Min.Y+scaled(s, 48))
	l.BottomBar = image.Rect(b.Min.X, b.Max.Y-scaled(s, 34), l.Sidebar.Min.X, b.Max.Y)
	l.Picture = image.Rect(b.Min.X, l.TopBar.Max.Y, l.Sidebar.Min.X, l.BottomBar.Min.Y)

	m := scaled(s, 10)
	hh := scaled(s, 250)
	north := image.Rect(l.Sidebar.Min.X+m, b.Min.Y+m, l.Sidebar.Max.X-m, b.Min.Y+m+hh)
	south := image.Rect(l.Sidebar.Min.X+m, b.Max.Y-m-hh, l.Sidebar.Max.X-m, b.Max.Y-m)
	l.HUD[models.North] = hudLayout(north, s, false)
	l.HUD[models.South] = hudLayout(south, s, false)
	l.Events = image.Rect(north.Min.X, north.Max.Y+m, north.Max.X, south.Min.Y-m)

	img := v.Update.Image
	corners := v.Update.Observation.Mat.Corners
	if img != nil && !v.Rectified {
		ib := img.Bounds()
		// Above the list of warnings when there is room, so that it does
		// not hide the near row of the realm.
		area := l.Picture
		if h := warningListHeight(s, v); h > 0 {
			area.Max.Y -= h + scaled(s, 12)
		}
		if fitRect(area, ib.Dx(), ib.Dy()).Dx() < l.Picture.Dx()*9/10 {
			area = l.Picture
		}
		l.Image = fitRect(area, ib.Dx(), ib.Dy())
		l.imgScale = float64(l.Image.Dx()) / float64(ib.Dx())
		l.imgOrigin = pt{float64(l.Image.Min.X) - float64(ib.Min.X)*l.imgScale, float64(l.Image.Min.Y) - float64(ib.Min.Y)*l.imgScale}
		if v.Update.Observation.Mat.Found && corners != nil {
			if h, ok := realmHomography(*corners); ok {
				l.realmToImage, l.hasRealm = h, true
				l.HasCells = true
				for _, c := range models.AllCells() {
					for i, q := range cellCornersMM(c) {
						l.Cells[c.Index()][i] = l.imageToScreen(applyHomography(h, q))
					}
				}
			}
		}
		return l
	}
	pad := scaled(s, 18)
	area := l.Picture.Inset(pad)
	// Leave room for the list of warnings under the board.
	area.Max.Y -= warningListHeight(s, v)
	l.Board = fitRect(area, 5, 3)
	l.HasCells = true
	cw, ch := float64(l.Board.Dx())/models.Columns, float64(l.Board.Dy())/models.Rows
	for _, c := range models.AllCells() {
		x0 := float64(l.Board.Min.X) + float64(c.Col)*cw
		y1 := float64(l.Board.Max.Y) - float64(c.Row)*ch
		l.Cells[c.Index()] = [4]pt{{x0, y1}, {x0 + cw, y1}, {x0 + cw, y1 - ch}, {x0, y1 - ch}}
	}
	if img != nil && v.Update.Observation.Mat.Found && corners != nil {
		if h, ok := realmHomography(*corners); ok {
			l.realmToImage, l.hasRealm = h, true
		}
	}
	return l
}

// warningListHeight is about how much of the picture's bottom the list of
// rule warnings takes (long sentences take two lines); 0 without warnings.
func warningListHeight(s float64, v View) int {
	ws := v.ShownWarnings()
	if len(ws) == 0 {
		return 0
	}
	lines := 0
	for _, w := range ws[max(0, len(ws)-mostWarnings):] {
		lines++
		if len(w.Message) > 80 {
			lines++
		}
	}
	return scaled(s, float64(36+21*lines))
}

func (l *Layout) layoutStream() {
	b, s := l.Bounds, l.Scale
	m := scaled(s, 24)
	w, h := scaled(s, 430), scaled(s, 300)
	south := image.Rect(b.Min.X+m, b.Max.Y-m-h, b.Min.X+m+w, b.Max.Y-m)
	north := image.Rect(b.Max.X-m-w, b.Max.Y-m-h, b.Max.X-m, b.Max.Y-m)
	l.HUD[models.South] = hudLayout(south, s, true)
	l.HUD[models.North] = hudLayout(north, s, true)
	l.TopBar = image.Rect(b.Min.X+b.Dx()/2-scaled(s, 260), b.Min.Y+m, b.Min.X+b.Dx()/2+scaled(s, 260), b.Min.Y+m+scaled(s, 56))
	l.Events = image.Rect(south.Max.X+m, b.Min.Y+b.Dy()/3, north.Min.X-m, b.Max.Y-m)
}

// hudLayout splits a HUD panel into its rows.
func hudLayout(p image.Rectangle, s float64, big bool) HUDLayout {
	pad := scaled(s, 14)
	x0, x1 := p.Min.X+pad, p.Max.X-pad
	y := p.Min.Y + scaled(s, 8)
	h := HUDLayout{Panel: p}
	h.Header = image.Rect(x0, y, x1, y+scaled(s, 30))
	y = h.Header.Max.Y + scaled(s, 4)
	lifeH := scaled(s, 84)
	if big {
		lifeH = scaled(s, 110)
	}
	btn := scaled(s, 38)
	h.Plus = image.Rect(x1-btn, y+(lifeH-btn)/2, x1, y+(lifeH+btn)/2)
	h.Minus = h.Plus.Sub(image.Pt(btn+scaled(s, 10), 0))
	h.Life = image.Rect(x0, y, h.Minus.Min.X-scaled(s, 8), y+lifeH)
	y += lifeH + scaled(s, 4)
	manaH := scaled(s, 34)
	if big {
		manaH = scaled(s, 50)
	}
	h.Mana = image.Rect(x0, y, x1, y+manaH)
	y = h.Mana.Max.Y + scaled(s, 6)
	iw := (x1 - x0) / 4
	ih := scaled(s, 40)
	for i := range h.Icons {
		h.Icons[i] = image.Rect(x0+i*iw, y, x0+(i+1)*iw, y+ih)
	}
	y += ih + scaled(s, 4)
	h.Sites = image.Rect(x0, y, x1, min(y+scaled(s, 28), p.Max.Y-scaled(s, 4)))
	return h
}

// fitRect is the largest rectangle of aspect w:h centred in r.
func fitRect(r image.Rectangle, w, h int) image.Rectangle {
	if w <= 0 || h <= 0 || r.Empty() {
		return image.Rectangle{}
	}
	sx := float64(r.Dx()) / float64(w)
	sy := float64(r.Dy()) / float64(h)
	k := math.Min(sx, sy)
	fw, fh := int(math.Round(float64(w)*k)), int(math.Round(float64(h)*k))
	x := r.Min.X + (r.Dx()-fw)/2
	y := r.Min.Y + (r.Dy()-fh)/2
	return image.Rect(x, y, x+fw, y+fh)
}

// realmHomography maps realm millimetres (origin at A1's outer corner, y
// north) onto the image quad A1, E1, E4, A4; ok is false for a quad that
// is no realm (three corners on a line).
func realmHomography(q models.Quad) (h models.Homography, ok bool) {
	g := models.DefaultRealm()
	realm := models.Quad{{X: 0, Y: 0}, {X: g.WidthMM(), Y: 0}, {X: g.WidthMM(), Y: g.HeightMM()}, {X: 0, Y: g.HeightMM()}}
	h, err := models.NewHomography(realm, q)
	return h, err == nil
}

// applyHomography maps a painter's point through h.
func applyHomography(h models.Homography, p pt) pt {
	q := h.Apply(models.Point{X: p.X, Y: p.Y})
	return pt{q.X, q.Y}
}

// cellCornersMM gives a cell's corners (SW, SE, NE, NW) in realm millimetres.
func cellCornersMM(c models.Cell) [4]pt {
	g := models.DefaultRealm()
	x0, y0 := float64(c.Col)*g.CellWidthMM, float64(c.Row)*g.CellHeightMM
	x1, y1 := x0+g.CellWidthMM, y0+g.CellHeightMM
	return [4]pt{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
}

func (l *Layout) imageToScreen(p pt) pt {
	return pt{l.imgOrigin.X + p.X*l.imgScale, l.imgOrigin.Y + p.Y*l.imgScale}
}

// ScreenToImage converts a screen point to camera image pixels; ok is false
// when the camera image is not shown or the point is outside it.
func (l Layout) ScreenToImage(p image.Point) (models.Point, bool) {
	if l.Image.Empty() || !p.In(l.Image) {
		return models.Point{}, false
	}
	return models.Point{X: (float64(p.X) + 0.5 - l.imgOrigin.X) / l.imgScale, Y: (float64(p.Y) + 0.5 - l.imgOrigin.Y) / l.imgScale}, true
}

// CellAt gives the cell under a screen point.
func (l Layout) CellAt(p image.Point) (models.Cell, bool) {
	if !l.HasCells {
		return models.Cell{}, false
	}
	q := pt{float64(p.X) + 0.5, float64(p.Y) + 0.5}
	for i, quad := range l.Cells {
		if inQuad(q, quad) {
			return models.CellAt(i), true
		}
	}
	return models.Cell{}, false
}

// CellCenter is the screen centre of a cell's quad.
func (l Layout) CellCenter(c models.Cell) image.Point {
	q := l.Cells[c.Index()]
	var x, y float64
	for _, p := range q {
		x += p.X / 4
		y += p.Y / 4
	}
	return image.Pt(int(x), int(y))
}

// inQuad reports whether p is inside the convex quad q (either winding).
func inQuad(p pt, q [4]pt) bool {
	sign := 0.0
	for i := 0; i < 4; i++ {
		a, b := q[i], q[(i+1)%4]
		cr := (b.X-a.X)*(p.Y-a.Y) - (b.Y-a.Y)*(p.X-a.X)
		if cr == 0 {
			continue
		}
		if sign == 0 {
			sign = cr
		} else if (cr > 0) != (sign > 0) {
			return false
		}
	}
	return true
}

// centered is the w×h rectangle centred horizontally on cx with its top at y.
func centered(cx, y, w, h int) image.Rectangle {
	return image.Rectangle{Min: image.Pt(cx-w/2, y), Max: image.Pt(cx-w/2+w, y+h)}
}
