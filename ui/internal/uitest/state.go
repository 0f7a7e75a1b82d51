package uitest

import (
	"github.com/tablecam/tablecam/models"
)

func cells(names ...string) []models.Cell {
	out := make([]models.Cell, len(names))
	for i, n := range names {
		out[i] = models.MustCell(n)
	}
	return out
}

// Midgame is turn 5 with South to play: sites and units on both sides, one
// tapped unit, and a warning on D3.
func Midgame() models.GameState {
	site := func(card string, p models.Player) *models.SiteState {
		return &models.SiteState{Card: card, Controller: p}
	}
	return models.GameState{
		Event: 31, Active: models.South, Turn: 5,
		Players: map[string]models.PlayerState{
			"south": {Life: 14, Mana: models.ManaState{Available: 2, Total: 4},
				Affinity: models.Thresholds{Fire: 2, Earth: 1},
				Sites:    cells("B1", "C1", "D1", "C2"), Avatar: "Ember Warden"},
			"north": {Life: 7, Mana: models.ManaState{Available: 0, Total: 3},
				Affinity: models.Thresholds{Water: 2, Air: 1},
				Sites:    cells("B4", "C4", "C3"), Avatar: "Tide Seer"},
		},
		Realm: models.RealmState{
			Cells: map[string]models.CellState{
				"B1": {Site: site("Ashen Steppe", models.South)},
				"C1": {Site: site("Cinder Vale", models.South), Units: []models.UnitState{{Card: "Ember Warden", Owner: models.South}}},
				"D1": {Site: site("Ironroot Hollow", models.South)},
				"C2": {Site: site("Scorched Ford", models.South), Units: []models.UnitState{{Card: "Kiln Hound", Owner: models.South, Tapped: true}}},
				"B4": {Site: site("Mistral Spire", models.North)},
				"C4": {Site: site("Glass Lagoon", models.North), Units: []models.UnitState{{Card: "Tide Seer", Owner: models.North}}},
				"C3": {Site: site("Pearl Shallows", models.North), Units: []models.UnitState{{Card: "Reef Stalker", Owner: models.North}, {Card: "Gull Sentry", Owner: models.North, Tapped: true}}},
				"D3": {Units: []models.UnitState{{Card: "Brine Wisp", Owner: models.North}}},
			},
			BodiesOfWater: [][]models.Cell{cells("C3", "C4")},
			SpansOfLand:   [][]models.Cell{cells("B1", "C1", "D1", "C2"), cells("B4")},
		},
		Warnings: []models.Warning{{
			Code: "unit.not_on_site", Player: models.North, Cells: cells("D3"),
			Message: "Brine Wisp stands on D3, where there is no site: minions must occupy a site",
		}},
	}
}

// DeathsDoor is Midgame with North at death's door.
func DeathsDoor() models.GameState {
	st := Midgame()
	st.Players = map[string]models.PlayerState{"south": st.Players["south"], "north": st.Players["north"]}
	n := st.Players["north"]
	n.Life, n.DeathsDoor = 0, true
	st.Players["north"] = n
	return st
}

// DeathBlow is Midgame after North took the death blow.
func DeathBlow() models.GameState {
	st := DeathsDoor()
	n := st.Players["north"]
	n.Defeated = true
	st.Players["north"] = n
	st.Winner = models.South
	return st
}

// Recent gives the events that led to Midgame's last moments.
func Recent() []models.Event {
	c := func(s string) *models.Cell { return models.CellPtr(models.MustCell(s)) }
	return []models.Event{
		{Type: models.TurnStart, Player: models.North},
		{Type: models.SitePlayed, Player: models.North, Card: "Pearl Shallows", Cell: c("C3")},
		{Type: models.UnitSummoned, Player: models.North, Card: "Brine Wisp", Cell: c("D3")},
		{Type: models.Damage, Player: models.North, Amount: 3},
		{Type: models.TurnEnd, Player: models.North},
		{Type: models.TurnStart, Player: models.South},
		{Type: models.SitePlayed, Player: models.South, Card: "Scorched Ford", Cell: c("C2")},
		{Type: models.UnitSummoned, Player: models.South, Card: "Kiln Hound", Cell: c("C2")},
	}
}
