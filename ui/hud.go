package ui

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// playerState gives a player's state, and whether the state has it.
func playerState(v View, pl models.Player) (models.PlayerState, bool) {
	ps, ok := v.Update.State.Players[pl.String()]
	return ps, ok
}

// defeated reports whether the player has taken the death blow.
func defeated(v View, pl models.Player) bool {
	ps, _ := playerState(v, pl)
	return ps.Defeated || v.Update.State.Winner == pl.Opponent()
}

// groupsWith counts the groups (bodies of water or spans of land) holding one of cells.
func groupsWith(groups [][]models.Cell, cells []models.Cell) int {
	n := 0
	for _, g := range groups {
	found:
		for _, a := range g {
			for _, b := range cells {
				if a == b {
					n++
					break found
				}
			}
		}
	}
	return n
}

func (p *Painter) paintSidebar(l Layout, v View) {
	p.cv.fillRect(l.Sidebar, color.NRGBA{0x0e, 0x11, 0x17, 0xff})
	p.cv.fillRect(image.Rect(l.Sidebar.Min.X, l.Sidebar.Min.Y, l.Sidebar.Min.X+1, l.Sidebar.Max.Y), colPanelEdge)
	for _, pl := range models.Players {
		p.paintHUD(l, v, pl, false)
	}
	p.paintEvents(l, v)
}

// paintHUD draws one player's panel: life with +/- buttons, mana, affinity, sites.
func (p *Painter) paintHUD(l Layout, v View, pl models.Player, big bool) {
	s := l.Scale
	h := l.HUD[pl]
	ps, known := playerState(v, pl)
	// Before game_start the state has no life to show.
	known = known && !(v.Update.State.Turn == 0 && ps.Life == 0 && ps.Avatar == "")
	col := PlayerColor(pl)
	dead := defeated(v, pl)
	door := ps.DeathsDoor && !dead
	pu := pulse(v, 1.5)

	bg := colPanel
	if big {
		bg = color.NRGBA{0x12, 0x16, 0x1f, 0xff}
	}
	if door {
		bg = mix(bg, withAlpha(color.NRGBA{0x5a, 0x08, 0x08, 0xff}, bg.A), 0.35+0.45*pu)
	}
	if dead {
		bg = withAlpha(color.NRGBA{0x2a, 0x05, 0x05, 0xff}, bg.A)
	}
	p.cv.roundRect(h.Panel, 10*s, bg)
	edge, edgeW := withAlpha(col, 150), 1.5*s
	active := v.Update.State.Active == pl
	if active {
		edge, edgeW = col, 3*s
	}
	if door || dead {
		edge, edgeW = mix(colDanger, colText, 0.15*pu), (3+2*pu)*s
	}
	p.cv.stroke(roundRectPts(h.Panel, 10*s), true, edgeW, edge)
	// A band of the player's colour on the panel's left edge.
	band := image.Rect(h.Panel.Min.X+scaled(s, 3), h.Panel.Min.Y+scaled(s, 12), h.Panel.Min.X+scaled(s, 7), h.Panel.Max.Y-scaled(s, 12))
	p.cv.roundRect(band, 2*s, col)

	// Header: seat, avatar, turn badge, key focus.
	hf := p.face(bold, l, 17)
	x := p.cv.text(hf, h.Header.Min.X, h.Header.Min.Y+(h.Header.Dy()+hf.ascent-hf.descent)/2, strings.ToUpper(pl.String()), col)
	right := h.Header.Max.X
	if active && v.Update.State.Turn > 0 {
		bf := p.face(bold, l, 12)
		label := "TO PLAY"
		bw := bf.measure(label) + scaled(s, 14)
		br := image.Rect(right-bw, h.Header.Min.Y+scaled(s, 4), right, h.Header.Max.Y-scaled(s, 4))
		p.cv.roundRect(br, float64(br.Dy())/2, col)
		p.cv.textIn(bf, br, label, alignCenter, colBackground)
		right = br.Min.X - scaled(s, 6)
	}
	if v.Focus == pl && !big {
		bf := p.face(bold, l, 11)
		label := "KEYS"
		bw := bf.measure(label) + scaled(s, 12)
		br := image.Rect(right-bw, h.Header.Min.Y+scaled(s, 5), right, h.Header.Max.Y-scaled(s, 5))
		p.cv.stroke(roundRectPts(br, float64(br.Dy())/2), true, 1.2*s, colDim)
		p.cv.textIn(bf, br, label, alignCenter, colDim)
		right = br.Min.X - scaled(s, 6)
	}
	if avatar := ps.Avatar; avatar != "" || known {
		if avatar == "" {
			avatar = "? (not in the catalog)"
		}
		af := p.face(regular, l, 13)
		ar := image.Rect(x+scaled(s, 10), h.Header.Min.Y, right, h.Header.Max.Y)
		p.cv.textIn(af, ar, avatar, alignLeft, colDim)
	}

	// Life.
	lifeSize := 66.0
	if big {
		lifeSize = 96
	}
	lf := p.face(bold, l, lifeSize)
	lifeCol := colText
	if ps.Life <= 5 && known {
		lifeCol = mix(colText, colWarning, 0.8)
	}
	if door {
		lifeCol = mix(colDanger, color.NRGBA{0xff, 0xc0, 0xb8, 0xff}, 0.6*pu)
	}
	if dead {
		lifeCol = colDanger
	}
	lifeText := "–"
	if known {
		lifeText = itoa(ps.Life)
	}
	baseline := h.Life.Min.Y + (h.Life.Dy()+lf.ascent-lf.descent)/2
	lx := p.cv.text(lf, h.Life.Min.X, baseline, lifeText, lifeCol)
	sub := "LIFE"
	subCol := colDim
	switch {
	case dead:
		sub, subCol = "DEATH BLOW", colDanger
	case door:
		sub, subCol = "DEATH'S DOOR", mix(colDanger, colText, 0.5*pu)
	}
	sf := p.face(bold, l, 14)
	subR := image.Rect(lx+scaled(s, 10), h.Life.Min.Y, h.Life.Max.X, baseline)
	p.cv.textIn(sf, image.Rect(subR.Min.X, baseline-sf.height(), subR.Max.X, baseline), sub, alignLeft, subCol)
	if !big {
		p.button(l, h.Minus, "−", v.Mouse)
		p.button(l, h.Plus, "+", v.Mouse)
	}

	// Mana: available out of the turn's total, with pips.
	mf, lab := p.face(bold, l, 18), p.face(bold, l, 12)
	pipR := 6 * s
	if big {
		mf, lab, pipR = p.face(bold, l, 34), p.face(bold, l, 15), 9*s
	}
	mx := p.cv.text(lab, h.Mana.Min.X, h.Mana.Min.Y+(h.Mana.Dy()+lab.ascent-lab.descent)/2, "MANA", colDim)
	manaText := fmt.Sprintf("%d / %d", ps.Mana.Available, ps.Mana.Total)
	mx = p.cv.text(mf, mx+scaled(s, 10), h.Mana.Min.Y+(h.Mana.Dy()+mf.ascent-mf.descent)/2, manaText, colText)
	px := float64(mx) + 14*s
	cy := float64(h.Mana.Min.Y+h.Mana.Max.Y) / 2
	for i := 0; i < ps.Mana.Total && px+pipR < float64(h.Mana.Max.X); i++ {
		c := pt{px + pipR, cy}
		if i < ps.Mana.Available {
			p.cv.circle(c, pipR, colOK)
		} else {
			p.cv.ring(c, pipR-0.75*s, 1.5*s, colFaint)
		}
		px += pipR*2 + 5*s
	}

	p.paintAffinity(l, h, ps.Affinity, 18)

	// Sites, and the bodies of water and spans of land they lie in.
	tf := p.face(regular, l, 13)
	realm := v.Update.State.Realm
	sites := fmt.Sprintf("%d sites · %d water · %d land", len(ps.Sites),
		groupsWith(realm.BodiesOfWater, ps.Sites), groupsWith(realm.SpansOfLand, ps.Sites))
	if len(ps.Sites) == 1 {
		sites = strings.Replace(sites, "sites", "site", 1)
	}
	p.cv.textIn(tf, h.Sites, sites, alignLeft, colDim)
}

// button draws a round +/- button, lit under the mouse.
func (p *Painter) button(l Layout, r image.Rectangle, label string, mouse *image.Point) {
	s := l.Scale
	bg := color.NRGBA{0x2a, 0x31, 0x40, 0xff}
	if mouse != nil && mouse.In(r) {
		bg = color.NRGBA{0x3d, 0x48, 0x5e, 0xff}
	}
	c := pt{float64(r.Min.X+r.Max.X) / 2, float64(r.Min.Y+r.Max.Y) / 2}
	rad := float64(r.Dx()) / 2
	p.cv.circle(c, rad, bg)
	p.cv.ring(c, rad-0.75*s, 1.5*s, colPanelEdge)
	arm := rad * 0.42
	p.cv.line(pt{c.X - arm, c.Y}, pt{c.X + arm, c.Y}, 3*s, colText)
	if label == "+" {
		p.cv.line(pt{c.X, c.Y - arm}, pt{c.X, c.Y + arm}, 3*s, colText)
	}
}

// paintDeathBanners draws a red banner at a player's side of the picture
// while they are at death's door, and a darker one once the death blow lands.
func (p *Painter) paintDeathBanners(l Layout, v View) {
	s := l.Scale
	bh := scaled(s, 54)
	pu := pulse(v, 1.5)
	for _, pl := range models.Players {
		ps, _ := playerState(v, pl)
		dead := defeated(v, pl)
		if !ps.DeathsDoor && !dead {
			continue
		}
		r := image.Rect(l.Picture.Min.X, l.Picture.Min.Y, l.Picture.Max.X, l.Picture.Min.Y+bh)
		if pl == models.South {
			r = image.Rect(l.Picture.Min.X, l.Picture.Max.Y-bh, l.Picture.Max.X, l.Picture.Max.Y)
		}
		p.deathBanner(l, r, v, pl, dead, pu)
	}
}

func (p *Painter) deathBanner(l Layout, r image.Rectangle, v View, pl models.Player, dead bool, pu float64) {
	s := l.Scale
	name := strings.ToUpper(pl.String())
	bg := mix(color.NRGBA{0xb0, 0x10, 0x10, 0xf0}, color.NRGBA{0xe8, 0x20, 0x18, 0xf8}, pu)
	text := name + " IS AT DEATH'S DOOR"
	sub := "the next damage is the death blow"
	if dead {
		bg = color.NRGBA{0x30, 0x00, 0x00, 0xf8}
		text = "DEATH BLOW — " + name + " IS DEFEATED"
		sub = ""
		if w := v.Update.State.Winner; w != models.NoPlayer {
			sub = strings.ToUpper(w.String()) + " WINS"
		}
	}
	p.cv.fillRect(r, bg)
	stripe := colDanger
	if !dead {
		stripe = color.NRGBA{0xff, 0xe0, 0xd8, 0xff}
	}
	p.cv.fillRect(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+scaled(s, 3)), stripe)
	p.cv.fillRect(image.Rect(r.Min.X, r.Max.Y-scaled(s, 3), r.Max.X, r.Max.Y), stripe)
	bf := p.face(bold, l, 26*float64(r.Dy())/(54*s))
	sf := p.face(regular, l, 16*float64(r.Dy())/(54*s))
	w := bf.measure(text)
	if sub != "" {
		w += scaled(s, 16) + sf.measure(sub)
	}
	x := r.Min.X + (r.Dx()-w)/2
	base := r.Min.Y + (r.Dy()+bf.ascent-bf.descent)/2
	x = p.cv.text(bf, x, base, text, colText)
	if sub != "" {
		p.cv.text(sf, x+scaled(s, 16), base, sub, color.NRGBA{0xff, 0xd0, 0xc8, 0xff})
	}
}
