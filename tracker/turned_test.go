package tracker

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

// placed gives c an outline centred on (x, y) in image pixels: a standard
// card 63 × 88 pixels, upright or, tapped, on its side.
func placed(c models.CardObservation, x, y float64) models.CardObservation {
	w, h := 63.0/2, 88.0/2
	if c.Tapped {
		w, h = h, w
	}
	c.Quad = models.Quad{{X: x - w, Y: y - h}, {X: x + w, Y: y - h}, {X: x + w, Y: y + h}, {X: x - w, Y: y + h}}
	return c
}

// A unit vision names tapped but not once it is untapped (for less than
// UnnamedHold, before a hand taps it again) untapped and tapped again: the
// unnamed card in its place, turned, is that unit. An unnamed card
// elsewhere in the cell is another card, and as briefly seen, none.
func TestUnnamedTurnedInPlace(t *testing.T) {
	sprite := func(cell string, tapped bool) models.CardObservation {
		return placed(seenAt(cell, "Gale Sprite", "Minion", S, tapped), 300, 200)
	}
	unknown := func(cell string, x float64) models.CardObservation {
		return placed(seenAt(cell, "", "", S, false), x, 200)
	}
	// frames: the sprite tapped, a hand (100-115), the cards given, a
	// hand (135-150), the sprite tapped again.
	then := func(cards ...models.CardObservation) func(int) []models.CardObservation {
		return func(f int) []models.CardObservation {
			if f < 115 || f >= 150 {
				return []models.CardObservation{sprite("C2", true)}
			}
			return cards
		}
	}
	// or the cards given for good.
	after := func(cards ...models.CardObservation) func(int) []models.CardObservation {
		return func(f int) []models.CardObservation {
			if f < 115 {
				return []models.CardObservation{sprite("C2", true)}
			}
			return cards
		}
	}
	hands := func(f int) bool { return f >= 100 && f < 115 || f >= 135 && f < 150 }
	tests := []flickerCase{
		{name: "untapped unnamed, tapped again", cards: then(unknown("C2", 300)), hand: hands,
			want: []string{"turn_start south", "card_untapped south Gale Sprite C2", "card_tapped south Gale Sprite C2"}},
		{name: "untapped unnamed for good", cards: after(unknown("C2", 300)), hand: handAt(100, 115),
			want: []string{"turn_start south", "card_untapped south Gale Sprite C2"}},
		{name: "an unnamed card elsewhere in the cell, briefly", cards: then(unknown("C2", 380)), hand: hands},
	}
	checkFlicker(t, tests)
}

// A card vision finds long after the hand that put it down left (put down
// in its owner's turn, found in the other player's) is summoned, but says
// nothing of whose turn it is: no turn passes, and the start phase untaps
// nothing. A card that shows as a hand leaves is an act of its owner's turn.
func TestCardFoundLateTurnsNoTurn(t *testing.T) {
	sprite := func(tapped bool) models.CardObservation { return seenAt("C2", "Gale Sprite", "Minion", S, tapped) }
	frog := func(tapped bool) models.CardObservation { return seenAt("D3", "Bog Frog", "Minion", N, tapped) }
	token := seenAt("C3", "Foot Soldier", "Minion", N, false)
	token.Kind, token.Token = models.KindToken, true
	// South taps the sprite (40-55), north the frog (100-115), south
	// untaps the sprite (160-175); north's token shows from frame found.
	cards := func(found int) func(int) []models.CardObservation {
		return func(f int) []models.CardObservation {
			out := []models.CardObservation{sprite(f >= 55 && f < 175), frog(f >= 115)}
			if f >= found {
				out = append(out, token)
			}
			return out
		}
	}
	hands := func(f int) bool { return f >= 40 && f < 55 || f >= 100 && f < 115 || f >= 160 && f < 175 }
	turns := []string{"turn_start south", "card_tapped south Gale Sprite C2",
		"turn_end south", "turn_start north", "card_tapped north Bog Frog D3",
		"turn_end north", "turn_start south", "card_untapped south Gale Sprite C2"}
	tests := []flickerCase{
		{name: "found late", cards: cards(270), hand: hands,
			want: append(turns, "unit_summoned north Foot Soldier C3")},
		{name: "put down by a hand", cards: cards(235), hand: func(f int) bool { return hands(f) || f >= 220 && f < 235 },
			want: append(append([]string(nil), turns...), "turn_end south", "turn_start north", "unit_summoned north Foot Soldier C3")},
	}
	checkFlicker(t, tests)
}
