package ui

import (
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/ui/audio"
)

// CuesFor picks the sounds an update calls for, given the state before it:
// a site played, a unit summoned, a turn started, a new warning, a player
// reaching death's door, a death blow. Each cue appears at most once.
func CuesFor(prev models.GameState, u models.Update) []audio.Cue {
	var out []audio.Cue
	add := func(c audio.Cue) {
		for _, x := range out {
			if x == c {
				return
			}
		}
		out = append(out, c)
	}
	for _, pl := range models.Players {
		was, now := prev.Players[pl.String()], u.State.Players[pl.String()]
		wasDead := was.Defeated || prev.Winner == pl.Opponent()
		isDead := now.Defeated || u.State.Winner == pl.Opponent()
		if isDead && !wasDead {
			add(audio.DeathBlow)
		} else if now.DeathsDoor && !was.DeathsDoor && !isDead {
			add(audio.DeathsDoor)
		}
	}
	for _, ev := range u.Events {
		switch ev.Type {
		case models.SitePlayed:
			add(audio.SitePlayed)
		case models.UnitSummoned:
			add(audio.UnitSummoned)
		case models.TurnStart:
			add(audio.TurnStart)
		}
	}
	if len(u.Warnings) > 0 {
		add(audio.Warning)
	}
	return out
}
