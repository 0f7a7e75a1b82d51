package synth_test

import (
	"fmt"
	"os"

	"github.com/tablecam/tablecam/models"
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

func ExampleRenderScene() {
	cat, err := models.LoadCatalog("../samples/catalog")
	if err != nil {
		panic(err)
	}
	scene, err := synth.RenderScene(cat, 7, synth.SceneOptions{})
	if err != nil {
		panic(err)
	}
	t := scene.Truth
	fmt.Println(scene.Image.Bounds().Dx(), "×", scene.Image.Bounds().Dy())
	for _, c := range t.Cards[:2] {
		fmt.Println(c.Cell, c.Name, c.Owner, c.Rotation)
	}
	// Output:
	// 1280 × 720
	// C2 Stormveil Peak south 0
	// B4 Mossgrave Hollow south 0
}
