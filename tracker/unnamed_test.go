package tracker

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// Cards the catalog lacks ("?" names: vision never names them) still play:
// the game starts with an unnamed Avatar, and unnamed sites and units are
// played, summoned, tapped, moved and removed, each event marked unnamed.
func TestUnnamedCardsScripts(t *testing.T) {
	const hand, still = 0.4, 2.0
	tests := []script{
		{
			name:  "an Avatar the catalog lacks starts the game unnamed",
			start: table{"C1": {avatar("Sorcerer", S)}, "C4": {avatar("?Geomancer", N)}},
			steps: []step{
				{hand, still, all(put("C1", site("Arid Desert", S)), turn("C1", "Sorcerer", true))},
				{hand, still, all(put("C4", site("Spring River", N)), turn("C4", "?Geomancer", true))},
			},
			want: []string{
				"game_start south=Sorcerer north=?",
				"turn_start south", "site_played south Arid Desert C1", "card_tapped south Sorcerer C1",
				"turn_end south", "turn_start north", "site_played north Spring River C4", "card_tapped north ? C4",
			},
		},
		{
			name:  "unnamed sites and a unit: played, summoned, tapped, moved, removed",
			start: startTable(),
			steps: []step{
				{hand, still, all(put("C4", site("?Spring River", N)), turn("C4", "Geomancer", true))},
				{hand, still, put("C3", site("?Red Desert", N))},
				{hand, still, put("C3", unit("?Bog Frog", N))},
				{hand, still, turn("C3", "?Bog Frog", true)},
				{hand, still, moveCard("C3", "B3", "?Bog Frog")},
				{hand, still, take("B3", "?Bog Frog")},
			},
			want: []string{
				"game_start south=Sorcerer north=Geomancer",
				"turn_start north", "site_played north ? C4", "card_tapped north Geomancer C4",
				"site_played north ? C3",
				"unit_summoned north ? C3",
				"card_tapped north ? C3",
				"unit_moved north ? C3→B3",
				"card_removed north ? B3",
			},
		},
	}
	checkScripts(t, tests)
}

// avatarsAnd gives a frame with both Avatars named, and the cards given.
func avatarsAnd(f int, cards ...models.CardObservation) models.FrameObservation {
	return models.FrameObservation{Frame: f, Time: float64(f) / 30, Cards: append([]models.CardObservation{
		{Cell: cellp("C1"), Name: models.StrPtr("Sorcerer"), Type: models.StrPtr("Avatar"), Kind: models.KindStandard, Owner: S, Confidence: 0.9},
		{Cell: cellp("C4"), Name: models.StrPtr("Geomancer"), Type: models.StrPtr("Avatar"), Kind: models.KindStandard, Owner: N, Confidence: 0.9}},
		cards...)}
}

// A card unidentified long enough is in play unnamed; once frames name it,
// card_named gives it its name, and its later events carry it.
func TestUnnamedCardNamedLater(t *testing.T) {
	frog := func(named, tapped bool) models.CardObservation {
		o := models.CardObservation{Cell: cellp("D3"), Kind: models.KindStandard, Owner: N, Tapped: tapped, Confidence: 0.2}
		if named {
			o.Name, o.Type, o.Confidence = models.StrPtr("Bog Frog"), models.StrPtr("Minion"), 0.9
		}
		return o
	}
	desert := func(named bool) models.CardObservation {
		o := models.CardObservation{Cell: cellp("B3"), Kind: models.KindSite, Owner: N, Confidence: 0.2}
		if named {
			o.Name, o.Type, o.Confidence = models.StrPtr("Red Desert"), models.StrPtr("Site"), 0.9
		}
		return o
	}
	tr := New(Config{})
	var got []string
	frames := map[string]int{}
	for f := 0; f < 300; f++ {
		var cards []models.CardObservation
		switch {
		case f >= 30 && f < 120:
			cards = append(cards, frog(false, false), desert(false))
		case f >= 120 && f < 200:
			cards = append(cards, frog(true, false), desert(f%2 == 0))
		case f >= 200:
			cards = append(cards, frog(true, true), desert(true))
		}
		for _, ev := range tr.Observe(avatarsAnd(f, cards...)) {
			got = append(got, brief(ev))
			frames[brief(ev)] = f
		}
	}
	want := []string{
		"game_start south=Sorcerer north=Geomancer",
		"turn_start north", "site_played north ? B3", "unit_summoned north ? D3",
		"card_named north Bog Frog D3", "card_named north Red Desert B3",
		"card_tapped north Bog Frog D3",
	}
	if !reflect.DeepEqual(turns(got), turns(want)) {
		t.Fatalf("events\n got %q\nwant %q", got, want)
	}
	// Named within the stability window (with its quorum) of the first
	// frames that name it: every frame names the frog, one in two the site.
	if f := frames["card_named north Bog Frog D3"]; f > 120+10 {
		t.Errorf("the frog named at frame %d, want by frame 130", f)
	}
	if f := frames["card_named north Red Desert B3"]; f > 120+25 {
		t.Errorf("the site named at frame %d, want by frame 145", f)
	}
	if b := tr.Board().String(); b != "C1: | Sorcerer (south)\nB3: site Red Desert (north)\nD3: | Bog Frog (north, tapped)\nC4: | Geomancer (north)\n" {
		t.Errorf("board:\n%s", b)
	}
}

// An Avatar the catalog lacks takes the name configured for it, and once the
// game has started with it, the change gate may spare frames again.
func TestUnnamedAvatar(t *testing.T) {
	unknownAvatar := models.CardObservation{Cell: cellp("C4"), Kind: models.KindStandard, Owner: N, Confidence: 0.2}
	frame := func(f int) models.FrameObservation {
		return models.FrameObservation{Frame: f, Time: float64(f) / 30, Cards: []models.CardObservation{
			{Cell: cellp("C1"), Name: models.StrPtr("Sorcerer"), Type: models.StrPtr("Avatar"), Kind: models.KindStandard, Owner: S, Confidence: 0.9},
			unknownAvatar}}
	}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"unnamed", Config{}, "game_start south=Sorcerer north=?"},
		{"named as configured", Config{NorthAvatar: "Geomancer"}, "game_start south=Sorcerer north=Geomancer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := New(tc.cfg)
			var got []string
			for f := 0; f < 120; f++ {
				got = append(got, briefs(tr.Observe(frame(f)))...)
			}
			if !reflect.DeepEqual(got, []string{tc.want}) {
				t.Errorf("events %q, want %q", got, []string{tc.want})
			}
			if tr.Pending() {
				t.Errorf("pending on a still board with the game started: the change gate would read every frame in full")
			}
		})
	}
}

// A game with unnamed cards goes through the rules and the journal, replays
// to the same state, and a player's rename names an unnamed card from the
// event that brought it into play.
func TestUnnamedCardsJournal(t *testing.T) {
	cat, path, j, g := journaledGame(t)
	if err := g.Start("test", cat.Path); err != nil {
		t.Fatal(err)
	}
	tr := New(Config{})
	for f := 0; f < 200; f++ {
		o := models.FrameObservation{Frame: f, Time: float64(f) / 30, Cards: []models.CardObservation{
			{Cell: cellp("C1"), Name: models.StrPtr("Lantern Warden"), Type: models.StrPtr("Avatar"), Kind: models.KindStandard, Owner: S, Confidence: 0.9},
			{Cell: cellp("C4"), Kind: models.KindStandard, Owner: N, Confidence: 0.2}}}
		if f >= 60 {
			o.Cards = append(o.Cards, models.CardObservation{Cell: cellp("C3"), Kind: models.KindSite, Owner: N, Confidence: 0.2},
				models.CardObservation{Cell: cellp("C3"), Kind: models.KindStandard, Owner: N, Confidence: 0.2})
		}
		if evs := tr.Observe(o); len(evs) > 0 {
			if _, _, err := g.RecordCamera(evs, tr.Hidden()); err != nil {
				t.Fatalf("frame %d: %v", f, err)
			}
		}
	}
	if len(g.Rejected()) > 0 {
		t.Fatalf("the rules refused %+v", g.Rejected())
	}
	st := g.State()
	if len(st.Players["north"].Sites) != 1 || st.Players["north"].UnnamedSites != 1 || st.Players["north"].Avatar != "" {
		t.Errorf("north: %+v, want one unnamed site and an unnamed Avatar", st.Players["north"])
	}
	if got, want := g.Board().String(), tr.Board().String(); got != want {
		t.Fatalf("the journal's board\n%s\nthe tracker's\n%s", got, want)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _, err := ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	replayed := LoadGame(newRules(cat), entries, nil, cat)
	if a, b := stateJSON(t, g), stateJSON(t, replayed); a != b {
		t.Fatalf("replayed state\n%s\nwant\n%s", b, a)
	}
	if err := replayed.Correct(models.Correction{Kind: models.RenameCard, Cell: cellp("C3"), Name: "Ember Whelp"}); err != nil {
		t.Fatal(err)
	}
	if cs := replayed.State().Realm.Cells["C3"]; len(cs.Units) != 1 || cs.Units[0].Card != "Ember Whelp" || cs.Units[0].Unnamed {
		t.Errorf("C3 after the rename: %+v, want Ember Whelp", cs)
	}
}

// An Avatar vision never finds (a faceless card it fails to outline) is
// taken, after a while, as unnamed and out of sight in its home cell: the
// game starts, and the Avatar is never removed.
func TestUnseenAvatar(t *testing.T) {
	tr := New(Config{})
	var got []string
	started := -1
	for f := 0; f < 200; f++ {
		o := models.FrameObservation{Frame: f, Time: float64(f) / 30, Cards: []models.CardObservation{
			{Cell: cellp("C1"), Name: models.StrPtr("Sorcerer"), Type: models.StrPtr("Avatar"), Kind: models.KindStandard, Owner: S, Confidence: 0.9}}}
		if f >= 150 {
			o.Cards = append(o.Cards, models.CardObservation{Cell: cellp("C1"), Name: models.StrPtr("Arid Desert"), Type: models.StrPtr("Site"), Kind: models.KindSite, Owner: S, Confidence: 0.9})
		}
		for _, ev := range tr.Observe(o) {
			got = append(got, brief(ev))
			if ev.Type == models.GameStart {
				started = f
			}
		}
	}
	want := []string{"game_start south=Sorcerer north=?", "turn_start south", "site_played south Arid Desert C1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	if started < 45-1 || started > 45+5 {
		t.Errorf("game started at frame %d, want after 1.5 s of frames read", started)
	}
	if h := tr.Hidden(); len(h) != 1 || h[0].Owner != N || h[0].Cell != models.MustCell("C4") {
		t.Errorf("hidden %+v, want north's Avatar at C4", h)
	}
}

// Neither Avatar found, but cards on the realm: the game starts with both
// unseen; an empty realm never starts a game.
func TestUnseenAvatars(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cards []models.CardObservation
		want  []string
	}{
		{"cards on the realm", []models.CardObservation{{Cell: cellp("C1"), Name: models.StrPtr("Pit Goblin"), Type: models.StrPtr("Minion"), Kind: models.KindStandard, Owner: S, Confidence: 0.9}},
			[]string{"game_start south=? north=?", "unit_summoned south Pit Goblin C1"}},
		{"an empty realm", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := New(Config{})
			var got []string
			for f := 0; f < 150; f++ {
				got = append(got, briefs(tr.Observe(models.FrameObservation{Frame: f, Time: float64(f) / 30, Cards: tc.cards}))...)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("events %q, want %q", got, tc.want)
			}
		})
	}
}

// A journal written before cards could be unnamed replays as it did: the same
// board and state, and a game resumed from it goes on.
func TestJournalBeforeUnnamedReplays(t *testing.T) {
	cat := sampleCatalog(t)
	old := `{"seq":1,"at":"2026-11-30T12:00:10Z","kind":"start","note":"video game.avi","catalog":"samples/catalog"}
{"seq":2,"at":"2026-11-30T12:00:13Z","kind":"event","source":"camera","batch":1,"batch_size":1,"event":{"type":"game_start","south":{"avatar":"Tide Oracle"},"north":{"avatar":"Ashen Sovereign"},"frame":14,"time":0.4666666666666667}}
{"seq":3,"at":"2026-11-30T12:00:13Z","kind":"event","source":"camera","batch":2,"batch_size":3,"event":{"type":"turn_start","player":"south","frame":39,"time":1.3}}
{"seq":4,"at":"2026-11-30T12:00:13Z","kind":"event","source":"camera","batch":2,"batch_size":3,"event":{"type":"site_played","player":"south","cell":"C1","card":"Sunken Lantern","frame":39,"time":1.3}}
{"seq":5,"at":"2026-11-30T12:00:13Z","kind":"event","source":"camera","batch":2,"batch_size":3,"event":{"type":"card_tapped","player":"south","cell":"C1","card":"Tide Oracle","frame":39,"time":1.3}}
{"seq":6,"at":"2026-11-30T12:00:13Z","kind":"event","source":"camera","batch":3,"batch_size":1,"event":{"type":"unit_summoned","player":"south","cell":"C1","card":"Wandering Tinker","frame":70,"time":2.3333333333333335}}
`
	path := filepath.Join(t.TempDir(), "old.jsonl")
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, torn, err := ReadJournal(path)
	if err != nil || torn != nil {
		t.Fatalf("ReadJournal: %v, torn %v", err, torn)
	}
	g := LoadGame(newRules(cat), entries, nil, cat)
	if r := g.Rejected(); len(r) > 0 {
		t.Fatalf("refused %+v", r)
	}
	if b := g.Board().String(); b != "C1: site Sunken Lantern (south) | Tide Oracle (south, tapped) | Wandering Tinker (south)\nC4: | Ashen Sovereign (north)\n" {
		t.Errorf("board:\n%s", b)
	}
	st := g.State()
	if st.Players["south"].Avatar != "Tide Oracle" || st.Players["north"].Avatar != "Ashen Sovereign" || st.Players["south"].Mana.Total != 1 {
		t.Errorf("players %+v", st.Players)
	}
	for _, ev := range g.Events() {
		if ev.Unnamed || ev.South != nil && (ev.South.Unnamed || ev.North.Unnamed) {
			t.Errorf("event %+v unnamed in a journal that names every card", ev)
		}
	}
}
