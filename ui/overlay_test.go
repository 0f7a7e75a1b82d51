package ui

import (
	"fmt"
	"image"
	"reflect"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/ui/audio"
	"github.com/tablecam/tablecam/ui/internal/uitest"
)

// recorder is a Controller and a Sound that writes down every call.
type recorder struct {
	calls []string
	cues  []audio.Cue
	vol   float64
	muted bool
}

func (r *recorder) Manual(ev models.Event) error {
	r.calls = append(r.calls, fmt.Sprintf("%s %s %d", ev.Type, ev.Player, ev.Amount))
	return nil
}
func (r *recorder) Undo() error { r.calls = append(r.calls, "undo"); return nil }
func (r *recorder) Correct(c models.Correction) error {
	r.calls = append(r.calls, fmt.Sprintf("correct %s %s %q→%q", c.Kind, c.Cell, c.Card, c.Name))
	return nil
}
func (r *recorder) Recalibrate(q models.Quad) error {
	s := "recalibrate"
	for _, p := range q {
		s += fmt.Sprintf(" %.0f,%.0f", p.X, p.Y)
	}
	r.calls = append(r.calls, s)
	return nil
}
func (r *recorder) SetPaused(p bool)    { r.calls = append(r.calls, fmt.Sprintf("paused %v", p)) }
func (r *recorder) Play(c audio.Cue)    { r.cues = append(r.cues, c) }
func (r *recorder) SetVolume(v float64) { r.vol = v }
func (r *recorder) SetMuted(m bool)     { r.muted = m }

func testCatalog() *models.Catalog {
	var cards []*models.Card
	for _, n := range []string{"Kiln Hound", "Kindled Oak", "Arid Desert", "Ashen Steppe", "Reef Stalker", "Brine Wisp", "Skyward Kite"} {
		cards = append(cards, &models.Card{Name: n, Slug: models.NormalizeName(n), Type: models.Minion})
	}
	return models.NewCatalog(cards)
}

func newTestOverlay(t *testing.T) (*Overlay, *recorder) {
	t.Helper()
	rec := &recorder{}
	o := NewOverlay(rec, Options{Catalog: testCatalog(), Sound: rec, Volume: 0.5})
	o.SetSize(image.Rect(0, 0, 1280, 720))
	v := testViews()["normal"]
	o.Receive(v.Update, 1)
	return o, rec
}

func TestOverlayKeys(t *testing.T) {
	type input struct {
		r     rune
		k     Key
		shift bool
	}
	tests := []struct {
		name string
		in   []input
		want []string
	}{
		{"life up", []input{{r: '+'}}, []string{"life_gain south 1"}},
		{"life up by 5", []input{{k: KeyUp, shift: true}}, []string{"life_gain south 5"}},
		{"life down", []input{{k: KeyDown}}, []string{"life_loss south 1"}},
		{"other player", []input{{k: KeyTab}, {r: '-'}}, []string{"life_loss north 1"}},
		{"damage apart from life loss", []input{{r: 'd'}, {r: 'D'}}, []string{"damage south 1", "damage south 5"}},
		{"mana", []input{{r: 'm'}}, []string{"mana_spent south 1"}},
		{"end turn", []input{{r: 'e'}}, []string{"turn_end south 0", "turn_start north 0"}},
		{"undo", []input{{r: 'u'}, {k: KeyUndo}}, []string{"undo", "undo"}},
		{"pause", []input{{r: 'p'}, {r: ' '}}, []string{"paused true", "paused false"}},
		{"help takes no action", []input{{r: '?'}, {k: KeyEscape}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, rec := newTestOverlay(t)
			for _, in := range tc.in {
				if in.r != 0 {
					o.Rune(in.r, 2)
				} else {
					o.Key(in.k, in.shift, 2)
				}
			}
			if !reflect.DeepEqual(rec.calls, tc.want) {
				t.Errorf("calls %q, want %q", rec.calls, tc.want)
			}
		})
	}
}

func TestOverlayToggles(t *testing.T) {
	o, rec := newTestOverlay(t)
	o.Rune('?', 2)
	if !o.View(2).Help {
		t.Error("? did not show the help")
	}
	o.Key(KeyEscape, false, 2)
	if o.View(2).Help {
		t.Error("Esc did not close the help")
	}
	o.Rune('r', 2)
	if !o.View(2).Rectified {
		t.Error("R did not switch to the top-down view")
	}
	o.Rune(']', 2)
	o.Rune(']', 2)
	if v := o.View(2).Volume; v != 0.7 || rec.vol != 0.7 {
		t.Errorf("volume %v (player %v), want 0.7", v, rec.vol)
	}
	o.Rune('v', 2)
	if !o.View(2).Muted || !rec.muted {
		t.Error("V did not mute")
	}
	if got := o.Rune('f', 2); got != ToggleFullscreen {
		t.Errorf("F gave %v", got)
	}
	if o.View(2).Message == "" || o.View(2+messageSeconds+1).Message != "" {
		t.Error("notices should show, then go after a few seconds")
	}
}

func TestOverlayHUDButtons(t *testing.T) {
	o, rec := newTestOverlay(t)
	l := LayoutFor(image.Rect(0, 0, 1280, 720), o.View(2))
	center := func(r image.Rectangle) image.Point { return r.Min.Add(r.Size().Div(2)) }
	o.Click(center(l.HUD[models.North].Plus), 2)
	o.Click(center(l.HUD[models.South].Minus), 2)
	want := []string{"life_gain north 1", "life_loss south 1"}
	if !reflect.DeepEqual(rec.calls, want) {
		t.Errorf("calls %q, want %q", rec.calls, want)
	}
}

func TestOverlayCorrectsACard(t *testing.T) {
	o, rec := newTestOverlay(t)
	l := LayoutFor(image.Rect(0, 0, 1280, 720), o.View(2))
	o.Click(l.CellCenter(models.MustCell("C2")), 2)
	c := o.View(2).Correcting
	if c == nil || c.Cell != models.MustCell("C2") || c.Card != "Kiln Hound" {
		t.Fatalf("clicking C2 opened %+v", c)
	}
	o.Rune('k', 2)
	if got := o.View(2).Correcting.Suggestions; !reflect.DeepEqual(got, []string{"Kiln Hound", "Kindled Oak", "Skyward Kite"}) {
		t.Errorf("suggestions for \"k\": %q", got)
	}
	o.Key(KeyDown, false, 2)
	o.Key(KeyEnter, false, 2)
	want := []string{`correct rename C2 "Kiln Hound"→"Kindled Oak"`}
	if !reflect.DeepEqual(rec.calls, want) {
		t.Errorf("calls %q, want %q", rec.calls, want)
	}
	if o.View(2).Correcting != nil {
		t.Error("the box stayed open")
	}
	// Letters typed into the box are not commands.
	o.Click(l.CellCenter(models.MustCell("C2")), 3)
	o.Rune('d', 3)
	o.Key(KeyEscape, false, 3)
	if len(rec.calls) != 1 || o.View(3).Correcting != nil {
		t.Errorf("typing in the box ran %q", rec.calls[1:])
	}
}

func TestOverlayCastsASpell(t *testing.T) {
	o, rec := newTestOverlay(t)
	o.Key(KeyTab, false, 2) // North
	o.Rune('c', 2)
	for _, r := range "brine" {
		o.Rune(r, 2)
	}
	o.Key(KeyEnter, false, 2)
	if want := []string{"spell_cast north 0"}; !reflect.DeepEqual(rec.calls, want) {
		t.Errorf("calls %q, want %q", rec.calls, want)
	}
	// A name the catalog does not know is refused, and the box stays open.
	o.Rune('c', 3)
	for _, r := range "zzz" {
		o.Rune(r, 3)
	}
	o.Key(KeyEnter, false, 3)
	if len(rec.calls) != 1 || o.View(3).Correcting == nil || o.View(3).Message == "" {
		t.Errorf("unknown spell: calls %q, box %v, message %q", rec.calls, o.View(3).Correcting, o.View(3).Message)
	}
}

func TestOverlayRecalibrates(t *testing.T) {
	o, rec := newTestOverlay(t)
	v := o.View(2)
	l := LayoutFor(image.Rect(0, 0, 1280, 720), v)
	o.Rune('k', 2)
	corners := *v.Update.Observation.Mat.Corners
	for _, c := range corners {
		p := l.imageToScreen(pt{c.X, c.Y})
		o.Click(image.Pt(int(p.X), int(p.Y)), 2)
	}
	if len(rec.calls) != 1 {
		t.Fatalf("calls %q", rec.calls)
	}
	var got models.Quad
	fmt.Sscanf(rec.calls[0], "recalibrate %f,%f %f,%f %f,%f %f,%f", &got[0].X, &got[0].Y, &got[1].X, &got[1].Y, &got[2].X, &got[2].Y, &got[3].X, &got[3].Y)
	for i := range got {
		if abs(got[i].X-corners[i].X) > 3 || abs(got[i].Y-corners[i].Y) > 3 {
			t.Errorf("corner %d: %v, want %v", i, got[i], corners[i])
		}
	}
}

func TestOverlayPlaysCues(t *testing.T) {
	rec := &recorder{}
	o := NewOverlay(rec, Options{Sound: rec})
	st := uitest.Midgame()
	o.Receive(models.Update{State: st}, 1)
	door := uitest.DeathsDoor()
	c := models.CellPtr(models.MustCell("E1"))
	o.Receive(models.Update{State: door, Events: []models.Event{
		{Type: models.SitePlayed, Player: models.South, Card: "Arid Desert", Cell: c},
		{Type: models.UnitSummoned, Player: models.South, Card: "Kiln Hound", Cell: c},
	}, Warnings: door.Warnings}, 2)
	want := []audio.Cue{audio.DeathsDoor, audio.SitePlayed, audio.UnitSummoned, audio.Warning}
	if !reflect.DeepEqual(rec.cues, want) {
		t.Errorf("cues %v, want %v", rec.cues, want)
	}
	rec.cues = nil
	o.Receive(models.Update{State: uitest.DeathBlow()}, 3)
	if !reflect.DeepEqual(rec.cues, []audio.Cue{audio.DeathBlow}) {
		t.Errorf("death blow cues %v", rec.cues)
	}
	if got := len(o.View(3).Recent); got != 2 {
		t.Errorf("%d recent events, want 2", got)
	}
}

func TestSuggest(t *testing.T) {
	cat := testCatalog()
	tests := []struct {
		typed string
		want  []string
	}{
		{"kiln", []string{"Kiln Hound"}},
		{"ki", []string{"Kiln Hound", "Kindled Oak", "Skyward Kite"}}, // names first, then a word; shorter first
		{"HOUND", []string{"Kiln Hound"}},
		{"s", []string{"Skyward Kite", "Ashen Steppe", "Reef Stalker"}},
		{"kin", []string{"Kindled Oak"}},
		{"kiln hund", []string{"Kiln Hound"}},      // a typing slip: the catalog's suggestion
		{"arid dessert", []string{"Arid Desert"}},  // a typing slip: the catalog's suggestion
		{"stalker reef", []string{"Reef Stalker"}}, // words out of order
		{"zzz", nil},
		{"", nil},
	}
	for _, tc := range tests {
		got := Suggest(cat, tc.typed, 3)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Suggest(%q) = %q, want %q", tc.typed, got, tc.want)
		}
	}
	if got := Suggest(cat, "k", 1); len(got) != 1 {
		t.Errorf("Suggest with n=1 gave %q", got)
	}
	if got := Suggest(nil, "kiln", 3); got != nil {
		t.Errorf("no catalog: %q", got)
	}
}

// TestOverlayKeepsWarningsForTheTurn: the rules' state holds the warnings
// of its last event only; the overlay keeps those raised this turn, and lets
// them go with the turn, an undo or a correction.
func TestOverlayKeepsWarningsForTheTurn(t *testing.T) {
	rec := &recorder{}
	o := NewOverlay(rec, Options{Catalog: testCatalog()})
	o.SetSize(image.Rect(0, 0, 1280, 720))
	st := uitest.Midgame()
	st.Warnings = nil
	at := func(event int, turn int, active models.Player, ws ...models.Warning) models.Update {
		s := st
		s.Event, s.Turn, s.Active, s.Warnings = event, turn, active, ws
		return models.Update{State: s, Warnings: ws}
	}
	sick := models.Warning{Code: "summoning_sickness", Player: models.South, Cells: []models.Cell{models.MustCell("B3")}, Message: "Kiln Hound cannot tap"}
	void := models.Warning{Code: "void", Player: models.South, Cells: []models.Cell{models.MustCell("D3")}, Message: "Brine Wisp stands in the void"}
	shown := func() []string {
		var out []string
		for _, w := range o.View(1).ShownWarnings() {
			out = append(out, string(w.Code))
		}
		return out
	}
	steps := []struct {
		name string
		do   func()
		want []string
	}{
		{"a warning", func() { o.Receive(at(10, 5, models.South, sick), 1) }, []string{"summoning_sickness"}},
		{"the next event raises none", func() { o.Receive(at(11, 5, models.South), 1) }, []string{"summoning_sickness"}},
		{"another warning", func() { o.Receive(at(12, 5, models.South, void), 1) }, []string{"summoning_sickness", "void"}},
		{"the same again", func() { o.Receive(at(13, 5, models.South, void), 1) }, []string{"summoning_sickness", "void"}},
		{"undo", func() { o.Key(KeyUndo, false, 1); o.Receive(at(12, 5, models.South), 1) }, nil},
		{"a warning", func() { o.Receive(at(13, 5, models.South, sick), 1) }, []string{"summoning_sickness"}},
		{"the next turn", func() { o.Receive(at(14, 5, models.North), 1) }, nil},
	}
	for _, step := range steps {
		step.do()
		if got := shown(); !reflect.DeepEqual(got, step.want) {
			t.Errorf("after %s: warnings %q, want %q", step.name, got, step.want)
		}
	}
}

// TestOverlayShowsWhatStillStands: a rule broken on the table (a minion left
// in the void) stays shown after the turn that raised it, for as long as the
// state says it stands, and is not shown twice beside its event's warning.
func TestOverlayShowsWhatStillStands(t *testing.T) {
	rec := &recorder{}
	o := NewOverlay(rec, Options{Catalog: testCatalog()})
	o.SetSize(image.Rect(0, 0, 1280, 720))
	st := uitest.Midgame()
	st.Warnings = nil
	d3 := []models.Cell{models.MustCell("D3")}
	raised := models.Warning{Code: "unit.void", Player: models.South, Cells: d3, Message: "Brine Wisp was summoned to the void at D3"}
	stands := models.Warning{Code: "unit.void", Player: models.South, Cells: d3, Message: "Brine Wisp is still in the void at D3"}
	at := func(event, turn int, active models.Player, standing []models.Warning, ws ...models.Warning) models.Update {
		s := st
		s.Event, s.Turn, s.Active, s.Warnings, s.Standing = event, turn, active, ws, standing
		return models.Update{State: s, Warnings: ws}
	}
	shown := func() []string {
		var out []string
		for _, w := range o.View(1).ShownWarnings() {
			out = append(out, w.Message)
		}
		return out
	}
	steps := []struct {
		name string
		do   func()
		want []string
	}{
		{"summoned to the void", func() { o.Receive(at(10, 5, models.South, []models.Warning{stands}, raised), 1) }, []string{raised.Message}},
		{"the next turn", func() { o.Receive(at(11, 6, models.North, []models.Warning{stands}), 1) }, []string{stands.Message}},
		{"still there", func() { o.Receive(at(12, 6, models.North, []models.Warning{stands}), 1) }, []string{stands.Message}},
		{"taken off the table", func() { o.Receive(at(13, 6, models.North, nil), 1) }, nil},
	}
	for _, step := range steps {
		step.do()
		if got := shown(); !reflect.DeepEqual(got, step.want) {
			t.Errorf("after %s: warnings %q, want %q", step.name, got, step.want)
		}
	}
}
