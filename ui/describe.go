package ui

import (
	"fmt"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// Describe writes an event as a short sentence for the recent-events list,
// such as "South played Arid Desert at C1".
func Describe(ev models.Event) string {
	who := capitalize(ev.Player.String())
	if ev.Player == models.NoPlayer {
		who = "Someone"
	}
	// card names the card as an object, subject as the subject of a sentence.
	card := ev.Card
	subject := card
	switch {
	case card == "" && ev.Unnamed && ev.Type == models.SitePlayed:
		card = "an unnamed site"
	case card == "" && ev.Unnamed && ev.Player != models.NoPlayer:
		card, subject = "an unnamed card", who+"'s unnamed card"
	case card == "" && ev.Unnamed:
		card, subject = "an unnamed card", "An unnamed card"
	case card == "":
		card, subject = "a card", "A card"
	}
	at := ""
	if ev.Cell != nil {
		at = " at " + ev.Cell.String()
	}
	switch ev.Type {
	case models.GameStart:
		return "Game started"
	case models.TurnStart:
		return who + "'s turn begins"
	case models.TurnEnd:
		return who + " ended the turn"
	case models.SitePlayed:
		return fmt.Sprintf("%s played %s%s", who, card, at)
	case models.UnitSummoned:
		return fmt.Sprintf("%s summoned %s%s", who, card, at)
	case models.SpellCast:
		return fmt.Sprintf("%s cast %s%s", who, card, at)
	case models.CardTapped:
		return fmt.Sprintf("%s tapped%s", subject, at)
	case models.CardUntapped:
		return fmt.Sprintf("%s untapped%s", subject, at)
	case models.UnitMoved:
		from, to := "?", "?"
		if ev.From != nil {
			from = ev.From.String()
		}
		if ev.To != nil {
			to = ev.To.String()
		}
		return fmt.Sprintf("%s moved %s → %s", subject, from, to)
	case models.CardRemoved:
		return fmt.Sprintf("%s left%s", subject, at)
	case models.SiteDestroyed:
		return fmt.Sprintf("%s destroyed%s", subject, at)
	case models.Damage:
		return fmt.Sprintf("%s took %d damage", who, ev.Amount)
	case models.LifeLoss:
		return fmt.Sprintf("%s lost %d life", who, ev.Amount)
	case models.LifeGain:
		return fmt.Sprintf("%s gained %d life", who, ev.Amount)
	case models.ManaSpent:
		return fmt.Sprintf("%s spent %d mana", who, ev.Amount)
	case models.CardNamed:
		return fmt.Sprintf("The unnamed card%s is %s", at, card)
	}
	return strings.TrimSpace(fmt.Sprintf("%s %s %s%s", who, ev.Type, ev.Card, at))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
