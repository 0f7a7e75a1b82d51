package ui

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// paintTopBar shows whose turn it is, the turn number, the realm's water and
// land, and the view's modes.
func (p *Painter) paintTopBar(l Layout, v View) {
	s := l.Scale
	r := l.TopBar
	p.cv.fillRect(r, color.NRGBA{0x0e, 0x11, 0x17, 0xff})
	p.cv.fillRect(image.Rect(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y), colPanelEdge)
	st := v.Update.State
	tf := p.face(bold, l, 20)
	x := r.Min.X + scaled(s, 16)
	base := r.Min.Y + (r.Dy()+tf.ascent-tf.descent)/2
	if st.Turn > 0 {
		x = p.cv.text(tf, x, base, fmt.Sprintf("TURN %d", st.Turn), colText)
		if st.Active != models.NoPlayer {
			x = p.cv.text(tf, x+scaled(s, 12), base, "·", colDim)
			x = p.cv.text(tf, x+scaled(s, 12), base, strings.ToUpper(st.Active.String())+" TO PLAY", PlayerColor(st.Active))
		}
	} else {
		x = p.cv.text(tf, x, base, "tablecam", colText)
		x = p.cv.text(p.face(regular, l, 15), x+scaled(s, 12), base, "waiting for the game to start", colDim)
	}
	rf := p.face(regular, l, 14)
	realm := fmt.Sprintf("%s · %s", plural(len(st.Realm.BodiesOfWater), "body of water", "bodies of water"),
		plural(len(st.Realm.SpansOfLand), "span of land", "spans of land"))
	x = p.cv.text(rf, x+scaled(s, 22), base, realm, colDim)

	// Mode badges on the right.
	bx := r.Max.X - scaled(s, 12)
	badge := func(label string, col color.NRGBA) {
		bf := p.face(bold, l, 12)
		w := bf.measure(label) + scaled(s, 16)
		br := image.Rect(bx-w, r.Min.Y+scaled(s, 12), bx, r.Max.Y-scaled(s, 12))
		if br.Min.X < x+scaled(s, 8) {
			return
		}
		p.cv.roundRect(br, float64(br.Dy())/2, withAlpha(col, 60))
		p.cv.stroke(roundRectPts(br, float64(br.Dy())/2), true, 1.2*s, col)
		p.cv.textIn(bf, br, label, alignCenter, col)
		bx = br.Min.X - scaled(s, 8)
	}
	if v.Paused {
		badge("PAUSED", colWarning)
	}
	if v.Rectified {
		badge("TOP-DOWN", colSouth)
	}
	if v.Muted {
		badge("MUTED", colDim)
	} else {
		badge(fmt.Sprintf("VOL %d%%", int(math.Round(v.Volume*100))), colDim)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// paintBottomBar is the status line.
func (p *Painter) paintBottomBar(l Layout, v View) {
	s := l.Scale
	r := l.BottomBar
	p.cv.fillRect(r, color.NRGBA{0x0e, 0x11, 0x17, 0xff})
	p.cv.fillRect(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+1), colPanelEdge)
	f := p.face(regular, l, 13)
	status := v.Update.Status
	dot := colOK
	switch {
	case v.Paused:
		status, dot = "recognition paused — P to resume", colWarning
	case status != "":
		dot = colWarning
	case v.Update.Image == nil && v.Update.Frame == 0:
		status, dot = "waiting for the camera…", colDim
	default:
		seen := fmt.Sprintf("%d cards seen", len(v.Update.Observation.Cards))
		if v.Update.Observation.Occluded {
			// What vision reads under a hand is not used: say so rather than "0 cards seen".
			seen = "hand over the table: the board stays as last read"
		}
		status = fmt.Sprintf("frame %d · %.1f s · %s", v.Update.Frame, v.Update.Time, seen)
		if !v.Update.Observation.Mat.Found && v.Update.Image != nil {
			status += " · realm not found — press K to click its corners"
			dot = colWarning
		}
	}
	cy := float64(r.Min.Y+r.Max.Y) / 2
	p.cv.circle(pt{float64(r.Min.X) + 18*s, cy}, 4.5*s, dot)
	p.cv.textIn(f, image.Rect(r.Min.X+scaled(s, 30), r.Min.Y, r.Max.X-scaled(s, 140), r.Max.Y), status, alignLeft, colText)
	p.cv.textIn(f, image.Rect(r.Max.X-scaled(s, 140), r.Min.Y, r.Max.X-scaled(s, 14), r.Max.Y), "? for help", alignRight, colDim)
}

// paintEvents lists the latest events, newest first, each with its time of
// day. The events of a resumed game that came before this run are dimmed
// under a line that says so.
func (p *Painter) paintEvents(l Layout, v View) {
	s := l.Scale
	r := l.Events
	if r.Dy() < scaled(s, 40) {
		return
	}
	hf := p.face(bold, l, 12)
	p.cv.text(hf, r.Min.X+scaled(s, 4), r.Min.Y+scaled(s, 4)+hf.ascent, "RECENT", colDim)
	f := p.face(regular, l, 13)
	tf := p.face(regular, l, 12)
	lineH := f.height() + scaled(s, 5)
	y := r.Min.Y + scaled(s, 10) + hf.height()
	timeW := 0
	for _, rc := range v.Recent {
		if !rc.Clock.IsZero() {
			timeW = tf.measure("00:00") + scaled(s, 8)
			break
		}
	}
	for i := len(v.Recent) - 1; i >= 0 && y+lineH <= r.Max.Y; i-- {
		rc := v.Recent[i]
		if rc.Earlier && (i == len(v.Recent)-1 || !v.Recent[i+1].Earlier) {
			// Where this run's events end and the resumed game's begin.
			mid := y + lineH/2
			label := "BEFORE THE RESTART"
			lw := hf.measure(label)
			x := r.Min.X + scaled(s, 4)
			p.cv.text(hf, x, mid+(hf.ascent-hf.descent)/2, label, colDim)
			p.cv.fillRect(image.Rect(x+lw+scaled(s, 8), mid, r.Max.X-scaled(s, 4), mid+max(1, scaled(s, 1))), colFaint)
			y += lineH
			if y+lineH > r.Max.Y {
				break
			}
		}
		ev := rc.Event
		col := colText
		if v.Now-rc.At > 20 || rc.Earlier {
			col = colDim
		}
		x := r.Min.X + scaled(s, 4)
		if !rc.Clock.IsZero() {
			p.cv.textIn(tf, image.Rect(x, y, x+timeW, y+lineH), rc.Clock.Format("15:04"), alignLeft, colDim)
		}
		x += timeW
		p.cv.circle(pt{float64(x) + 5*s, float64(y+lineH/2) - 1}, 3.5*s, PlayerColor(ev.Player))
		p.cv.textIn(f, image.Rect(x+scaled(s, 16), y, r.Max.X, y+lineH), Describe(ev), alignLeft, col)
		y += lineH
	}
	if len(v.Recent) == 0 {
		p.cv.text(f, r.Min.X+scaled(s, 4), y+f.ascent, "nothing yet", colFaint)
	}
}

// paintWarningList lists the rule warnings at the bottom of the picture.
func (p *Painter) paintWarningList(l Layout, v View) {
	ws := v.ShownWarnings()
	if len(ws) == 0 {
		return
	}
	s := l.Scale
	f := p.face(regular, l, 13)
	hf := p.face(bold, l, 13)
	cf := p.face(bold, l, 13)
	lineH := f.height() + scaled(s, 4)
	n := min(len(ws), mostWarnings)
	shown := ws[len(ws)-n:]
	w := l.Picture.Dx() - scaled(s, 24)
	prefixW := cf.measure("E4 E4 ") // room for the cells, so messages line up
	textW := w - prefixW - scaled(s, 28)
	var wrapped [][]string
	lines := 0
	for _, wr := range shown {
		ls := wrap(f, wr.Message, textW, 2)
		wrapped = append(wrapped, ls)
		lines += len(ls)
	}
	h := hf.height() + lineH*lines + scaled(s, 16)
	bottom := l.Picture.Max.Y - scaled(s, 12)
	if ps, _ := playerState(v, models.South); ps.DeathsDoor || defeated(v, models.South) {
		bottom -= scaled(s, 54)
	}
	r := image.Rect(l.Picture.Min.X+scaled(s, 12), bottom-h, l.Picture.Min.X+scaled(s, 12)+w, bottom)
	p.cv.roundRect(r, 8*s, color.NRGBA{0x10, 0x12, 0x18, 0xe0})
	p.cv.stroke(roundRectPts(r, 8*s), true, 1.5*s, withAlpha(colWarning, 200))
	title := plural(len(ws), "RULE WARNING", "RULE WARNINGS")
	if len(ws) > n {
		title += fmt.Sprintf(" (latest %d)", n)
	}
	y := r.Min.Y + scaled(s, 8)
	p.warningGlyph(pt{float64(r.Min.X) + 18*s, float64(y+hf.height()/2) + 1}, 8*s)
	p.cv.text(hf, r.Min.X+scaled(s, 32), y+hf.ascent, title, colWarning)
	y += hf.height() + scaled(s, 4)
	for i, wr := range shown {
		cells := make([]string, len(wr.Cells))
		for j, c := range wr.Cells {
			cells[j] = c.String()
		}
		x := r.Min.X + scaled(s, 14)
		p.cv.textIn(cf, image.Rect(x, y, x+prefixW, y+lineH), strings.Join(cells, " "), alignLeft, colWarning)
		for _, line := range wrapped[i] {
			p.cv.textIn(f, image.Rect(x+prefixW, y, r.Max.X-scaled(s, 10), y+lineH), line, alignLeft, colText)
			y += lineH
		}
	}
}

// mostWarnings is how many warnings the list shows (the latest).
const mostWarnings = 4

// wrap breaks s into at most maxLines lines of at most width pixels, cutting
// the last one with an ellipsis.
func wrap(f *face, s string, width, maxLines int) []string {
	words := strings.Fields(s)
	var lines []string
	cur := ""
	for i, w := range words {
		try := w
		if cur != "" {
			try = cur + " " + w
		}
		if f.measure(try) <= width || cur == "" {
			cur = try
			continue
		}
		if len(lines) == maxLines-1 {
			cur = fit(f, cur+" "+strings.Join(words[i:], " "), width)
			break
		}
		lines = append(lines, cur)
		cur = w
	}
	if cur != "" {
		lines = append(lines, fit(f, cur, width))
	}
	return lines
}

// warningGlyph is a yellow triangle with an exclamation mark.
func (p *Painter) warningGlyph(c pt, r float64) {
	tri := []pt{{c.X, c.Y - r}, {c.X + r*1.1, c.Y + r*0.8}, {c.X - r*1.1, c.Y + r*0.8}}
	p.cv.polygon(tri, colWarning)
	p.cv.line(pt{c.X, c.Y - r*0.4}, pt{c.X, c.Y + r*0.25}, r*0.25, colBackground)
	p.cv.circle(pt{c.X, c.Y + r*0.52}, r*0.14, colBackground)
}

// paintCalibrating shows which corner to click next and the corners clicked.
func (p *Painter) paintCalibrating(l Layout, v View) {
	if v.Calibrating == nil {
		return
	}
	s := l.Scale
	names := [4]string{"A1 — south-west", "E1 — south-east", "E4 — north-east", "A4 — north-west"}
	clicked := v.Calibrating.Clicked
	var pts []pt
	for i, c := range clicked {
		q := pt{float64(c.X), float64(c.Y)}
		pts = append(pts, q)
		p.cv.ring(q, 9*s, 2.5*s, colMagenta)
		p.cv.circle(q, 3*s, colMagenta)
		p.cv.textShadow(p.face(bold, l, 13), c.X+scaled(s, 12), c.Y-scaled(s, 10), names[i][:2], colMagenta)
	}
	if len(pts) > 1 {
		p.cv.stroke(pts, false, 2*s, withAlpha(colMagenta, 200))
	}
	msg := "Click the realm's outer corners"
	if len(clicked) < 4 {
		msg = fmt.Sprintf("Recalibrate: click corner %d of 4, %s  ·  Esc cancels", len(clicked)+1, names[len(clicked)])
	}
	f := p.face(bold, l, 16)
	w := f.measure(msg) + scaled(s, 32)
	r := centered(l.Picture.Min.X+l.Picture.Dx()/2, l.Picture.Min.Y+scaled(s, 12), w, f.height()+scaled(s, 16))
	p.cv.roundRect(r, 8*s, color.NRGBA{0x10, 0x12, 0x18, 0xf0})
	p.cv.stroke(roundRectPts(r, 8*s), true, 2*s, colMagenta)
	p.cv.textIn(f, r, msg, alignCenter, colText)
}

// paintCorrecting draws the correction box: the card, the typed name and
// the catalog's suggestions.
func (p *Painter) paintCorrecting(l Layout, v View) {
	c := v.Correcting
	if c == nil {
		return
	}
	s := l.Scale
	if l.HasCells && !c.Casting {
		p.cv.stroke(l.Cells[c.Cell.Index()][:], true, 3*s, colMagenta)
	}
	f := p.face(regular, l, 15)
	bf := p.face(bold, l, 15)
	lineH := f.height() + scaled(s, 8)
	w := scaled(s, 380)
	n := len(c.Suggestions)
	h := scaled(s, 12) + bf.height() + scaled(s, 8) + lineH + scaled(s, 8) + max(n, 1)*lineH + scaled(s, 10)
	anchor := l.Picture.Min.Add(image.Pt(l.Picture.Dx()/2, l.Picture.Dy()/2))
	if l.HasCells && !c.Casting {
		anchor = l.CellCenter(c.Cell)
	}
	x := min(max(anchor.X-w/2, l.Picture.Min.X+scaled(s, 8)), l.Picture.Max.X-w-scaled(s, 8))
	y := anchor.Y + scaled(s, 30)
	if y+h > l.Picture.Max.Y-scaled(s, 8) {
		y = max(anchor.Y-h-scaled(s, 30), l.Picture.Min.Y+scaled(s, 8))
	}
	r := image.Rect(x, y, x+w, y+h)
	p.cv.roundRect(r, 10*s, color.NRGBA{0x14, 0x17, 0x20, 0xf8})
	p.cv.stroke(roundRectPts(r, 10*s), true, 2*s, colMagenta)
	iy := r.Min.Y + scaled(s, 12)
	title := "Correct " + c.Cell.String()
	if c.Card != "" {
		title += ": " + c.Card
	}
	if c.Casting {
		title = capitalize(c.Owner.String()) + " casts a spell"
	}
	p.cv.textIn(bf, image.Rect(r.Min.X+scaled(s, 14), iy, r.Max.X-scaled(s, 14), iy+bf.height()), title, alignLeft, PlayerColor(c.Owner))
	iy += bf.height() + scaled(s, 8)
	field := image.Rect(r.Min.X+scaled(s, 12), iy, r.Max.X-scaled(s, 12), iy+lineH)
	p.cv.roundRect(field, 5*s, color.NRGBA{0x0a, 0x0c, 0x10, 0xff})
	p.cv.stroke(roundRectPts(field, 5*s), true, 1.2*s, colPanelEdge)
	tx := p.cv.text(f, field.Min.X+scaled(s, 8), field.Min.Y+(field.Dy()+f.ascent-f.descent)/2, c.Text, colText)
	if math.Mod(v.Now, 1) < 0.6 {
		p.cv.fillRect(image.Rect(tx+1, field.Min.Y+scaled(s, 6), tx+1+max(1, scaled(s, 2)), field.Max.Y-scaled(s, 6)), colText)
	}
	iy = field.Max.Y + scaled(s, 8)
	if n == 0 {
		msg := "type a card name"
		if c.Text != "" {
			msg = "no card matches"
		}
		p.cv.textIn(f, image.Rect(r.Min.X+scaled(s, 20), iy, r.Max.X, iy+lineH), msg, alignLeft, colDim)
	}
	for i, name := range c.Suggestions {
		row := image.Rect(r.Min.X+scaled(s, 8), iy, r.Max.X-scaled(s, 8), iy+lineH)
		col := colText
		if i == c.Selected {
			p.cv.roundRect(row, 5*s, withAlpha(colMagenta, 90))
			col = color.NRGBA{0xff, 0xff, 0xff, 0xff}
		}
		p.cv.textIn(f, row.Add(image.Pt(scaled(s, 12), 0)), name, alignLeft, col)
		iy += lineH
	}
}

// paintMessage shows a short notice above the status line.
func (p *Painter) paintMessage(l Layout, v View) {
	if v.Message == "" {
		return
	}
	s := l.Scale
	f := p.face(bold, l, 15)
	w := min(f.measure(v.Message)+scaled(s, 36), l.Picture.Dx()-scaled(s, 20))
	h := f.height() + scaled(s, 18)
	r := centered(l.Picture.Min.X+l.Picture.Dx()/2, l.Picture.Max.Y-h-scaled(s, 70), w, h)
	p.cv.roundRect(r, float64(h)/2, color.NRGBA{0x22, 0x27, 0x33, 0xf4})
	p.cv.stroke(roundRectPts(r, float64(h)/2), true, 1.5*s, colDim)
	p.cv.textIn(f, r.Inset(scaled(s, 14)), v.Message, alignCenter, colText)
}

// paintHelp lists the keys over a dimmed frame.
func (p *Painter) paintHelp(l Layout) {
	s := l.Scale
	p.cv.fillRect(l.Bounds, color.NRGBA{0, 0, 0, 0xa0})
	keys := KeyBindings()
	kf := p.face(bold, l, 15)
	af := p.face(regular, l, 15)
	lineH := af.height() + scaled(s, 7)
	w, h := scaled(s, 640), scaled(s, 70)+lineH*len(keys)
	r := centered(l.Bounds.Min.X+l.Bounds.Dx()/2, l.Bounds.Min.Y+(l.Bounds.Dy()-h)/2, w, h)
	p.cv.roundRect(r, 14*s, color.NRGBA{0x16, 0x1a, 0x24, 0xff})
	p.cv.stroke(roundRectPts(r, 14*s), true, 2*s, colPanelEdge)
	tf := p.face(bold, l, 22)
	p.cv.text(tf, r.Min.X+scaled(s, 28), r.Min.Y+scaled(s, 18)+tf.ascent, "Keys", colText)
	p.cv.textIn(af, image.Rect(r.Min.X, r.Min.Y+scaled(s, 18), r.Max.X-scaled(s, 28), r.Min.Y+scaled(s, 18)+tf.height()), "Esc or ? closes", alignRight, colDim)
	y := r.Min.Y + scaled(s, 58)
	for _, k := range keys {
		kr := image.Rect(r.Min.X+scaled(s, 28), y, r.Min.X+scaled(s, 200), y+lineH)
		p.cv.textIn(kf, kr, k.Keys, alignLeft, colSouth)
		p.cv.textIn(af, image.Rect(kr.Max.X, y, r.Max.X-scaled(s, 20), y+lineH), k.Action, alignLeft, colText)
		y += lineH
	}
}
