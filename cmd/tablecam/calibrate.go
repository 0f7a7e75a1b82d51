package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/pipeline"
)

// calibrateResult is what "tablecam calibrate --json" prints.
type calibrateResult struct {
	Image   string      `json:"image"`
	Method  string      `json:"method"`
	Corners models.Quad `json:"corners"`
	// South is the image side the realm's south edge (A1–E1) is on.
	South calibration.Side `json:"south"`
	// Geometry is the realm's cell size the calibration maps by.
	Geometry    models.RealmGeometry `json:"geometry"`
	ImageWidth  int                  `json:"image_width"`
	ImageHeight int                  `json:"image_height"`
	Score       float64              `json:"score,omitempty"`
	Saved       string               `json:"saved,omitempty"`
	Debug       string               `json:"debug,omitempty"`
}

// runCalibrate finds the realm in one image (or takes it from --corners),
// prints the corners and saves the calibration.
func runCalibrate(_ context.Context, e env) int {
	fl := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fl.SetOutput(e.stderr)
	corners := fl.String("corners", "", `realm corners A1 (south-west), E1 (south-east), E4 (north-east), A4 (north-west) in image pixels: "x,y x,y x,y x,y"`)
	markers := fl.Bool("markers", false, "require the four printed ArUco markers (DICT_4X4_50, ids 0–3 at A1, E1, E4, A4)")
	markerOffset := fl.Float64("marker-offset", calibration.DefaultMarkerOffsetMM, "how far (mm) outside each realm corner, along both axes, the marker centres sit")
	southF := addSouthFlags(fl)
	cellMM := fl.String("cell-mm", "", "the playmat's realm cell size WxH in millimetres (default 100x75): the grid is searched with cells of that shape, and the calibration maps by that size")
	out := fl.String("out", "calibration.json", `where to save the calibration ("" or "-" to not save)`)
	debug := fl.String("debug", "", "write a copy of the image with the grid drawn to this PNG/JPEG file")
	asJSON := fl.Bool("json", false, "print the result as JSON")
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, `usage: tablecam calibrate [--corners "x,y x,y x,y x,y"] [--markers] [--south bottom|top|left|right | --north-at-bottom] [--cell-mm WxH] [--out cal.json] [--debug out.png] [--json] IMAGE`)
		fmt.Fprintln(e.stderr, "\nFinds the realm (the 5×4 grid) in a camera image: from printed ArUco markers when all four are")
		fmt.Fprintln(e.stderr, "visible, else from the mat's grid lines; or takes the corners you give. Prints the corners and")
		fmt.Fprintln(e.stderr, "saves the calibration for \"tablecam analyze --calibration\" and \"tablecam watch\".")
		fmt.Fprintln(e.stderr)
		fl.PrintDefaults()
	}
	if err := fl.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() != 1 {
		fmt.Fprintln(e.stderr, "tablecam calibrate: give exactly one IMAGE")
		fl.Usage()
		return 2
	}
	south, err := southF.side()
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam calibrate: %v\n", err)
		return 2
	}
	if *corners != "" && *markers {
		fmt.Fprintln(e.stderr, "tablecam calibrate: give --corners or --markers, not both")
		return 2
	}
	geometry := models.DefaultRealm()
	if *cellMM != "" {
		g, err := models.ParseCellMM(*cellMM)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam calibrate: --cell-mm: %v\n", err)
			return 2
		}
		geometry = g
	}
	path := fl.Arg(0)
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		problem := "is a directory"
		if err != nil {
			problem = "cannot read it"
			if errors.Is(err, fs.ErrNotExist) {
				problem = "no such file"
			}
		}
		fmt.Fprintf(e.stderr, "tablecam calibrate: %s: %s\n", path, problem)
		return 2
	}
	frame, err := pipeline.ReadImage(path)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam calibrate: %v\n", err)
		return 2
	}
	defer frame.Close()
	var cal *calibration.Calibration
	if *corners != "" {
		q, err := calibration.ParseCorners(*corners)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam calibrate: --corners: %v\n", err)
			return 2
		}
		cal, err = calibration.FromCorners(q, frame.Cols(), frame.Rows())
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam calibrate: --corners for %s (%dx%d): %v\n", path, frame.Cols(), frame.Rows(), err)
			return 2
		}
		cal.South = south
		if cal, err = cal.WithGeometry(geometry); err != nil {
			fmt.Fprintf(e.stderr, "tablecam calibrate: --cell-mm: %v\n", err)
			return 2
		}
		cal.SetReference(frame)
	} else {
		var err error
		cal, err = calibration.Detect(frame, calibration.Options{
			South:        south,
			Geometry:     geometry,
			Markers:      *markers,
			MarkerLayout: calibration.MarkerLayout{OffsetMM: *markerOffset},
		})
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam calibrate: %s: %v\n", path, err)
			if errors.Is(err, calibration.ErrNotFound) {
				fmt.Fprintln(e.stderr, `  give the corners yourself: --corners "x,y x,y x,y x,y" (A1 E1 E4 A4)`)
				return 2
			}
			return 1
		}
	}
	res := calibrateResult{
		Image: path, Method: cal.Method, Corners: cal.Corners, South: cal.South, Geometry: cal.Geometry,
		ImageWidth: cal.ImageWidth, ImageHeight: cal.ImageHeight, Score: cal.Score,
	}
	if *out != "" && *out != "-" {
		if err := cal.Save(*out); err != nil {
			fmt.Fprintf(e.stderr, "tablecam calibrate: %v\n", err)
			return 1
		}
		res.Saved = *out
	}
	if *debug != "" {
		img := frame.Clone()
		cal.DrawGrid(&img)
		ok := gocv.IMWrite(*debug, img)
		img.Close()
		if !ok {
			fmt.Fprintf(e.stderr, "tablecam calibrate: --debug %s: cannot write the image (is the folder there, and the name .png or .jpg?)\n", *debug)
			return 1
		}
		res.Debug = *debug
	}
	if *asJSON {
		b, _ := json.Marshal(res)
		fmt.Fprintln(e.stdout, string(b))
		return 0
	}
	fmt.Fprintf(e.stdout, "realm found in %s by %s", path, cal.Method)
	if cal.Method == calibration.MethodAuto {
		fmt.Fprintf(e.stdout, " (%.0f%% of the grid lines seen)", 100*cal.Score)
	}
	fmt.Fprintln(e.stdout)
	fmt.Fprintf(e.stdout, "corners A1 E1 E4 A4: %s\n", calibration.FormatCorners(cal.Corners))
	switch cal.South {
	case calibration.Top:
		fmt.Fprintln(e.stdout, "north player at the image bottom")
	case calibration.Left, calibration.Right:
		fmt.Fprintf(e.stdout, "south player on the image's %s\n", cal.South)
	}
	if cal.Geometry != models.DefaultRealm() {
		fmt.Fprintf(e.stdout, "realm cells %v mm\n", cal.Geometry)
	}
	if res.Saved != "" {
		fmt.Fprintf(e.stdout, "saved %s\n", res.Saved)
	}
	if res.Debug != "" {
		fmt.Fprintf(e.stdout, "grid drawn in %s\n", res.Debug)
	}
	return 0
}
