package vision_test

import (
	"fmt"
	"path/filepath"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"github.com/tablecam/tablecam/vision"
	"gocv.io/x/gocv"
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

// Analyze reads one camera frame of a calibrated realm: every card's cell,
// name, owner, rotation and outline.
func ExampleAnalyzer_Analyze() {
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

	still := filepath.Join("..", "samples", "stills", "0003")
	truth, err := synth.LoadSceneTruth(still + ".json")
	if err != nil {
		fmt.Println(err)
		return
	}
	frame := gocv.IMRead(still+".jpg", gocv.IMReadColor)
	defer frame.Close()
	cal, err := calibration.FromCorners(truth.Corners, frame.Cols(), frame.Rows())
	if err != nil {
		fmt.Println(err)
		return
	}
	obs, err := a.Analyze(frame, cal)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Every fully visible card of the still's truth, found with its name and turn.
	seen := map[string]bool{}
	for _, c := range obs.Cards {
		if c.Cell != nil {
			seen[fmt.Sprintf("%s %s %d", c.Cell, c.NameOr("?"), c.Rotation)] = true
		}
	}
	missing := 0
	for _, c := range truth.Cards {
		if c.VisibleFraction > 0.999 && c.Cell != nil && !seen[fmt.Sprintf("%s %s %d", c.Cell, c.Name, c.Rotation)] {
			missing++
		}
	}
	fmt.Println("fully visible cards missed:", missing)
	// Output: fully visible cards missed: 0
}
