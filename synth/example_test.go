package synth_test

import (
	"fmt"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

func ExampleSampleCards() {
	for _, c := range synth.SampleCards()[:3] {
		w, h := synth.FaceSizeMM(c)
		fmt.Printf("%s (%s): %v×%v mm, slug %s\n", c.Name, c.Type, w, h, c.Slug)
	}
	// Output:
	// Emberfall Ridge (Site): 88×63 mm, slug emberfall_ridge
	// Cinder Hollow (Site): 88×63 mm, slug cinder_hollow
	// Stormveil Peak (Site): 88×63 mm, slug stormveil_peak
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
