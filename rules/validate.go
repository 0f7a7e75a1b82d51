package rules

import (
	"github.com/tablecam/tablecam/models"
)

// validateShape checks that ev has the fields its type needs, before any
// lookup: players, cells, cards and amounts.
func validateShape(ev models.Event) error {
	needPlayer := func() error {
		if ev.Player != models.South && ev.Player != models.North {
			return fieldErr("player", nil, "missing: %s needs \"south\" or \"north\"", ev.Type)
		}
		return nil
	}
	needCell := func(field string, c *models.Cell) error {
		if c == nil {
			return fieldErr(field, nil, "missing: %s needs a realm cell (A1–E4)", ev.Type)
		}
		if !c.Valid() {
			return fieldErr(field, models.ErrBadCell, "%v is not a realm cell (A1–E4)", *c)
		}
		return nil
	}
	optCell := func(field string, c *models.Cell) error {
		if c != nil && !c.Valid() {
			return fieldErr(field, models.ErrBadCell, "%v is not a realm cell (A1–E4)", *c)
		}
		return nil
	}
	needCard := func() error {
		switch {
		case ev.Unnamed && ev.Card != "":
			return fieldErr("unnamed", nil, "an unnamed card has no name, but the event names %q", ev.Card)
		case ev.Card == "" && !ev.Unnamed:
			return fieldErr("card", nil, "missing: %s needs a card name (or \"unnamed\": true for a card the camera could not name)", ev.Type)
		}
		return nil
	}
	// card_named gives a name: it cannot be unnamed itself.
	needName := func() error {
		if ev.Card == "" || ev.Unnamed {
			return fieldErr("card", nil, "missing: %s needs the card's name", ev.Type)
		}
		return nil
	}
	// An amount of 0 is allowed and changes nothing (a 0-power strike deals 0
	// damage); a missing amount is caught by DecodeEvent, which sees the JSON.
	amountOK := func() error {
		if ev.Amount < 0 {
			return fieldErr("amount", nil, "%d is negative", ev.Amount)
		}
		return nil
	}
	optPlayer := func() error {
		if ev.Player != models.NoPlayer && ev.Player != models.South && ev.Player != models.North {
			return fieldErr("player", nil, "want \"south\" or \"north\"")
		}
		return nil
	}
	all := func(checks ...func() error) error {
		for _, c := range checks {
			if err := c(); err != nil {
				return err
			}
		}
		return nil
	}
	cell := func(field string, c *models.Cell) func() error { return func() error { return needCell(field, c) } }
	opt := func(field string, c *models.Cell) func() error { return func() error { return optCell(field, c) } }

	switch ev.Type {
	case models.GameStart:
		for _, s := range []struct {
			name string
			seat *models.Seat
		}{{"south", ev.South}, {"north", ev.North}} {
			if !s.seat.Seated() {
				return fieldErr(s.name+".avatar", nil, "missing: game_start names each player's Avatar (or says \"unnamed\": true)")
			}
			if s.seat.Unnamed && s.seat.Avatar != "" {
				return fieldErr(s.name+".unnamed", nil, "an unnamed Avatar has no name, but the seat names %q", s.seat.Avatar)
			}
			if err := optCell(s.name+".cell", s.seat.Cell); err != nil {
				return err
			}
			if s.seat.Life != nil && *s.seat.Life < 0 {
				return fieldErr(s.name+".life", nil, "%d is negative: life is at least 0", *s.seat.Life)
			}
		}
		if ev.First != models.NoPlayer && ev.First != models.South && ev.First != models.North {
			return fieldErr("first", nil, "want \"south\" or \"north\"")
		}
		return nil
	case models.TurnStart, models.TurnEnd:
		return needPlayer()
	case models.SitePlayed:
		return all(needPlayer, cell("cell", ev.Cell), needCard)
	case models.UnitSummoned:
		return all(needPlayer, cell("cell", ev.Cell), needCard, amountOK)
	case models.SpellCast:
		return all(needPlayer, needCard, opt("cell", ev.Cell), amountOK)
	case models.CardTapped, models.CardUntapped, models.CardRemoved, models.UnitUnder, models.UnitSurfaced:
		return all(optPlayer, cell("cell", ev.Cell), needCard)
	case models.UnitMoved:
		return all(optPlayer, needCard, cell("from", ev.From), cell("to", ev.To))
	case models.SiteDestroyed:
		return all(optPlayer, cell("cell", ev.Cell))
	case models.CardNamed:
		return all(optPlayer, cell("cell", ev.Cell), needName)
	case models.Damage, models.LifeLoss, models.LifeGain, models.ManaSpent:
		return all(needPlayer, amountOK)
	}
	if ev.Type == "" {
		return fieldErr("type", nil, "missing event type")
	}
	return fieldErr("type", nil, "unknown event type %q", ev.Type)
}
