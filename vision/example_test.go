package vision_test

import (
	"fmt"
	"path/filepath"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/vision"
)

// An Analyzer indexes a catalog's reference faces once (and caches the index
// on disk); Analyze then reads frames against it.
func ExampleNewAnalyzer() {
	cat, err := models.LoadCatalog(filepath.Join("..", "samples", "catalog"))
	if err != nil {
		fmt.Println(err)
		return
	}
	a, err := vision.NewAnalyzer(cat, vision.Options{NoCache: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer a.Close()
	fmt.Println(a.Faces(), "reference faces indexed")
	// Output: 41 reference faces indexed
}
