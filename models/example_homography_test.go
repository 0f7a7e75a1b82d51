package models_test

import (
	"errors"
	"fmt"

	"github.com/tablecam/tablecam/models"
)

func ExampleNewHomography() {
	// The realm's corners A1, E1, E4, A4 as a camera sees them, and the same
	// corners in a top-down picture of 500×400 pixels.
	camera := models.Quad{{X: 120, Y: 650}, {X: 1160, Y: 640}, {X: 980, Y: 110}, {X: 300, Y: 120}}
	topDown := models.Quad{{X: 0, Y: 400}, {X: 500, Y: 400}, {X: 500, Y: 0}, {X: 0, Y: 0}}
	h, err := models.NewHomography(camera, topDown)
	if err != nil {
		panic(err)
	}
	p := h.Apply(models.Point{X: 640, Y: 380})
	fmt.Printf("camera (640, 380) is (%.1f, %.1f) top-down\n", p.X, p.Y)
	back, _ := h.Inverse()
	q := back.Apply(models.Point{X: 250, Y: 200})
	fmt.Printf("the realm's centre is at (%.1f, %.1f) in the camera\n", q.X, q.Y)

	_, err = models.NewHomography(models.Quad{{X: 0, Y: 0}, {X: 1, Y: 1}, {X: 2, Y: 2}, {X: 0, Y: 5}}, topDown)
	fmt.Println(errors.Is(err, models.ErrDegenerateHomography), err)
	// Output:
	// camera (640, 380) is (251.1, 241.9) top-down
	// the realm's centre is at (638.3, 324.6) in the camera
	// true homography: source points 1, 2 and 3 ((0, 0), (1, 1), (2, 2)) are on one line: degenerate homography
}
