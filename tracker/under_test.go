package tracker

import (
	"reflect"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// sightScript says what the camera shows of the hidden Pit Goblin at C3 on
// a frame: nothing (covered whole), still there, or gone.
type sightScript func(frame int, occluded bool) (shows, gone bool)

// runSights feeds observations with sights of the hidden cards.
func runSights(tr *Tracker, obs []models.FrameObservation, sight sightScript) []models.Event {
	var evs []models.Event
	for _, o := range obs {
		var sights []HiddenSight
		for _, h := range tr.Hidden() {
			if shows, gone := sight(o.Frame, o.Occluded); shows {
				sights = append(sights, HiddenSight{HiddenCard: h, Gone: gone})
			}
		}
		evs = append(evs, tr.ObserveWith(o, sights)...)
	}
	return append(evs, tr.Flush()...)
}

func TestRemovedWhileHidden(t *testing.T) {
	const hand, still, fps = 0.4, 1.5, 30
	// The Bog Frog moves onto the Pit Goblin and covers it; later a hand
	// takes the Goblin from under the Frog (the camera sees the Frog alone
	// before and after).
	start := table{"C1": {site("Arid Desert", S), avatar("Sorcerer", S)}, "C4": {avatar("Geomancer", N)},
		"C2": {site("Red Desert", S), unit("Pit Goblin", S)}, "C3": {site("Spring River", N), unit("Bog Frog", N)}}
	steps := []step{
		{hand, still, all(take("C2", "Pit Goblin"), moveCard("C3", "C2", "Bog Frog"))},
		{hand, still, func(table) {}}, // the Goblin is taken from under the Frog
	}
	prefix := []string{
		"game_start south=Sorcerer north=Geomancer", "site_played south Arid Desert C1", "site_played south Red Desert C2",
		"site_played north Spring River C3", "unit_summoned south Pit Goblin C2", "unit_summoned north Bog Frog C3",
		"turn_start north", "unit_moved north Bog Frog C3→C2",
	}
	removed := "card_removed south Pit Goblin C2"
	nz := defaultNoise()
	_, visible := render(start, steps, nz, 1)
	takenAt := visible[1] // the first frame after the second hand
	tests := []struct {
		name  string
		sight sightScript
		want  []string
	}{
		{"covered whole: nothing shows that it left, it stays hidden",
			func(int, bool) (bool, bool) { return false, false }, prefix},
		{"a strip still shows as it was: it only went under",
			func(int, bool) (bool, bool) { return true, false }, prefix},
		{"the strip that showed is gone once the hand leaves: removed",
			func(f int, _ bool) (bool, bool) { return true, f >= takenAt }, append(prefix, removed)},
		{"the strip reads gone only under the hand (occluded frames): it stays",
			func(f int, occluded bool) (bool, bool) { return true, occluded }, prefix},
		{"the strip reads gone for less than the window (a flicker): it stays",
			func(f int, _ bool) (bool, bool) { return true, f >= takenAt && f < takenAt+4 }, prefix},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for seed := int64(1); seed <= 10; seed++ {
				obs, _ := render(start, steps, nz, seed)
				evs := runSights(New(Config{}), obs, tc.sight)
				if got := briefs(evs); !reflect.DeepEqual(turns(got), turns(tc.want)) {
					t.Fatalf("seed %d: events\n got %q\nwant %q", seed, got, tc.want)
				}
				for _, ev := range evs {
					if ev.Type != models.CardRemoved {
						continue
					}
					// Removed within the window (and a frame) of the view clearing.
					if lag := float64(*ev.Frame-takenAt) / fps; lag < 0.25-1.5/fps || lag > 0.25+1.0/fps {
						t.Errorf("seed %d: removed %.3f s after the view cleared", seed, lag)
					}
				}
			}
		})
	}
}

func TestRemovedWhileHiddenLeavesTheHiddenList(t *testing.T) {
	tr := New(Config{})
	start := table{"C1": {site("Arid Desert", S), avatar("Sorcerer", S)}, "C4": {avatar("Geomancer", N)},
		"C2": {site("Red Desert", S), unit("Pit Goblin", S)}, "C3": {site("Spring River", N), unit("Bog Frog", N)}}
	nz := defaultNoise()
	nz.misread, nz.dip, nz.unknown = 0, 0, 0
	obs, visible := render(start, []step{
		{0.4, 1, all(take("C2", "Pit Goblin"), moveCard("C3", "C2", "Bog Frog"))},
		{0.4, 1, func(table) {}},
	}, nz, 1)
	var hiddenBefore []HiddenCard
	runSights(tr, obs, func(f int, _ bool) (bool, bool) {
		if f == visible[1]-1 {
			hiddenBefore = tr.Hidden()
		}
		return true, f >= visible[1]
	})
	want := []HiddenCard{{Cell: models.MustCell("C2"), Card: "Pit Goblin", Owner: S}}
	if !reflect.DeepEqual(hiddenBefore, want) {
		t.Errorf("hidden before the removal: %+v, want %+v", hiddenBefore, want)
	}
	if h := tr.Hidden(); len(h) != 0 {
		t.Errorf("hidden after the removal: %+v, want none", h)
	}
	if b := tr.Board().String(); b != "C1: site Arid Desert (south) | Sorcerer (south)\nC2: site Red Desert (south) | Bog Frog (north)\nC3: site Spring River (north)\nC4: | Geomancer (north)\n" {
		t.Errorf("board after the removal:\n%s", b)
	}
}

// coveredSiteFrames gives frames of a table where south's Avatar stands at
// C1 and, from frame at, a site lies under it that vision names only on
// some frames, with low confidence.
func coveredSiteFrames(n, at int, sighting func(frame int) (name string, conf float64, ok bool)) []models.FrameObservation {
	var obs []models.FrameObservation
	for f := 0; f < n; f++ {
		o := models.FrameObservation{Frame: f, Time: float64(f) / 30, Cards: []models.CardObservation{
			{Cell: cellp("C1"), Name: models.StrPtr("Sorcerer"), Type: models.StrPtr("Avatar"), Owner: S, Confidence: 0.9, Tapped: f >= at},
			{Cell: cellp("C4"), Name: models.StrPtr("Geomancer"), Type: models.StrPtr("Avatar"), Owner: N, Confidence: 0.9}}}
		if name, conf, ok := sighting(f); ok {
			o.Cards = append(o.Cards, models.CardObservation{Cell: cellp("C1"), Name: models.StrPtr(name),
				Type: models.StrPtr("Site"), Kind: models.KindSite, Owner: S, Confidence: conf})
		}
		obs = append(obs, o)
	}
	return obs
}

func TestSiteUnderUnitIsVoted(t *testing.T) {
	const at = 60
	tests := []struct {
		name     string
		sighting func(frame int) (string, float64, bool)
		want     string // the site played, "" for none, "?" unnamed
		within   int    // frames after at
	}{
		{"named on two frames of three, low confidence", func(f int) (string, float64, bool) {
			return "Arid Desert", 0.3 + 0.05*float64(f%3), f >= at && f%3 != 0
		}, "Arid Desert", 20},
		{"named on one frame of two among misreads", func(f int) (string, float64, bool) {
			if f%8 == 0 {
				return "Red Desert", 0.4, f >= at
			}
			return "Arid Desert", 0.35, f >= at && f%2 == 1
		}, "Arid Desert", 30},
		{"a rare misread never adds up", func(f int) (string, float64, bool) {
			return "Red Desert", 0.45, f%45 == 0
		}, "", 0},
		// Too faint to name, but a site seen on every frame is a site: it
		// is played unnamed once it has stayed so for UnnamedHold.
		{"too faint to name", func(f int) (string, float64, bool) {
			return "Arid Desert", 0.2, f >= at
		}, "?", 45},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var played []models.Event
			for _, ev := range run(New(Config{}), coveredSiteFrames(1200, at, tc.sighting)) {
				if ev.Type == models.SitePlayed {
					played = append(played, ev)
				}
			}
			switch {
			case tc.want == "" && len(played) > 0:
				t.Fatalf("site_played %q at frame %d, want none", played[0].Card, *played[0].Frame)
			case tc.want == "":
			case tc.want == "?" && (len(played) != 1 || !played[0].Unnamed):
				t.Fatalf("sites played %q, want one unnamed", briefs(played))
			case tc.want != "?" && (len(played) != 1 || played[0].Card != tc.want):
				t.Fatalf("sites played %q, want one %s", briefs(played), tc.want)
			case *played[0].Frame > at+tc.within:
				t.Errorf("site_played at frame %d, %d frames after it was put down; want within %d", *played[0].Frame, *played[0].Frame-at, tc.within)
			}
		})
	}
}

func TestHiddenCardShowingInPartStaysHidden(t *testing.T) {
	// C3 holds north's tapped Ember Whelp and Cindertail Fox; south's Gale
	// Sprite comes down on the Fox (frame 60), hiding it; the Whelp is taken
	// away (frame 150), after which the Fox shows in part, too little to be
	// identified.
	seenCard := func(name, typ string, owner models.Player, tapped bool, conf float64) models.CardObservation {
		return models.CardObservation{Cell: cellp("C3"), Name: models.StrPtr(name), Type: models.StrPtr(typ), Owner: owner, Tapped: tapped, Confidence: conf}
	}
	var obs []models.FrameObservation
	for f := 0; f < 300; f++ {
		o := models.FrameObservation{Frame: f, Time: float64(f) / 30, Cards: []models.CardObservation{
			{Cell: cellp("C1"), Name: models.StrPtr("Sorcerer"), Type: models.StrPtr("Avatar"), Owner: S, Confidence: 0.9},
			{Cell: cellp("C4"), Name: models.StrPtr("Geomancer"), Type: models.StrPtr("Avatar"), Owner: N, Confidence: 0.9},
			seenCard("Spring River", "Site", N, false, 0.9)}}
		switch {
		case f < 60:
			o.Cards = append(o.Cards, seenCard("Ember Whelp", "Minion", N, true, 0.9), seenCard("Cindertail Fox", "Minion", N, false, 0.9))
		case f < 150:
			o.Cards = append(o.Cards, seenCard("Ember Whelp", "Minion", N, true, 0.9), seenCard("Gale Sprite", "Minion", S, true, 0.9))
		default:
			o.Cards = append(o.Cards, seenCard("Gale Sprite", "Minion", S, true, 0.9), seenCard("Cindertail Fox", "Minion", N, false, 0.4))
		}
		obs = append(obs, o)
	}
	tr := New(Config{})
	var got []string
	removedAt := -1
	for _, ev := range run(tr, obs) {
		if *ev.Frame >= 150 {
			got = append(got, brief(ev))
			if ev.Type == models.CardRemoved {
				removedAt = *ev.Frame
			}
		}
	}
	if want := []string{"card_removed north Ember Whelp C3"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("events after the Whelp left: %q, want %q", got, want)
	}
	if lag := float64(removedAt-150) / 30; lag > 0.25+1.0/30 {
		t.Errorf("the Whelp removed %.3f s after it left", lag)
	}
	if h := tr.Hidden(); len(h) != 1 || h[0].Card != "Cindertail Fox" {
		t.Errorf("hidden %+v, want the Cindertail Fox", h)
	}
}

func TestCardShownUnderAnotherHidesAgain(t *testing.T) {
	// The Fox goes under the Gale Sprite (frame 60), shows well enough to be
	// read for a second (frames 120–150: a hand nudged the Sprite), then
	// vanishes under the Sprite again: it is hidden again, not removed.
	seenCard := func(name, typ string, owner models.Player, tapped bool) models.CardObservation {
		return models.CardObservation{Cell: cellp("C3"), Name: models.StrPtr(name), Type: models.StrPtr(typ), Owner: owner, Tapped: tapped, Confidence: 0.9}
	}
	var obs []models.FrameObservation
	for f := 0; f < 300; f++ {
		o := models.FrameObservation{Frame: f, Time: float64(f) / 30, Cards: []models.CardObservation{
			{Cell: cellp("C1"), Name: models.StrPtr("Sorcerer"), Type: models.StrPtr("Avatar"), Owner: S, Confidence: 0.9},
			{Cell: cellp("C4"), Name: models.StrPtr("Geomancer"), Type: models.StrPtr("Avatar"), Owner: N, Confidence: 0.9},
			seenCard("Spring River", "Site", N, false)}}
		switch {
		case f < 60:
			o.Cards = append(o.Cards, seenCard("Cindertail Fox", "Minion", N, false))
		case f >= 120 && f < 150:
			o.Cards = append(o.Cards, seenCard("Gale Sprite", "Minion", S, true), seenCard("Cindertail Fox", "Minion", N, false))
		default:
			o.Cards = append(o.Cards, seenCard("Gale Sprite", "Minion", S, true))
		}
		obs = append(obs, o)
	}
	tr := New(Config{})
	var got []string
	for _, ev := range run(tr, obs) {
		if *ev.Frame >= 90 {
			got = append(got, brief(ev))
		}
	}
	if len(got) != 0 {
		t.Errorf("events once the Fox was under the Sprite: %q, want none", got)
	}
	if h := tr.Hidden(); len(h) != 1 || h[0].Card != "Cindertail Fox" {
		t.Errorf("hidden %+v, want the Cindertail Fox", h)
	}
}
