package tracker

import (
	"reflect"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// seenAt is a card vision read in a cell; an empty name is a card seen but
// not identified.
func seenAt(cell, name, typ string, owner models.Player, tapped bool) models.CardObservation {
	o := models.CardObservation{Cell: cellp(cell), Kind: models.KindStandard, Owner: owner, Tapped: tapped,
		Rotation: models.RotationFor(owner, tapped), Confidence: 0.2}
	if typ == string(models.Site) {
		o.Kind = models.KindSite
	}
	if name != "" {
		o.Name, o.Type, o.Confidence = models.StrPtr(name), models.StrPtr(typ), 0.9
	}
	return o
}

// flickerCase is a table played for 300 frames at 30 fps: the Avatars and
// the cards cards gives for each frame, with a hand over the realm (the
// frame occluded) on the frames hand says.
type flickerCase struct {
	name  string
	cards func(f int) []models.CardObservation
	hand  func(f int) bool
	// sights gives what the frame shows of cards the tracker holds
	// (ObserveWith); nil for none.
	sights func(f int) []HiddenSight
	want   []string // events after the first board
}

func handAt(from, to int) func(int) bool {
	return func(f int) bool { return f >= from && f < to }
}

func checkFlicker(t *testing.T, tests []flickerCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := New(Config{})
			var evs []models.Event
			for f := 0; f < 300; f++ {
				o := avatarsAnd(f, tc.cards(f)...)
				if tc.hand != nil && tc.hand(f) {
					o.Occluded, o.Cards = true, nil
				}
				var sights []HiddenSight
				if tc.sights != nil && !o.Occluded {
					sights = tc.sights(f)
				}
				evs = append(evs, tr.ObserveWith(o, sights)...)
			}
			evs = append(evs, tr.Flush()...)
			first := *evs[0].Frame
			var got []string
			for _, ev := range evs {
				if *ev.Frame > first {
					got = append(got, brief(ev))
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("events after the first board\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// sightsOf gives, from frame from on, a sight of each card (by cell and
// name) that says whether its place still looks as it did.
func sightsOf(from int, gone bool, cards ...models.CardObservation) func(int) []HiddenSight {
	return func(f int) []HiddenSight {
		if f < from {
			return nil
		}
		var out []HiddenSight
		for _, c := range cards {
			out = append(out, HiddenSight{HiddenCard: HiddenCard{Cell: *c.Cell, Card: *c.Name, Owner: c.Owner}, Gone: gone})
		}
		return out
	}
}

// A card vision loses for a moment (most often just after a hand has
// passed) while its place still looks as it did never left: no event. One
// whose place no longer looks so is removed, as is one no sight speaks for.
func TestLostButStillThere(t *testing.T) {
	sprite := func(tapped bool) models.CardObservation { return seenAt("C2", "Gale Sprite", "Minion", S, tapped) }
	whelp := seenAt("C2", "Ember Whelp", "Minion", S, false)
	river := seenAt("C2", "Spring River", "Site", S, false)
	away := func(from, to int, keep []models.CardObservation, c ...models.CardObservation) func(int) []models.CardObservation {
		return func(f int) []models.CardObservation {
			if f >= from && f < to {
				return keep
			}
			return append(append([]models.CardObservation(nil), keep...), c...)
		}
	}
	unsure := seenAt("C2", "", "", S, false)
	tests := []flickerCase{
		{
			name:   "a unit lost for 0.7 s after a hand pass, its place unchanged",
			cards:  away(100, 121, nil, sprite(false)),
			hand:   handAt(85, 100),
			sights: sightsOf(100, false, sprite(false)),
			want:   nil,
		},
		{
			name:   "a unit lost for 0.7 s, its place changed",
			cards:  away(100, 121, nil, sprite(false)),
			hand:   handAt(85, 100),
			sights: sightsOf(100, true, sprite(false)),
			want:   []string{"card_removed south Gale Sprite C2", "turn_start south", "unit_summoned south Gale Sprite C2"},
		},
		{
			name:   "a unit taken away",
			cards:  away(100, 300, nil, sprite(false)),
			hand:   handAt(85, 100),
			sights: sightsOf(100, true, sprite(false)),
			want:   []string{"card_removed south Gale Sprite C2"},
		},
		{
			name:   "one of two units lost, its place unchanged",
			cards:  away(100, 121, []models.CardObservation{whelp}, sprite(false)),
			hand:   handAt(85, 100),
			sights: sightsOf(100, false, sprite(false)),
			want:   nil,
		},
		{
			name:   "a unit read unidentified is not kept twice",
			cards:  away(100, 200, []models.CardObservation{unsure}, sprite(false)),
			hand:   handAt(85, 100),
			sights: sightsOf(100, false, sprite(false)),
			want:   nil,
		},
		{
			name: "a unit lost as another comes into its cell is under it, whatever shows of it",
			cards: func(f int) []models.CardObservation {
				if f < 100 {
					return []models.CardObservation{sprite(false)}
				}
				return []models.CardObservation{seenAt("C2", "Bog Frog", "Minion", N, false)}
			},
			hand: handAt(85, 100),
			// Its edges show for a while, then nothing of it does.
			sights: func(f int) []HiddenSight {
				if f >= 150 {
					return nil
				}
				return sightsOf(100, false, sprite(false))(f)
			},
			want: []string{"turn_start north", "unit_summoned north Bog Frog C2"},
		},
		{
			name:   "a site lost for 0.7 s, its place unchanged",
			cards:  away(100, 121, nil, river),
			hand:   handAt(85, 100),
			sights: sightsOf(100, false, river),
			want:   nil,
		},
		{
			name:   "a site taken away",
			cards:  away(100, 300, nil, river),
			hand:   handAt(85, 100),
			sights: sightsOf(100, true, river),
			want:   []string{"site_destroyed south C2"},
		},
	}
	checkFlicker(t, tests)
}

// A card that left its cell while another cell seemed to be getting it
// waits to be paired into a move; back in its own cell before then, it
// never left: no event, or only its turn if it came back turned.
func TestBackInItsCellWhileAMoveWaits(t *testing.T) {
	sprite := func(cell string, tapped bool) models.CardObservation {
		return seenAt(cell, "Gale Sprite", "Minion", S, tapped)
	}
	misplaced := func(tappedAfter bool) func(int) []models.CardObservation {
		return func(f int) []models.CardObservation {
			switch {
			case f < 100:
				return []models.CardObservation{sprite("C2", false)}
			case f < 121:
				// Read now and then in the next cell, never in its own.
				if f%2 == 0 {
					return []models.CardObservation{sprite("C3", false)}
				}
				return nil
			}
			return []models.CardObservation{sprite("C2", tappedAfter)}
		}
	}
	tests := []flickerCase{
		{name: "back as it was", cards: misplaced(false), hand: handAt(85, 100), want: nil},
		{name: "back turned", cards: misplaced(true), hand: handAt(85, 100),
			want: []string{"turn_start south", "card_tapped south Gale Sprite C2"}},
	}
	checkFlicker(t, tests)
}

// A unit that leaves its cell and settles next door as a card vision cannot
// name (read with too little confidence, as a card put down often is) is
// that unit moved: it keeps its name, and is not removed and summoned
// unnamed. Further away, or of the other player, the unknown card is a new
// one.
func TestMovedAndReadBadly(t *testing.T) {
	sprite := seenAt("C2", "Gale Sprite", "Minion", S, false)
	settles := func(cell string, owner models.Player) func(int) []models.CardObservation {
		return func(f int) []models.CardObservation {
			if f < 100 {
				return []models.CardObservation{sprite}
			}
			return []models.CardObservation{seenAt(cell, "", "", owner, false)}
		}
	}
	tests := []flickerCase{
		{name: "next door", cards: settles("C3", S), hand: handAt(85, 100),
			want: []string{"turn_start south", "unit_moved south Gale Sprite C2→C3"}},
		{name: "two cells away", cards: settles("A2", S), hand: handAt(85, 100),
			want: []string{"card_removed south Gale Sprite C2", "turn_start south", "unit_summoned south ? A2"}},
		{name: "the other player's", cards: settles("C3", N), hand: handAt(85, 100),
			want: []string{"card_removed south Gale Sprite C2", "turn_start north", "unit_summoned north ? C3"}},
	}
	checkFlicker(t, tests)
}

// A card vision cannot name is taken in play only once it has stayed for
// UnnamedHold, also when another change is accepted meanwhile: a card
// seen for a moment that no face matches (a misread, a card being put
// down) does not join that change at half the wait.
func TestUnnamedDoesNotJoinEarly(t *testing.T) {
	frog := seenAt("C2", "Bog Frog", "Minion", S, false)
	phantom := seenAt("C3", "", "", S, false)
	tests := []flickerCase{
		{
			name: "an unknown card seen for 0.67 s as a named one comes",
			cards: func(f int) []models.CardObservation {
				var out []models.CardObservation
				if f >= 100 && f < 120 {
					out = append(out, phantom)
				}
				if f >= 108 {
					out = append(out, frog)
				}
				return out
			},
			hand: handAt(85, 100),
			want: []string{"turn_start south", "unit_summoned south Bog Frog C2"},
		},
	}
	checkFlicker(t, tests)
}

// A card put on a unit often leaves a strip of it showing that vision
// outlines as a token it cannot name, upright whatever way the unit is
// turned: that strip is the unit (read before as a standard card), not the
// unit turned nor a new token, and the card put on it is summoned within
// the window. A token-sized card of the other player, or where the unit is
// read by its name, is a new card (the unit, then no longer seen, is under
// the card put on it, and untaps, unseen, as its owner's turn starts).
func TestStripOfUnitIsNoToken(t *testing.T) {
	sprite := seenAt("C2", "Gale Sprite", "Minion", S, true)
	reef := seenAt("C2", "Reefstalker", "Minion", S, false)
	strip := func(owner models.Player) models.CardObservation {
		o := seenAt("C2", "", "", owner, false)
		o.Kind, o.Token = models.KindToken, true
		return o
	}
	put := func(cards ...models.CardObservation) func(int) []models.CardObservation {
		return func(f int) []models.CardObservation {
			if f < 100 {
				return []models.CardObservation{sprite}
			}
			return cards
		}
	}
	tests := []flickerCase{
		{name: "a strip of the unit", cards: put(reef, strip(S)), hand: handAt(85, 100),
			want: []string{"turn_start south", "unit_summoned south Reefstalker C2"}},
		{name: "the unit read too", cards: put(reef, sprite, strip(S)), hand: handAt(85, 100),
			want: []string{"turn_start south", "unit_summoned south Reefstalker C2", "unit_summoned south ? C2"}},
		{name: "the other player's token", cards: put(reef, strip(N)), hand: handAt(85, 100),
			want: []string{"turn_start south", "card_untapped south Gale Sprite C2", "unit_summoned south Reefstalker C2", "unit_summoned north ? C2"}},
	}
	checkFlicker(t, tests)
}

// A sight of a card vision does not read may tell how the card lies now
// (tapped or untapped while a hand passed, under a card put on it): the
// card turned. A card whose sight says it left is not one that an unknown
// card read in its cell may be: that is another card of the cell, and the
// one that left is free to have moved.
func TestSightsTellTurnsAndLeaving(t *testing.T) {
	sprite := seenAt("C2", "Gale Sprite", "Minion", S, false)
	reef := seenAt("C2", "Reefstalker", "Minion", S, false)
	shows := func(c models.CardObservation, tapped bool) HiddenSight {
		return HiddenSight{HiddenCard: HiddenCard{Cell: *c.Cell, Card: *c.Name, Owner: c.Owner}, Shows: true, Tapped: tapped}
	}
	after := func(cards ...models.CardObservation) func(int) []models.CardObservation {
		return func(f int) []models.CardObservation {
			if f < 100 {
				return []models.CardObservation{sprite, reef}
			}
			return cards
		}
	}
	sightsFrom := func(s ...HiddenSight) func(int) []HiddenSight {
		return func(f int) []HiddenSight {
			if f < 100 {
				return nil
			}
			return s
		}
	}
	gone := HiddenSight{HiddenCard: HiddenCard{Cell: *sprite.Cell, Card: "Gale Sprite", Owner: S}, Gone: true}
	tests := []flickerCase{
		{name: "tapped unread", cards: after(reef), hand: handAt(85, 100),
			sights: sightsFrom(shows(sprite, true)),
			want:   []string{"turn_start south", "card_tapped south Gale Sprite C2"}},
		{name: "left, read elsewhere", cards: after(seenAt("C2", "", "", S, false), seenAt("C3", "Gale Sprite", "Minion", S, true)),
			hand: handAt(85, 100), sights: sightsFrom(gone, shows(reef, false)),
			want: []string{"turn_start south", "card_tapped south Gale Sprite C2", "unit_moved south Gale Sprite C2→C3"}},
	}
	checkFlicker(t, tests)
}

// A card hidden under another whose sights say it left from under it, while
// it is being read in another cell (a frame or two later than its sights
// say so), moved there: it is not removed and summoned again.
func TestHiddenCardLeavesToAnotherCell(t *testing.T) {
	goblin := func(cell string) models.CardObservation { return seenAt(cell, "Pit Goblin", "Minion", S, false) }
	frog := seenAt("C2", "Bog Frog", "Minion", N, false)
	hidden := HiddenCard{Cell: models.MustCell("C2"), Card: "Pit Goblin", Owner: S}
	tests := []flickerCase{
		{
			name: "read in B2 a little after its sights say it left",
			cards: func(f int) []models.CardObservation {
				switch {
				case f < 70:
					return []models.CardObservation{goblin("C2")}
				case f < 172:
					return []models.CardObservation{frog}
				}
				return []models.CardObservation{frog, goblin("B2")}
			},
			hand: func(f int) bool { return f >= 60 && f < 70 || f >= 150 && f < 165 },
			sights: func(f int) []HiddenSight {
				if f >= 70 {
					return []HiddenSight{{HiddenCard: hidden, Gone: f >= 165}}
				}
				return nil
			},
			want: []string{"turn_start north", "unit_summoned north Bog Frog C2", "unit_moved south Pit Goblin C2→B2"},
		},
	}
	checkFlicker(t, tests)
}

// A card the tracker holds hidden that vision reads again does not stand
// for a card in sight that vision lost on the frame: the lost one, whose
// sight says it is still there, is kept (it used to be removed: its owner
// had as many cards read in the cell as the cell holds in sight).
func TestHiddenCardReadAgainIsNoReadOfAnother(t *testing.T) {
	goblin := func(tapped bool) models.CardObservation { return seenAt("C2", "Pit Goblin", "Minion", N, tapped) }
	frog := seenAt("C2", "Bog Frog", "Minion", N, false)
	tests := []flickerCase{
		{
			name: "the hidden Goblin read tapped, the Frog lost but still there",
			cards: func(f int) []models.CardObservation {
				switch {
				case f < 70:
					return []models.CardObservation{goblin(false)}
				case f < 165:
					return []models.CardObservation{frog}
				}
				return []models.CardObservation{goblin(true)}
			},
			hand: func(f int) bool { return f >= 60 && f < 70 || f >= 150 && f < 165 },
			sights: func(f int) []HiddenSight {
				if f >= 165 {
					return []HiddenSight{{HiddenCard: HiddenCard{Cell: *frog.Cell, Card: "Bog Frog", Owner: N}, Shows: true}}
				}
				return nil
			},
			want: []string{"turn_start north", "unit_summoned north Bog Frog C2", "card_tapped north Pit Goblin C2"},
		},
	}
	checkFlicker(t, tests)
}
