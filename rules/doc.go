// Package rules holds the Sorcery: Contested Realm rules over a board state: mana, affinity and
// threshold, site placement, water and land, life, death's door and death blow, units, turns, casting
// and deck legality. It is pure Go and deterministic; other games' rulesets can be added behind the
// same interface (Ruleset).
//
// A Game takes the events of a game (models.Event: game_start, turn_start, site_played,
// unit_summoned, card_tapped, damage…) through Apply, which returns the warnings each event raises
// (models.Warning with a stable code such as "site.not_adjacent", the player, the cells and one
// sentence citing the rule) and keeps the history. State derives the game state (models.GameState,
// the JSON of "tablecam rules --json"), with the warnings of the last event and those that stand on
// the board for as long as it stays wrong (Standing: a minion left in the void or under a site it
// may not be under, a Waterbound or Landbound minion where it is disabled). An event that breaks a rule still happens, because the card
// is on the table; only malformed events (unknown card, bad cell, negative amount, a card that is not
// where the event says) are errors, wrapping ErrInvalidEvent and naming the field.
//
// Units follow their keywords as the card list prints them (keywords.go): Charge lifts summoning
// sickness, Movement +N and Airborne set how far a unit steps (unit.move_range), Voidwalk, Burrowing
// and Submerge let a minion exist in the void or the subsurface, Waterbound and Landbound disable it
// off its element. Automatons are minions; Automatons and Monuments cannot be carried. Besides a
// site's threshold symbols, cards whose text plainly says so provide mana or threshold ("Provides
// (F)", "Provides no mana", "Only provides mana and threshold while in your back row", "(A) — Provides
// (2) instead", "unless completely empty", "if not adjacent to the void", "for everyone", an Avatar's "You
// have an additional (E)(F)(W)(A)", a site's "Genesis → Provides (A)(E)(F) this turn", a card that
// changes its site: "This site provides an additional (1)", "This site doesn't provide threshold",
// Black Obelisk, Finwife's "for each nearby enemy Avatar"; provides.go). A flooded site is a water site
// (Tide Naiads, Mismanaged Mortuary; water.go); Postern Gate enters under the opponent's control; a
// minion may enter the void from Planar Gate. Texts that let a minion be cast to a site its player does
// not control, or lower its cost or threshold (Castle Haunt, Donnybrook Inn, Hamlet, Black Knight…), and
// texts that change a unit's steps (Felbog Frog Men, Updraft Ridge, Astral Alcazar, Polar Bears) are
// followed (casting.go, units.go). An Avatar whose text plays sites by another rule
// places them by it: "play the topmost site of your atlas to an adjacent location" (Pathfinder),
// "Replace an adjacent Rubble with the topmost site of your atlas" (Geomancer; placement.go).
//
// A card the camera could not name (an event with "unnamed": true and no card; a seat with
// "unnamed": true) plays by what needs no card text: an unnamed site fills its cell, obeys placement
// and provides one mana but no threshold, and is neither water nor land; an unnamed unit is
// checked for nothing its type or keywords decide; a player holding unnamed cards is not warned
// of a threshold they may provide. card_named names it from then on (unnamed.go).
//
// ParseEvents and EventReader read events from JSON Lines with errors naming the line and field;
// ParseDeck and CheckDeck check decklists. One file per rule family: placement.go, mana.go,
// provides.go, casting.go, units.go, life.go, turns.go, water.go, deck.go.
package rules
