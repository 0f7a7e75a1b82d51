package models

// Event types the rules engine reads beyond the core vocabulary of EventTypes:
// a card slid under its site (burrowed or submerged, as the site decides) and
// brought back atop it. A camera sees them as a card partly hidden by a site.
const (
	// UnitUnder: the unit named by Card at Cell goes under the site there.
	UnitUnder EventType = "unit_under"
	// UnitSurfaced: the unit named by Card at Cell comes back atop its site.
	UnitSurfaced EventType = "unit_surfaced"
)

// RulesEventTypes lists every event type the rules engine accepts: EventTypes
// plus UnitUnder and UnitSurfaced.
func RulesEventTypes() []EventType {
	return append(append([]EventType(nil), EventTypes...), UnitUnder, UnitSurfaced)
}
