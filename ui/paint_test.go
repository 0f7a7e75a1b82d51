package ui

import (
	"image"
	"image/color"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/ui/internal/uitest"
)

func render(p *Painter, v View) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	p.Paint(dst, v)
	return dst
}

func near(c color.RGBA, want color.NRGBA, tol int) bool {
	d := func(a, b uint8) bool { x := int(a) - int(b); return x <= tol && x >= -tol }
	return d(c.R, want.R) && d(c.G, want.G) && d(c.B, want.B)
}

// findText reports whether s, drawn in face f and colour col, appears
// somewhere inside region r of img: at some offset, at least 90% of the
// glyphs' solid pixels have col and at least 90% of the empty pixels within
// the glyphs' boxes do not.
func findText(img *image.RGBA, r image.Rectangle, f *face, s string, col color.NRGBA) bool {
	tw, th := f.measure(s)+4, f.height()+4
	ref := image.NewRGBA(image.Rect(0, 0, tw, th))
	(&canvas{dst: ref}).text(f, 2, 2+f.ascent, s, color.NRGBA{255, 255, 255, 255})
	var on, off []image.Point
	for y := 0; y < th; y++ {
		for x := 0; x < tw; x++ {
			switch a := ref.Pix[ref.PixOffset(x, y)+3]; {
			case a > 230:
				on = append(on, image.Pt(x, y))
			case a == 0:
				off = append(off, image.Pt(x, y))
			}
		}
	}
	for oy := r.Min.Y; oy+th <= r.Max.Y; oy++ {
	next:
		for ox := r.Min.X; ox+tw <= r.Max.X; ox++ {
			miss := 0
			for _, q := range on {
				if !near(img.RGBAAt(ox+q.X, oy+q.Y), col, 40) {
					if miss++; miss > len(on)/10 {
						continue next
					}
				}
			}
			hit := 0
			for _, q := range off {
				if near(img.RGBAAt(ox+q.X, oy+q.Y), col, 40) {
					hit++
				}
			}
			if hit <= len(off)/10 {
				return true
			}
		}
	}
	return false
}

func withLife(st models.GameState, pl models.Player, life int) models.GameState {
	players := map[string]models.PlayerState{}
	for k, v := range st.Players {
		players[k] = v
	}
	ps := players[pl.String()]
	ps.Life = life
	players[pl.String()] = ps
	st.Players = players
	return st
}

func TestLifeNumbersDrawn(t *testing.T) {
	p := NewPainter()
	base := testViews()["normal"]
	l := LayoutFor(image.Rect(0, 0, 1280, 720), base)
	lifeFace := p.face(bold, l, 66)
	tests := []struct {
		south, north int
	}{{20, 20}, {14, 7}, {7, 14}, {6, 19}}
	regions := map[int][]uint8{}
	for _, tc := range tests {
		v := base
		v.Update.State = withLife(withLife(v.Update.State, models.South, tc.south), models.North, tc.north)
		img := render(p, v)
		for _, side := range []struct {
			pl   models.Player
			life int
		}{{models.South, tc.south}, {models.North, tc.north}} {
			r := l.HUD[side.pl].Life
			if !findText(img, r.Inset(-12), lifeFace, itoa(side.life), colText) {
				t.Errorf("%s life %d: digits not found in the HUD's life box %v", side.pl, side.life, r)
			}
			other := tc.south + tc.north - side.life
			if other != side.life && len(itoa(other)) >= len(itoa(side.life)) && findText(img, r.Inset(-12), lifeFace, itoa(other), colText) {
				t.Errorf("%s life %d: the other player's %d is drawn in its box", side.pl, side.life, other)
			}
			if side.pl == models.South {
				sub := img.SubImage(r).(*image.RGBA)
				var pix []uint8
				for y := r.Min.Y; y < r.Max.Y; y++ {
					pix = append(pix, sub.Pix[sub.PixOffset(r.Min.X, y):sub.PixOffset(r.Max.X, y)]...)
				}
				if prev, ok := regions[side.life]; ok && string(prev) != string(pix) {
					t.Errorf("life %d drawn differently in two frames", side.life)
				}
				regions[side.life] = pix
			}
		}
	}
	if string(regions[20]) == string(regions[7]) {
		t.Error("the life box looks the same at 20 and at 7")
	}
}

// redShare is the share of pixels of r that are strongly red.
func redShare(img *image.RGBA, r image.Rectangle) float64 {
	n, red := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			n++
			if c.R > 150 && c.G < c.R/2 && c.B < c.R/2 {
				red++
			}
		}
	}
	return float64(red) / float64(n)
}

func TestDeathsDoorBanner(t *testing.T) {
	p := NewPainter()
	views := testViews()
	tests := []struct {
		view       string
		north      bool // a red banner across the top of the picture
		northPanel bool // the north HUD's border is red
	}{
		{"normal", false, false},
		{"deaths-door", true, true},
		{"death-blow", false, true},
	}
	for _, tc := range tests {
		for _, now := range []float64{100, 100.33} { // both ends of the pulse
			v := views[tc.view]
			v.Now = now
			l := LayoutFor(image.Rect(0, 0, 1280, 720), v)
			img := render(p, v)
			top := image.Rect(l.Picture.Min.X, l.Picture.Min.Y+4, l.Picture.Max.X, l.Picture.Min.Y+50)
			bottom := image.Rect(l.Picture.Min.X, l.Picture.Max.Y-50, l.Picture.Max.X, l.Picture.Max.Y-4)
			if got := redShare(img, top) > 0.6; got != tc.north {
				t.Errorf("%s at %.2f s: red banner at the top = %v (%.0f%% red), want %v", tc.view, now, got, 100*redShare(img, top), tc.north)
			}
			if share := redShare(img, bottom); share > 0.05 {
				t.Errorf("%s: %.0f%% red at the bottom, where South's banner would be", tc.view, 100*share)
			}
			pan := l.HUD[models.North].Panel
			edge := image.Rect(pan.Min.X+20, pan.Min.Y, pan.Max.X-20, pan.Min.Y+3)
			if got := redShare(img, edge) > 0.5; got != tc.northPanel {
				t.Errorf("%s: north HUD border red = %v, want %v", tc.view, got, tc.northPanel)
			}
		}
	}
	// The death blow's banner is dark red with its own words.
	v := views["death-blow"]
	l := LayoutFor(image.Rect(0, 0, 1280, 720), v)
	img := render(p, v)
	bf := p.fonts.get(bold, 26)
	if !findText(img, image.Rect(l.Picture.Min.X, l.Picture.Min.Y, l.Picture.Max.X, l.Picture.Min.Y+54), bf, "DEATH BLOW", colText) {
		t.Error("death blow banner: words not found")
	}
}

// samplePoints gives points inside a cell's quad, away from its centre
// (where the card names are) and its edges (where the grid is).
func samplePoints(q [4]pt) []image.Point {
	var out []image.Point
	c := pt{(q[0].X + q[1].X + q[2].X + q[3].X) / 4, (q[0].Y + q[1].Y + q[2].Y + q[3].Y) / 4}
	for _, k := range q {
		for _, f := range []float64{0.6, 0.75} {
			out = append(out, image.Pt(int(c.X+(k.X-c.X)*f), int(c.Y+(k.Y-c.Y)*f)))
		}
	}
	return out
}

func TestWarningHighlightsTheRightCells(t *testing.T) {
	p := NewPainter()
	for _, name := range []string{"normal", "rectified", "board"} {
		t.Run(name, func(t *testing.T) {
			warned := testViews()[name]
			// The same warnings naming no cell: the list (and so the layout)
			// stays, the highlights go.
			clean := warned
			clean.Update.State.Warnings = nil
			for _, w := range warned.Update.State.Warnings {
				w.Cells = nil
				clean.Update.State.Warnings = append(clean.Update.State.Warnings, w)
			}
			l := LayoutFor(image.Rect(0, 0, 1280, 720), warned)
			a, b := render(p, warned), render(p, clean)
			d3 := models.MustCell("D3")
			listTop := l.Picture.Max.Y - 130
			for _, c := range models.AllCells() {
				changed, yellower := 0, 0
				pts := samplePoints(l.Cells[c.Index()])
				for _, q := range pts {
					if q.Y > listTop {
						continue
					}
					pa, pb := a.RGBAAt(q.X, q.Y), b.RGBAAt(q.X, q.Y)
					if pa != pb {
						changed++
					}
					if int(pa.R)+int(pa.G)-2*int(pa.B) > int(pb.R)+int(pb.G)-2*int(pb.B)+30 {
						yellower++
					}
				}
				if c == d3 {
					if yellower < len(pts)*3/4 {
						t.Errorf("warned cell D3: only %d of %d points tinted", yellower, len(pts))
					}
				} else if changed > 0 {
					t.Errorf("cell %s has no warning but %d points changed", c, changed)
				}
			}
		})
	}
}

func TestThresholdIcons(t *testing.T) {
	p := NewPainter()
	for _, name := range []string{"normal", "stream"} {
		v := testViews()[name]
		l := LayoutFor(image.Rect(0, 0, 1280, 720), v)
		img := render(p, v)
		for _, pl := range models.Players {
			aff := v.Update.State.Players[pl.String()].Affinity
			for i, e := range models.Elements {
				r := l.HUD[pl].Icons[i]
				n := 0
				for y := r.Min.Y; y < r.Max.Y; y++ {
					for x := r.Min.X; x < r.Max.X; x++ {
						if near(img.RGBAAt(x, y), ElementColor(e), 20) {
							n++
						}
					}
				}
				if lit := n >= 15; lit != (aff.Get(e) > 0) {
					t.Errorf("%s %s %s: %d pixels of the element's colour, affinity %d", name, pl, e, n, aff.Get(e))
				}
			}
		}
	}
}

func TestStreamBackground(t *testing.T) {
	p := NewPainter()
	tests := []struct {
		name string
		bg   color.NRGBA
	}{{"chroma", color.NRGBA{0, 255, 0, 255}}, {"magenta", color.NRGBA{255, 0, 255, 255}}, {"transparent", color.NRGBA{}}}
	for _, tc := range tests {
		v := testViews()["stream"]
		v.Background = tc.bg
		l := LayoutFor(image.Rect(0, 0, 1280, 720), v)
		img := render(p, v)
		corner := img.RGBAAt(2, 2)
		if corner != (color.RGBA{tc.bg.R, tc.bg.G, tc.bg.B, tc.bg.A}) {
			t.Errorf("%s: background pixel %v", tc.name, corner)
		}
		in := l.HUD[models.South].Panel.Min.Add(image.Pt(40, 40))
		if a := img.RGBAAt(in.X, in.Y).A; a != 255 {
			t.Errorf("%s: HUD panel alpha %d, want opaque", tc.name, a)
		}
	}
}

func TestCalloutsLastAFewSeconds(t *testing.T) {
	p := NewPainter()
	v := testViews()["stream"]
	ev := models.Event{Type: models.SitePlayed, Player: models.North, Card: "Glass Lagoon", Cell: models.CellPtr(models.MustCell("C4"))}
	l := LayoutFor(image.Rect(0, 0, 1280, 720), v)
	f := p.fonts.get(bold, 28)
	tests := []struct {
		age  float64
		want bool
	}{{0.5, true}, {CalloutSeconds - 1.5, true}, {CalloutSeconds + 0.5, false}, {60, false}}
	for _, tc := range tests {
		v.Recent = []Recent{{Event: ev, At: v.Now - tc.age}}
		img := render(p, v)
		if got := findText(img, l.Events, f, "Glass Lagoon", colText); got != tc.want {
			t.Errorf("card played %.1f s ago: call-out shown = %v, want %v", tc.age, got, tc.want)
		}
	}
}

func TestLayoutHitTests(t *testing.T) {
	for _, name := range []string{"normal", "rectified", "board"} {
		v := testViews()[name]
		l := LayoutFor(image.Rect(0, 0, 1280, 720), v)
		for _, c := range models.AllCells() {
			got, ok := l.CellAt(l.CellCenter(c))
			if !ok || got != c {
				t.Errorf("%s: centre of %s hit-tests as %v (%v)", name, c, got, ok)
			}
		}
		if _, ok := l.CellAt(image.Pt(1270, 10)); ok {
			t.Errorf("%s: the sidebar hit-tests as a cell", name)
		}
	}
	v := testViews()["normal"]
	l := LayoutFor(image.Rect(0, 0, 1280, 720), v)
	corners := *v.Update.Observation.Mat.Corners
	a1 := l.Cells[0][0]
	got, ok := l.ScreenToImage(image.Pt(int(a1.X), int(a1.Y)))
	if !ok || abs(got.X-corners[0].X) > 3 || abs(got.Y-corners[0].Y) > 3 {
		t.Errorf("A1's screen corner maps back to %v, want %v", got, corners[0])
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestRealmHomography(t *testing.T) {
	g := models.DefaultRealm()
	quad := models.Quad{{X: 100, Y: 600}, {X: 1100, Y: 620}, {X: 900, Y: 90}, {X: 300, Y: 100}}
	h, ok := realmHomography(quad)
	if !ok {
		t.Fatal("no homography for a realm seen at a slant")
	}
	realm := [4]pt{{0, 0}, {g.WidthMM(), 0}, {g.WidthMM(), g.HeightMM()}, {0, g.HeightMM()}}
	for i := range realm {
		if got := applyHomography(h, realm[i]); abs(got.X-quad[i].X) > 1e-6 || abs(got.Y-quad[i].Y) > 1e-6 {
			t.Errorf("corner %d: %v, want %v", i, got, quad[i])
		}
	}
	if _, ok := realmHomography(models.Quad{{X: 0, Y: 0}, {X: 1, Y: 1}, {X: 2, Y: 2}, {X: 3, Y: 3}}); ok {
		t.Error("collinear corners gave a homography")
	}
}

func BenchmarkPaint(b *testing.B) {
	views := testViews()
	for _, name := range []string{"normal", "rectified", "board", "stream"} {
		b.Run(name, func(b *testing.B) {
			p := NewPainter()
			dst := image.NewRGBA(image.Rect(0, 0, 1280, 720))
			v := views[name]
			p.Paint(dst, v)
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				v.Now += 1.0 / 30
				p.Paint(dst, v)
			}
			// CPU time per frame is steadier than wall time on a busy machine.
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/frame")
		})
	}
}

var _ = uitest.Midgame

func TestWrap(t *testing.T) {
	f := NewPainter().fonts.get(regular, 13)
	long := "Foot Soldier was summoned to the void at C4 without Voidwalk and is banished; a minion in the void must have Voidwalk to stay"
	tests := []struct {
		s        string
		width    int
		maxLines int
		lines    int
		whole    bool // every word kept
	}{
		{"short sentence", 400, 2, 1, true},
		{long, 500, 2, 2, true},
		{long, 300, 2, 2, false},
		{long, 300, 1, 1, false},
	}
	for _, tc := range tests {
		got := wrap(f, tc.s, tc.width, tc.maxLines)
		if len(got) != tc.lines {
			t.Errorf("wrap(%.20q, %d) = %d lines %q, want %d", tc.s, tc.width, len(got), got, tc.lines)
		}
		for _, l := range got {
			if f.measure(l) > tc.width {
				t.Errorf("line %q is %d px, over %d", l, f.measure(l), tc.width)
			}
		}
		if joined := strings.Join(got, " "); (joined == tc.s) != tc.whole {
			t.Errorf("wrap(%.20q, %d): joined %q, whole=%v", tc.s, tc.width, joined, tc.whole)
		}
	}
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestRecentEventsShowTheirTimeAndTheRestart(t *testing.T) {
	p := NewPainter()
	views := testViews()
	header := p.fonts.get(bold, 12)
	clock := p.fonts.get(regular, 12)
	// The newest event (Kiln Hound, the 8th) was stamped 7×37 s after 14:02:00.
	newest := gameClock.Add(7 * 37 * time.Second).Format("15:04")
	tests := []struct {
		view    string
		restart bool
	}{{"normal", false}, {"resumed", true}}
	for _, tc := range tests {
		v := views[tc.view]
		l := LayoutFor(image.Rect(0, 0, 1280, 720), v)
		img := render(p, v)
		if got := findText(img, l.Events, header, "BEFORE THE RESTART", colDim); got != tc.restart {
			t.Errorf("%s: restart line shown = %v, want %v", tc.view, got, tc.restart)
		}
		if !findText(img, l.Events, clock, newest, colDim) {
			t.Errorf("%s: the newest event's time %s is not shown", tc.view, newest)
		}
	}
	// An event of the game before the restart is never called out on stream.
	v := views["stream"]
	ev := models.Event{Type: models.SitePlayed, Player: models.North, Card: "Glass Lagoon", Cell: models.CellPtr(models.MustCell("C4"))}
	v.Recent = []Recent{{Event: ev, At: v.Now - 0.5, Earlier: true}}
	l := LayoutFor(image.Rect(0, 0, 1280, 720), v)
	if findText(render(p, v), l.Events, p.fonts.get(bold, 28), "Glass Lagoon", colText) {
		t.Error("an event from before the restart was called out")
	}
}

func TestStreamShowsTheLatestWarning(t *testing.T) {
	p := NewPainter()
	v := testViews()["stream"]
	ws := v.Update.State.Warnings
	if len(ws) == 0 {
		t.Fatal("the stream view's state has no warning")
	}
	top := image.Rect(0, 0, 1280, 260)
	f := p.fonts.get(regular, 16)
	brief := briefWarning(ws[len(ws)-1].Message)
	if !findText(render(p, v), top, f, brief, colText) {
		t.Errorf("the warning %q is not shown", brief)
	}
	v.Update.State.Warnings = nil
	if findText(render(p, v), top, f, brief, colText) {
		t.Error("a warning is shown when none stands")
	}
}

func TestBriefWarning(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Stonehide Ox entered the realm this turn and cannot tap; a minion suffers from summoning sickness until the end of the turn it entered, unless it has Charge (Summoning Sickness).",
			"Stonehide Ox entered the realm this turn and cannot tap (Summoning Sickness)"},
		{"Brine Wisp stands on D3, where there is no site: minions must occupy a site", "Brine Wisp stands on D3, where there is no site: minions must occupy a site"},
		{"south spent 1 mana but has 0 available; you cannot pay more", "south spent 1 mana but has 0 available"},
	}
	for _, tc := range tests {
		if got := briefWarning(tc.in); got != tc.want {
			t.Errorf("briefWarning(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCameraPictureClearsTheWarningList(t *testing.T) {
	v := testViews()["normal"]
	if len(v.ShownWarnings()) == 0 {
		t.Fatal("the normal view has no warning")
	}
	for _, size := range []image.Point{{1280, 720}, {1920, 1080}, {854, 480}} {
		l := LayoutFor(image.Rectangle{Max: size}, v)
		top := l.Picture.Max.Y - warningListHeight(l.Scale, v) - scaled(l.Scale, 12)
		if l.Image.Empty() || l.Image.Max.Y > top+1 {
			t.Errorf("%v: the camera picture %v reaches under the warning list (from y %d)", size, l.Image, top)
		}
		calm := v
		calm.Update.State.Warnings = nil
		if lc := LayoutFor(image.Rectangle{Max: size}, calm); lc.Image.Min.Y <= l.Image.Min.Y {
			t.Errorf("%v: without warnings the picture is not centred lower (%v, with warnings %v)", size, lc.Image, l.Image)
		}
	}
}
