package rules

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

func TestHasKeyword(t *testing.T) {
	tests := []struct {
		card *models.Card
		k    models.Keyword
		want bool
	}{
		{&models.Card{Name: "a", Keywords: []models.Keyword{models.Voidwalk}}, models.Voidwalk, true},
		{&models.Card{Name: "b", RulesText: "Voidwalk\nAt the end of your turn, draw a spell."}, models.Voidwalk, true},
		{&models.Card{Name: "c", RulesText: "Submerge, Waterbound"}, models.Waterbound, true},
		{&models.Card{Name: "d", RulesText: "Bearer has Burrowing."}, models.Burrowing, false},
		{&models.Card{Name: "e", RulesText: "Voidwalk", Keywords: []models.Keyword{models.Airborne}}, models.Voidwalk, false},
		{&models.Card{Name: "f"}, models.Submerge, false},
	}
	for _, tc := range tests {
		if got := hasKeyword(tc.card, tc.k); got != tc.want {
			t.Errorf("%s %q has %s: %v, want %v", tc.card.Name, tc.card.RulesText, tc.k, got, tc.want)
		}
	}
}
