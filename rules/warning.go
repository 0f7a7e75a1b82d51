package rules

import (
	"fmt"

	"github.com/tablecam/tablecam/models"
)

// The warning codes of the Sorcery ruleset. Codes are stable: overlays, cues and
// tests key on them. Each warning's message cites the rule in one sentence.
const (
	// SiteOccupied: a site was played on a cell that already holds a site (not Rubble).
	SiteOccupied models.WarningCode = "site.occupied"
	// SiteNotAdjacent: a site was played away from every site its player controls.
	SiteNotAdjacent models.WarningCode = "site.not_adjacent"
	// SiteNotNearestAvatar: a player without sites played one farther from their Avatar than needed.
	SiteNotNearestAvatar models.WarningCode = "site.not_nearest_avatar"
	// SiteAvatarTapped: a site was played while the player's Avatar was already tapped.
	SiteAvatarTapped models.WarningCode = "site.avatar_tapped"
	// ManaInsufficient: a cost or a mana spend exceeded the available mana.
	ManaInsufficient models.WarningCode = "mana.insufficient"
	// ThresholdUnmet: a spell was cast without the affinity its threshold needs.
	ThresholdUnmet models.WarningCode = "threshold.unmet"
	// UnitVoid: a minion without Voidwalk is in the void (it is banished), or an Avatar entered the void.
	UnitVoid models.WarningCode = "unit.void"
	// UnitSubsurface: a minion is under a site without Burrowing (land) or Submerge (water); it dies.
	UnitSubsurface models.WarningCode = "unit.subsurface"
	// UnitWaterbound: a Waterbound minion is at a land site, where it is disabled.
	UnitWaterbound models.WarningCode = "unit.waterbound"
	// UnitLandbound: a Landbound minion is at a water site, where it is disabled.
	UnitLandbound models.WarningCode = "unit.landbound"
	// UnitMoveRange: a unit moved farther than its steps allow (one, plus
	// Movement +N, diagonally when Airborne), or an Immobile unit moved.
	UnitMoveRange models.WarningCode = "unit.move_range"
	// UnitSummoningSick: a minion that entered the realm this turn (without
	// Charge) was tapped or moved in its controller's turn.
	UnitSummoningSick models.WarningCode = "unit.summoning_sick"
	// UntapOutOfTurn: a card untapped outside its controller's start phase.
	UntapOutOfTurn models.WarningCode = "untap.out_of_turn"
	// LifeGainAtDeathsDoor: a player at death's door gained life (it has no effect).
	LifeGainAtDeathsDoor models.WarningCode = "life.gain_at_deaths_door"
	// SummonNotOwnSite: a minion or artifact was cast to a site its player does not control.
	SummonNotOwnSite models.WarningCode = "summon.not_own_site"
	// TurnInactivePlayer: the inactive player played a site, cast a spell or spent mana.
	TurnInactivePlayer models.WarningCode = "turn.inactive_player"
	// TurnOutOfOrder: a turn started for the wrong player, or a turn ended that was not under way.
	TurnOutOfOrder models.WarningCode = "turn.out_of_order"
	// GameOver: something happened after the game ended with a death blow.
	GameOver models.WarningCode = "game.over"
)

// WarningCodes lists every code the Sorcery ruleset raises, in a stable order.
func WarningCodes() []models.WarningCode {
	return []models.WarningCode{SiteOccupied, SiteNotAdjacent, SiteNotNearestAvatar, SiteAvatarTapped,
		ManaInsufficient, ThresholdUnmet, UnitVoid, UnitSubsurface, UnitWaterbound, UnitLandbound, UnitSummoningSick, UnitMoveRange, UntapOutOfTurn,
		LifeGainAtDeathsDoor, SummonNotOwnSite, TurnInactivePlayer, TurnOutOfOrder, GameOver}
}

// warn builds a warning; format and args give the one-sentence message.
func warn(code models.WarningCode, p models.Player, cells []models.Cell, format string, args ...any) models.Warning {
	if cells == nil {
		cells = []models.Cell{}
	}
	return models.Warning{Code: code, Player: p, Cells: cells, Message: fmt.Sprintf(format, args...)}
}

// cellsOf is a short way to list cells.
func cellsOf(cs ...models.Cell) []models.Cell { return cs }
