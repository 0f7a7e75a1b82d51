package ui

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// paintStream draws the streamer layout: a transparent or chroma-key
// background, the turn, both players' life and mana in large type, and
// call-outs of the cards played in the last few seconds.
func (p *Painter) paintStream(l Layout, v View) {
	p.cv.clear(l.Bounds, v.Background)
	s := l.Scale
	st := v.Update.State
	if st.Turn > 0 {
		tf := p.face(bold, l, 26)
		label := fmt.Sprintf("TURN %d", st.Turn)
		col := colText
		if st.Active != models.NoPlayer {
			label += " · " + strings.ToUpper(st.Active.String()) + " TO PLAY"
			col = PlayerColor(st.Active)
		}
		w := tf.measure(label) + scaled(s, 48)
		r := centered(l.TopBar.Min.X+l.TopBar.Dx()/2, l.TopBar.Min.Y, w, l.TopBar.Dy())
		p.cv.roundRect(r, float64(r.Dy())/2, color.NRGBA{0x12, 0x16, 0x1f, 0xf2})
		p.cv.stroke(roundRectPts(r, float64(r.Dy())/2), true, 2.5*s, col)
		p.cv.textIn(tf, r, label, alignCenter, col)
	}
	pu := pulse(v, 1.5)
	y := l.TopBar.Max.Y + scaled(s, 16)
	for _, pl := range models.Players {
		ps, _ := playerState(v, pl)
		dead := defeated(v, pl)
		if !ps.DeathsDoor && !dead {
			continue
		}
		w := min(scaled(s, 900), l.Bounds.Dx()-scaled(s, 40))
		r := centered(l.Bounds.Min.X+l.Bounds.Dx()/2, y, w, scaled(s, 70))
		p.deathBanner(l, r, v, pl, dead, pu)
		y = r.Max.Y + scaled(s, 10)
	}
	if ws := v.ShownWarnings(); len(ws) > 0 {
		w := min(scaled(s, 900), l.Bounds.Dx()-scaled(s, 40))
		p.streamWarning(l, centered(l.Bounds.Min.X+l.Bounds.Dx()/2, y, w, scaled(s, 40)), ws)
	}
	for _, pl := range models.Players {
		p.paintHUD(l, v, pl, true)
	}
	p.paintCallouts(l, v)
}

// streamWarning shows the latest rule warning on one line, and how many
// more stand.
func (p *Painter) streamWarning(l Layout, r image.Rectangle, ws []models.Warning) {
	s := l.Scale
	p.cv.roundRect(r, 8*s, color.NRGBA{0x12, 0x16, 0x1f, 0xf2})
	p.cv.stroke(roundRectPts(r, 8*s), true, 2*s, colWarning)
	p.warningGlyph(pt{float64(r.Min.X) + 22*s, float64(r.Min.Y+r.Max.Y)/2 + 1*s}, 9*s)
	bf, f := p.face(bold, l, 16), p.face(regular, l, 16)
	x := r.Min.X + scaled(s, 40)
	right := r.Max.X - scaled(s, 14)
	latest := ws[len(ws)-1]
	if len(ws) > 1 {
		more := fmt.Sprintf("+%d more", len(ws)-1)
		mw := f.measure(more)
		p.cv.textIn(f, image.Rect(right-mw, r.Min.Y, right, r.Max.Y), more, alignRight, colDim)
		right -= mw + scaled(s, 14)
	}
	if len(latest.Cells) > 0 {
		cells := make([]string, len(latest.Cells))
		for i, c := range latest.Cells {
			cells[i] = c.String()
		}
		label := strings.Join(cells, " ")
		p.cv.textIn(bf, image.Rect(x, r.Min.Y, right, r.Max.Y), label, alignLeft, colWarning)
		x += bf.measure(label) + scaled(s, 12)
	}
	p.cv.textIn(f, image.Rect(x, r.Min.Y, right, r.Max.Y), briefWarning(latest.Message), alignLeft, colText)
}

// briefWarning keeps what happened from a warning's message, without the
// rule's wording after the semicolon, but with the rule's name in brackets
// at its end: "Stonehide Ox entered the realm this turn and cannot tap
// (Summoning Sickness)".
func briefWarning(msg string) string {
	fact, rest, ok := strings.Cut(msg, "; ")
	if !ok {
		return msg
	}
	rest = strings.TrimSuffix(rest, ".")
	if i := strings.LastIndex(rest, " ("); i >= 0 && strings.HasSuffix(rest, ")") {
		return fact + rest[i:]
	}
	return fact
}

// callouts picks the cards played within CalloutSeconds, newest last.
func callouts(v View) []Recent {
	var out []Recent
	for _, r := range v.Recent {
		switch r.Event.Type {
		case models.SitePlayed, models.UnitSummoned, models.SpellCast:
		default:
			continue
		}
		if age := v.Now - r.At; !r.Earlier && age >= 0 && age < CalloutSeconds {
			out = append(out, r)
		}
	}
	return out
}

// paintCallouts stacks the call-outs from the bottom of the middle column up.
func (p *Painter) paintCallouts(l Layout, v View) {
	s := l.Scale
	cs := callouts(v)
	const most = 3
	if len(cs) > most {
		cs = cs[len(cs)-most:]
	}
	nf := p.face(bold, l, 28)
	sf := p.face(bold, l, 14)
	h := nf.height() + sf.height() + scaled(s, 26)
	y := l.Events.Max.Y
	for i := len(cs) - 1; i >= 0; i-- {
		r := cs[i]
		age := v.Now - r.At
		alpha := 1.0
		if rem := CalloutSeconds - age; rem < 1 && v.Background.A == 0 {
			// Fade out over a transparent background; over a chroma key a
			// half-transparent box would tint, so it just goes.
			alpha = rem
		}
		slide := 0
		if age < 0.25 {
			slide = int(float64(scaled(s, 40)) * (1 - age/0.25))
		}
		box := image.Rect(l.Events.Min.X, y-h+slide, l.Events.Max.X, y+slide)
		col := PlayerColor(r.Event.Player)
		a := func(c color.NRGBA) color.NRGBA { return withAlpha(c, uint8(float64(c.A)*alpha)) }
		p.cv.roundRect(box, 10*s, a(color.NRGBA{0x12, 0x16, 0x1f, 0xf2}))
		p.cv.roundRect(image.Rect(box.Min.X, box.Min.Y, box.Min.X+scaled(s, 8), box.Max.Y), 4*s, a(col))
		verb := map[models.EventType]string{models.SitePlayed: "PLAYS A SITE", models.UnitSummoned: "SUMMONS", models.SpellCast: "CASTS"}[r.Event.Type]
		head := strings.ToUpper(r.Event.Player.String()) + " " + verb
		if r.Event.Cell != nil {
			head += " · " + r.Event.Cell.String()
		}
		x := box.Min.X + scaled(s, 22)
		p.cv.text(sf, x, box.Min.Y+scaled(s, 10)+sf.ascent, head, a(col))
		name := fit(nf, r.Event.Card, box.Dx()-scaled(s, 36))
		p.cv.text(nf, x, box.Min.Y+scaled(s, 14)+sf.height()+nf.ascent, name, a(colText))
		y = box.Min.Y - scaled(s, 10)
	}
}
