package vision

import (
	"sort"

	"github.com/tablecam/tablecam/models"
)

// kindOrder puts sites under the units on them.
var kindOrder = map[models.CardKind]int{models.KindSite: 0, models.KindStandard: 1, models.KindToken: 2}

// sortObservations orders cards by cell (A1, B1, …, E4, then off the grid),
// sites first within a cell, then left to right in the image.
func sortObservations(cards []models.CardObservation) {
	sort.SliceStable(cards, func(i, j int) bool {
		a, b := cards[i], cards[j]
		ai, bi := 1000, 1000
		if a.Cell != nil {
			ai = a.Cell.Index()
		}
		if b.Cell != nil {
			bi = b.Cell.Index()
		}
		if ai != bi {
			return ai < bi
		}
		if kindOrder[a.Kind] != kindOrder[b.Kind] {
			return kindOrder[a.Kind] < kindOrder[b.Kind]
		}
		return a.Quad.Center().X < b.Quad.Center().X
	})
}
