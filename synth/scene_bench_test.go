package synth

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

// BenchmarkRenderScene renders realistic 1280×720 scenes with one Renderer
// (faces and mats cached), the way WriteStills does.
func BenchmarkRenderScene(b *testing.B) {
	cat, err := models.LoadCatalog("../samples/catalog")
	if err != nil {
		b.Skip(err)
	}
	r, err := NewRenderer(cat)
	if err != nil {
		b.Fatal(err)
	}
	// Warm the caches so that the figure is the steady state.
	for i := 0; i < 12; i++ {
		if _, err := r.Scene(int64(i), SceneOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Scene(int64(i), SceneOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
