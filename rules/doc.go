// Package rules holds the Sorcery: Contested Realm rules over a board state: mana, affinity and
// threshold, site placement, water and land, life, death's door and death blow, units, turns, casting
// and deck legality. It is pure Go and deterministic; other games' rulesets can be added behind the
// same interface.
package rules
