package ui

import (
	"image"
	"image/color"
	"math"

	"github.com/tablecam/tablecam/models"
)

// warnedCells gives, per cell index, the warnings that name the cell.
func warnedCells(v View) [models.Columns * models.Rows][]models.Warning {
	var out [models.Columns * models.Rows][]models.Warning
	for _, w := range v.ShownWarnings() {
		for _, c := range w.Cells {
			if c.Valid() {
				out[c.Index()] = append(out[c.Index()], w)
			}
		}
	}
	return out
}

// paintBoard draws the grid, the warned cells, and each card's name and tapped mark.
func (p *Painter) paintBoard(l Layout, v View) {
	if !l.HasCells {
		return
	}
	s := l.Scale
	warned := warnedCells(v)
	// Warned cells: a tinted fill and a pulsing border.
	pu := pulse(v, 1.2)
	for i, ws := range warned {
		if len(ws) == 0 {
			continue
		}
		q := l.Cells[i][:]
		p.cv.polygon(q, withAlpha(colWarning, 70))
		p.cv.stroke(q, true, (3+2*pu)*s, withAlpha(colWarning, uint8(190+60*pu)))
	}
	// The grid: cell lines, then a stronger realm border.
	gridCol := colGrid
	if l.Board.Empty() {
		gridCol = withAlpha(colGrid, 150)
	}
	// Each grid line is filled on its own: a shape's cost grows with its box.
	for col := 0; col <= models.Columns; col++ {
		south, north := gridPoint(l, col, 0), gridPoint(l, col, models.Rows)
		w, c := 1.5*s, gridCol
		if col == 0 || col == models.Columns {
			w, c = 3*s, withAlpha(colText, 220)
		}
		p.cv.line(south, north, w, c)
	}
	for row := 0; row <= models.Rows; row++ {
		west, east := gridPoint(l, 0, row), gridPoint(l, models.Columns, row)
		w, c := 1.5*s, gridCol
		if row == 0 || row == models.Rows {
			w, c = 3*s, withAlpha(colText, 220)
		}
		p.cv.line(west, east, w, c)
	}
	for i, ws := range warned {
		if len(ws) > 0 {
			p.cv.stroke(l.Cells[i][:], true, (3+2*pu)*s, withAlpha(colWarning, uint8(190+60*pu)))
		}
	}
	small := p.face(bold, l, 11)
	for _, c := range models.AllCells() {
		nw := l.Cells[c.Index()][3]
		p.cv.textShadow(small, int(nw.X+5*s), int(nw.Y+5*s)+small.ascent, c.String(), withAlpha(colText, 150))
	}
	p.paintObserved(l, v)
	for name, cs := range v.Update.State.Realm.Cells {
		c, err := models.ParseCell(name)
		if err != nil {
			continue
		}
		p.paintCellCards(l, c, cs, !l.Board.Empty() && v.Update.Image == nil)
	}
}

// paintCellCards labels a cell's site and units, units above the site. The
// schematic board (no camera image) also draws the site as a card.
func (p *Painter) paintCellCards(l Layout, c models.Cell, cs models.CellState, schematic bool) {
	s := l.Scale
	center := l.CellCenter(c)
	q := l.Cells[c.Index()]
	cellW := int(math.Min(q[1].X-q[0].X, q[2].X-q[3].X))
	f := p.face(bold, l, 13)
	lineH := f.height() + scaled(s, 6)
	n := len(cs.Units)
	if cs.Site != nil {
		n++
	}
	y := center.Y - n*lineH/2
	if schematic && cs.Site != nil {
		// The schematic board draws the site as a landscape card.
		in := 7 * s
		r := image.Rect(int(q[3].X+in), int(q[3].Y+in), int(q[1].X-in), int(q[1].Y-in))
		col := PlayerColor(cs.Site.Controller)
		if cs.Site.Card == models.RubbleName {
			col = colDim
		}
		p.cv.roundRect(r, 5*s, withAlpha(mix(colFeltCell, col, 0.35), 255))
		p.cv.stroke(roundRectPts(r, 5*s), true, 1.5*s, withAlpha(col, 200))
	}
	// Names may spill a little over the cell's edges rather than be cut.
	cellW = cellW * 5 / 4
	for _, u := range cs.Units {
		p.cardLabel(l, f, center.X, y, cellW, unnamedLabel(u.Card, u.Unnamed), u.Owner, u.Tapped)
		y += lineH
	}
	if cs.Site != nil {
		owner := cs.Site.Controller
		p.cardLabel(l, p.face(regular, l, 12), center.X, y, cellW, unnamedLabel(cs.Site.Card, cs.Site.Unnamed), owner, false)
	}
}

// unnamedLabel gives "?" for a card the camera could not name (not in the
// catalog), else its name.
func unnamedLabel(name string, unnamed bool) string {
	if unnamed && name == "" {
		return "?"
	}
	return name
}

// cardLabel draws a card's name in a pill centred at cx, top y, in its owner's colour.
func (p *Painter) cardLabel(l Layout, f *face, cx, y, maxW int, name string, owner models.Player, tapped bool) {
	s := l.Scale
	col := PlayerColor(owner)
	if name == "" {
		name = "?"
	}
	tapW := 0
	if tapped {
		tapW = scaled(s, 20)
	}
	pad := scaled(s, 6)
	name = fit(f, name, maxW-2*pad-tapW-scaled(s, 8))
	w := f.measure(name) + 2*pad + tapW
	h := f.height() + scaled(s, 4)
	r := image.Rect(cx-w/2, y, cx-w/2+w, y+h)
	p.cv.roundRect(r, float64(h)/2, color.NRGBA{0x0b, 0x0e, 0x14, 0xd8})
	p.cv.stroke(roundRectPts(r, float64(h)/2), true, 1.2*s, withAlpha(col, 200))
	p.cv.text(f, r.Min.X+pad, r.Min.Y+scaled(s, 2)+f.ascent, name, col)
	if tapped {
		// A tapped mark: a small card turned sideways.
		c := pt{float64(r.Max.X - pad - tapW/2), float64(r.Min.Y+r.Max.Y) / 2}
		p.tappedIcon(c, 7*s, col)
	}
}

// tappedIcon draws a card turned sideways (tilted, as it is being tapped)
// centred on c.
func (p *Painter) tappedIcon(c pt, r float64, col color.NRGBA) {
	w, h := r*0.9, r*1.3
	const tilt = 0.6 // radians, clockwise
	sin, cos := math.Sin(tilt), math.Cos(tilt)
	var card []pt
	for _, k := range [4]pt{{-w / 2, -h / 2}, {w / 2, -h / 2}, {w / 2, h / 2}, {-w / 2, h / 2}} {
		card = append(card, pt{c.X + k.X*cos - k.Y*sin, c.Y + k.X*sin + k.Y*cos})
	}
	p.cv.polygon(card, col)
}

// paintHover outlines the cell under the mouse and lists its warnings.
func (p *Painter) paintHover(l Layout, v View) {
	if v.Mouse == nil || v.Calibrating != nil {
		return
	}
	c, ok := l.CellAt(*v.Mouse)
	if !ok {
		return
	}
	s := l.Scale
	p.cv.stroke(l.Cells[c.Index()][:], true, 2.5*s, withAlpha(colText, 230))
	ws := warnedCells(v)[c.Index()]
	if len(ws) == 0 {
		return
	}
	f := p.face(regular, l, 13)
	lineH := f.height() + scaled(s, 4)
	w := 0
	for _, wr := range ws {
		w = max(w, f.measure(wr.Message))
	}
	w = min(w+scaled(s, 24), scaled(s, 520))
	h := lineH*len(ws) + scaled(s, 12)
	x, y := v.Mouse.X+scaled(s, 16), v.Mouse.Y+scaled(s, 16)
	if x+w > l.Picture.Max.X {
		x = v.Mouse.X - w - scaled(s, 8)
	}
	if y+h > l.Picture.Max.Y {
		y = v.Mouse.Y - h - scaled(s, 8)
	}
	r := image.Rect(x, y, x+w, y+h)
	p.cv.roundRect(r, 6*s, color.NRGBA{0x10, 0x12, 0x18, 0xf0})
	p.cv.stroke(roundRectPts(r, 6*s), true, 1.5*s, colWarning)
	for i, wr := range ws {
		p.cv.text(f, x+scaled(s, 12), y+scaled(s, 6)+i*lineH+f.ascent, fit(f, wr.Message, w-scaled(s, 20)), colText)
	}
}

// gridPoint is the screen position of the grid intersection at column line
// col (0–5, west to east) and row line row (0–4, south to north).
func gridPoint(l Layout, col, row int) pt {
	c := models.Cell{Col: min(col, models.Columns-1), Row: min(row, models.Rows-1)}
	q := l.Cells[c.Index()]
	switch {
	case col == models.Columns && row == models.Rows:
		return q[2]
	case col == models.Columns:
		return q[1]
	case row == models.Rows:
		return q[3]
	}
	return q[0]
}

// paintObserved outlines the cards vision sees in this frame, in their
// owner's colour. Before the game state holds any card (the game has not
// started), it also labels them with the names vision read.
func (p *Painter) paintObserved(l Layout, v View) {
	if l.Image.Empty() {
		return
	}
	s := l.Scale
	label := len(v.Update.State.Realm.Cells) == 0
	f := p.face(bold, l, 12)
	for _, c := range v.Update.Observation.Cards {
		var q []pt
		for _, k := range c.Quad {
			q = append(q, l.imageToScreen(pt{k.X, k.Y}))
		}
		col := PlayerColor(c.Owner)
		if !c.Identified() {
			col = colDim
		}
		p.cv.stroke(q, true, 1.5*s, withAlpha(col, 170))
		if label {
			cx, cy := (q[0].X+q[1].X+q[2].X+q[3].X)/4, (q[0].Y+q[1].Y+q[2].Y+q[3].Y)/4
			p.cardLabel(l, f, int(cx), int(cy)-f.height()/2, scaled(s, 200), c.NameOr("?"), c.Owner, c.Tapped)
		}
	}
}
