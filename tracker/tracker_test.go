package tracker

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
)

const (
	S = models.South
	N = models.North
)

func TestTrackerScripts(t *testing.T) {
	const hand, still = 0.4, 1.0
	tests := []script{
		{
			name:  "first site tells whose turn it is, avatar taps",
			start: startTable(),
			steps: []step{{hand, still, all(put("C1", site("Arid Desert", S)), turn("C1", "Sorcerer", true))}},
			want: []string{
				"game_start south=Sorcerer north=Geomancer",
				"turn_start south", "site_played south Arid Desert C1", "card_tapped south Sorcerer C1",
			},
		},
		{
			name:  "north's turn starts when north plays, south's when south untaps",
			start: startTable(),
			steps: []step{
				{hand, still, all(put("C1", site("Arid Desert", S)), turn("C1", "Sorcerer", true))},
				{hand, still, all(put("C4", site("Spring River", N)), turn("C4", "Geomancer", true))},
				{hand, still, turn("C1", "Sorcerer", false)},
			},
			want: []string{
				"game_start south=Sorcerer north=Geomancer",
				"turn_start south", "site_played south Arid Desert C1", "card_tapped south Sorcerer C1",
				"turn_end south", "turn_start north", "site_played north Spring River C4", "card_tapped north Geomancer C4",
				"turn_end north", "turn_start south", "card_untapped south Sorcerer C1",
			},
		},
		{
			name:  "summon on a covered site, move, removal",
			start: table{"C1": {site("Arid Desert", S), avatar("Sorcerer", S)}, "C4": {avatar("Geomancer", N)}},
			steps: []step{
				{hand, still, put("C1", unit("Apprentice Wizard", S))},
				{hand, still, moveCard("C1", "C2", "Apprentice Wizard")},
				{hand, still, take("C2", "Apprentice Wizard")},
			},
			want: []string{
				"game_start south=Sorcerer north=Geomancer", "site_played south Arid Desert C1",
				"turn_start south", "unit_summoned south Apprentice Wizard C1",
				"unit_moved south Apprentice Wizard C1→C2",
				"card_removed south Apprentice Wizard C2",
			},
		},
		{
			name: "two copies told apart by position",
			start: table{"C1": {site("Arid Desert", S), avatar("Sorcerer", S)}, "C4": {avatar("Geomancer", N)},
				"B1": {unit("Pit Goblin", S)}, "D1": {unit("Pit Goblin", S)}},
			steps: []step{
				{hand, still, moveCard("D1", "D2", "Pit Goblin")},
				{hand, still, turn("B1", "Pit Goblin", true)},
				{hand, still, all(moveCard("B1", "A1", "Pit Goblin"), moveCard("D2", "E2", "Pit Goblin"))},
			},
			want: []string{
				"game_start south=Sorcerer north=Geomancer", "site_played south Arid Desert C1",
				"unit_summoned south Pit Goblin B1", "unit_summoned south Pit Goblin D1",
				"turn_start south", "unit_moved south Pit Goblin D1→D2",
				"card_tapped south Pit Goblin B1",
				"unit_moved south Pit Goblin B1→A1", "unit_moved south Pit Goblin D2→E2",
			},
		},
		{
			name:  "a hand pass that changes nothing",
			start: startTable(),
			steps: []step{{hand, still, func(table) {}}, {1.5, still, func(table) {}}},
			want:  []string{"game_start south=Sorcerer north=Geomancer"},
		},
		{
			name:  "an Avatar moves, and is never removed nor summoned",
			start: startTable(),
			steps: []step{
				{hand, still, moveCard("C1", "C2", "Sorcerer")},
				{hand, still, take("C4", "Geomancer")}, // hidden under something the camera cannot read
				{hand, still, put("D4", avatar("Geomancer", N))},
			},
			want: []string{
				"game_start south=Sorcerer north=Geomancer",
				"turn_start south", "unit_moved south Sorcerer C1→C2",
				"unit_moved north Geomancer C4→D4",
			},
		},
		{
			name:  "a unit covers the Avatar: its taps are inferred, it is never removed",
			start: table{"C1": {site("Arid Desert", S), avatar("Sorcerer", S)}, "C4": {avatar("Geomancer", N)}},
			steps: []step{
				{hand, still, all(take("C1", "Sorcerer"), put("C1", unit("Pit Goblin", S)))},
				{hand, still, all(put("C4", site("Spring River", N)), turn("C4", "Geomancer", true))},
				{hand, still, put("C2", site("Red Desert", S))},
				{hand, still, all(moveCard("C1", "C2", "Pit Goblin"), put("C1", card{"Sorcerer", models.Avatar, S, true}))},
			},
			want: []string{
				"game_start south=Sorcerer north=Geomancer", "site_played south Arid Desert C1",
				"turn_start south", "unit_summoned south Pit Goblin C1",
				"turn_end south", "turn_start north", "site_played north Spring River C4", "card_tapped north Geomancer C4",
				"turn_end north", "turn_start south", "site_played south Red Desert C2", "card_tapped south Sorcerer C1",
				"unit_moved south Pit Goblin C1→C2",
			},
		},
		{
			name:  "a covered Avatar untaps at its turn's start and shows again tapped: tapped again",
			start: table{"C1": {site("Arid Desert", S), avatar("Sorcerer", S)}, "C4": {avatar("Geomancer", N)}},
			steps: []step{
				{hand, still, all(put("C2", site("Red Desert", S)), turn("C1", "Sorcerer", true))},
				{hand, still, all(take("C1", "Sorcerer"), put("C1", unit("Pit Goblin", S)))},
				{hand, still, all(put("C4", site("Spring River", N)), turn("C4", "Geomancer", true))},
				{hand, still, all(put("B2", unit("Foot Soldier", S)), moveCard("C1", "C2", "Pit Goblin"),
					put("C1", card{"Sorcerer", models.Avatar, S, true}))},
			},
			want: []string{
				"game_start south=Sorcerer north=Geomancer", "site_played south Arid Desert C1",
				"turn_start south", "site_played south Red Desert C2", "card_tapped south Sorcerer C1",
				"unit_summoned south Pit Goblin C1",
				"turn_end south", "turn_start north", "site_played north Spring River C4", "card_tapped north Geomancer C4",
				"turn_end north", "turn_start south", "card_untapped south Sorcerer C1",
				"unit_moved south Pit Goblin C1→C2", "unit_summoned south Foot Soldier B2", "card_tapped south Sorcerer C1",
			},
		},
		{
			name: "a unit moved onto another hides it; the hidden one comes out elsewhere",
			start: table{"C1": {site("Arid Desert", S), avatar("Sorcerer", S)}, "C4": {avatar("Geomancer", N)},
				"C2": {site("Red Desert", S), unit("Pit Goblin", S)}, "C3": {site("Spring River", N), unit("Bog Frog", N)}},
			steps: []step{
				{hand, still, all(take("C3", "Bog Frog"), moveCard("C2", "C3", "Pit Goblin"))},
				{hand, still, put("B3", unit("Bog Frog", N))},
			},
			want: []string{
				"game_start south=Sorcerer north=Geomancer", "site_played south Arid Desert C1", "site_played south Red Desert C2",
				"site_played north Spring River C3", "unit_summoned south Pit Goblin C2", "unit_summoned north Bog Frog C3",
				"turn_start south", "unit_moved south Pit Goblin C2→C3",
				"unit_moved north Bog Frog C3→B3",
			},
		},
		{
			name:  "site destroyed",
			start: table{"C1": {site("Arid Desert", S), avatar("Sorcerer", S)}, "C4": {avatar("Geomancer", N)}, "C2": {site("Red Desert", S)}},
			steps: []step{{hand, still, take("C2", "Red Desert")}},
			want: []string{
				"game_start south=Sorcerer north=Geomancer", "site_played south Arid Desert C1", "site_played south Red Desert C2",
				"site_destroyed south C2",
			},
		},
	}
	checkScripts(t, tests)
}

// turns splits events at each turn_start and sorts each turn's events: the
// order of changes settled by one hand pass may vary with the noise, the
// turn they fall in may not.
func turns(evs []string) [][]string {
	var out [][]string
	cur := []string{}
	for _, e := range evs {
		if strings.HasPrefix(e, "turn_start") || strings.HasPrefix(e, "turn_end") {
			sort.Strings(cur)
			out = append(out, cur, []string{e})
			cur = []string{}
			continue
		}
		cur = append(cur, e)
	}
	sort.Strings(cur)
	return append(out, cur)
}

func TestFlickerNeverProducesEvents(t *testing.T) {
	start := table{"C1": {site("Arid Desert", S), avatar("Sorcerer", S), unit("Pit Goblin", S)},
		"C4": {avatar("Geomancer", N)}, "B3": {site("Spring River", N), unit("Pit Goblin", N)}}
	nz := defaultNoise()
	nz.misread, nz.dip, nz.unknown = 0.1, 0.15, 0.05
	for seed := int64(1); seed <= 30; seed++ {
		// Ten seconds of a still table, read badly.
		obs, _ := render(start, []step{{0, 10, func(table) {}}}, nz, seed)
		evs := run(New(Config{}), obs)
		for _, ev := range evs {
			if ev.Type != models.GameStart && ev.Type != models.SitePlayed && ev.Type != models.UnitSummoned {
				t.Fatalf("seed %d: flicker became %s", seed, brief(ev))
			}
			if *ev.Frame != *evs[0].Frame {
				t.Fatalf("seed %d: %s at frame %d, after the first board", seed, brief(ev), *ev.Frame)
			}
		}
	}
}

func TestWindowIsVideoTime(t *testing.T) {
	nz := defaultNoise()
	nz.misread, nz.dip, nz.unknown, nz.coveredID = 0, 0, 0, 1
	for _, window := range []float64{0.25, 0.5} {
		for _, fps := range []float64{15, 30, 60} {
			nz.fps = fps
			obs, visible := render(startTable(), []step{{0.4, 2, put("B2", unit("Pit Goblin", S))}}, nz, 1)
			var at float64 = -1
			for _, ev := range run(New(Config{Window: window}), obs) {
				if ev.Type == models.UnitSummoned {
					at = *ev.Time
				}
			}
			lag := at - float64(visible[0])/fps
			if at < 0 || lag < window-1.5/fps || lag > window+1/fps {
				t.Errorf("window %v s at %v fps: summon %.3f s after it became visible", window, fps, lag)
			}
		}
	}
}

func TestAutoMana(t *testing.T) {
	cat := sampleCatalog(t)
	start := table{"C1": {site("Emberfall Ridge", S), avatar("Lantern Warden", S)}, "C4": {avatar("Tide Oracle", N)}}
	nz := defaultNoise()
	nz.misread, nz.dip, nz.unknown, nz.otherNames = 0, 0, 0, nil
	obs, _ := render(start, []step{{0.4, 1, put("C1", unit("Pyre Colossus", S))}}, nz, 1)
	tests := []struct {
		name     string
		autoMana bool
		want     []string
	}{
		{"the rules charge the summon", false, nil},
		{"the tracker charges it for rules that do not", true, []string{"mana_spent south 6"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			g := NewGame(newRules(cat), nil, cat)
			var warnings []models.Warning
			for _, ev := range run(New(Config{Catalog: cat, AutoMana: tc.autoMana}), obs) {
				if ev.Type == models.ManaSpent {
					got = append(got, brief(ev))
				}
				if _, ws, err := g.Record([]models.Event{ev}, Camera); err == nil {
					warnings = append(warnings, ws...)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("mana events %q, want %q", got, tc.want)
			}
			// Pyre Colossus costs 6; south has one site: the rules warn live.
			found := false
			for _, w := range warnings {
				if w.Code == "mana.insufficient" {
					found = true
				}
			}
			if !found {
				t.Errorf("no mana.insufficient warning for a 6-cost summon on one site: %+v", warnings)
			}
		})
	}
}

func TestResumeKeepsCoveredCards(t *testing.T) {
	// The journal's board: the Sorcerer at C1 under a Pit Goblin summoned on it.
	b := NewBoard()
	for _, ev := range []models.Event{
		{Type: models.GameStart, South: &models.Seat{Avatar: "Sorcerer"}, North: &models.Seat{Avatar: "Geomancer"}},
		{Type: models.SitePlayed, Player: S, Cell: cellp("C1"), Card: "Arid Desert"},
		{Type: models.UnitSummoned, Player: S, Cell: cellp("C1"), Card: "Pit Goblin"},
	} {
		if _, err := b.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	// The camera sees the Goblin, not the Sorcerer under it.
	start := table{"C1": {site("Arid Desert", S), unit("Pit Goblin", S)}, "C4": {avatar("Geomancer", N)}}
	for seed := int64(1); seed <= 10; seed++ {
		obs, _ := render(start, []step{{0.4, 1, put("C2", site("Red Desert", S))}}, defaultNoise(), seed)
		tr := Resume(Config{}, b, S)
		tr.Hide([]HiddenCard{{Cell: models.MustCell("C1"), Card: "Sorcerer", Owner: S}}) // as the journal kept it
		got := briefs(run(tr, obs))
		want := []string{"site_played south Red Desert C2", "card_tapped south Sorcerer C1"}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: events %q, want %q", seed, got, want)
		}
	}
}

func TestStatusNamesUnnamedCards(t *testing.T) {
	tr := New(Config{})
	unknown := models.CardObservation{Cell: cellp("D3"), Kind: models.KindStandard, Owner: N, Confidence: 0.1}
	var status, got []string
	for i := 0; i < 150; i++ {
		obs := models.FrameObservation{Frame: i, Time: float64(i) / 30, Cards: []models.CardObservation{
			{Cell: cellp("C1"), Name: models.StrPtr("Sorcerer"), Type: models.StrPtr("Avatar"), Owner: S, Confidence: 0.9},
			{Cell: cellp("C4"), Name: models.StrPtr("Geomancer"), Type: models.StrPtr("Avatar"), Owner: N, Confidence: 0.9}}}
		if i >= 30 {
			obs.Cards = append(obs.Cards, unknown)
		}
		evs := tr.Observe(obs)
		if len(evs) > 0 && i >= 30 && i < 30+29 { // 30 frames from frame 30 are 1 s
			t.Fatalf("frame %d: %q before the card stayed unidentified for UnnamedHold", i, briefs(evs))
		}
		got = append(got, briefs(evs)...)
		if len(status) == 0 || status[len(status)-1] != tr.Status() {
			status = append(status, tr.Status())
		}
	}
	if want := []string{"game_start south=Sorcerer north=Geomancer", "turn_start north", "unit_summoned north ? D3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
	want := []string{"reading the board", "", "cannot identify the card at D3 (is it in the catalog?): kept in play unnamed"}
	if !reflect.DeepEqual(status, want) {
		t.Errorf("status %q, want %q", status, want)
	}
}

// script is a table and the steps played on it, with the events the tracker
// must give.
type script struct {
	name  string
	start table
	steps []step
	want  []string
}

// checkScripts renders each script under 20 noise seeds and checks the
// tracker's events against its want.
func checkScripts(t *testing.T, tests []script) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for seed := int64(1); seed <= 20; seed++ {
				obs, _ := render(tc.start, tc.steps, defaultNoise(), seed)
				got := briefs(run(New(Config{}), obs))
				if !reflect.DeepEqual(turns(got), turns(tc.want)) {
					t.Fatalf("seed %d: events\n got %q\nwant %q", seed, got, tc.want)
				}
			}
		})
	}
}
