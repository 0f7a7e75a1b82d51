package synth_test

import (
	"fmt"
	"os"

	"github.com/tablecam/tablecam/synth"
)

func ExampleRenderCatalog() {
	dir, err := os.MkdirTemp("", "catalog")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	cat, err := synth.RenderCatalog(dir, 1, synth.CatalogOptions{})
	if err != nil {
		panic(err)
	}
	card, _ := cat.Lookup("Quarry of Kings")
	fmt.Println(cat.Len(), "cards;", card.Type, card.Thresholds.Earth, "earth")
	// Output: 41 cards; Site 2 earth
}
