package calibration_test

import (
	"fmt"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
)

func ExampleParseCorners() {
	q, err := calibration.ParseCorners("120,660 1150,610 1010,110 240,140")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("A1 at", q[0].X, q[0].Y, "and A4 at", q[3].X, q[3].Y)

	_, err = calibration.ParseCorners("120,660 1150,610")
	fmt.Println(err)
	// Output:
	// A1 at 120 660 and A4 at 240 140
	// corners "120,660 1150,610": want 4 points "x,y x,y x,y x,y" (A1 E1 E4 A4), got 2: bad realm corners
}

func ExampleCalibration_RealmToImage() {
	// A top-down camera: 2 px per mm, the A1 corner at (140,660).
	corners := models.Quad{{X: 140, Y: 660}, {X: 1140, Y: 660}, {X: 1140, Y: 60}, {X: 140, Y: 60}}
	cal, err := calibration.FromCorners(corners, 1280, 720)
	if err != nil {
		fmt.Println(err)
		return
	}
	centre := cal.RealmToImage(models.Point{X: 250, Y: 150}) // the middle of the realm, in mm
	fmt.Printf("realm centre at (%.0f,%.0f) px\n", centre.X, centre.Y)
	cell, ok := cal.CellAt(models.Point{X: 1000, Y: 600})
	fmt.Println("pixel (1000,600) is in", cell, ok)
	back := cal.ImageToRealm(models.Point{X: 640, Y: 60})
	fmt.Printf("pixel (640,60) is the realm point (%.0f,%.0f) mm, on the north edge\n", back.X, back.Y)
	// Output:
	// realm centre at (640,360) px
	// pixel (1000,600) is in E1 true
	// pixel (640,60) is the realm point (250,300) mm, on the north edge
}
