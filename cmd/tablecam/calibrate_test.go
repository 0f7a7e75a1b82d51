package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
)

// sampleStill is one bundled still and its true realm corners, or a skip.
func sampleStill(t *testing.T, name string) (string, models.Quad) {
	t.Helper()
	img := filepath.Join("..", "..", "samples", "stills", name+".jpg")
	b, err := os.ReadFile(filepath.Join("..", "..", "samples", "stills", name+".json"))
	if err != nil {
		t.Skipf("sample still %s not available: %v", name, err)
	}
	var truth struct {
		Corners models.Quad `json:"corners"`
	}
	if err := json.Unmarshal(b, &truth); err != nil {
		t.Fatal(err)
	}
	return img, truth.Corners
}

func maxCornerDistance(a, b models.Quad) float64 {
	var d float64
	for i := range a {
		d = math.Max(d, math.Hypot(a[i].X-b[i].X, a[i].Y-b[i].Y))
	}
	return d
}

func runCalibrateArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"calibrate"}, args...), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

// calibrateJSON runs `tablecam calibrate` with args (which include --json)
// and gives what it printed; a failing run fails the test.
func calibrateJSON(t *testing.T, args ...string) calibrateResult {
	t.Helper()
	code, stdout, stderr := runCalibrateArgs(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res calibrateResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("output %q: %v", stdout, err)
	}
	return res
}

func TestCalibrateCommand(t *testing.T) {
	img, truth := sampleStill(t, "0000")
	dir := t.TempDir()
	calPath := filepath.Join(dir, "cal.json")
	debugPath := filepath.Join(dir, "grid.png")
	res := calibrateJSON(t, "--json", "--out", calPath, "--debug", debugPath, img)
	width := math.Hypot(truth[1].X-truth[0].X, truth[1].Y-truth[0].Y)
	if d := maxCornerDistance(res.Corners, truth); d > 0.01*width || res.Method != calibration.MethodAuto {
		t.Errorf("corners %v by %s, want %v by auto (off by %.1f px)", res.Corners, res.Method, truth, d)
	}
	saved, err := calibration.Load(calPath)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Corners != res.Corners || saved.Reference == nil {
		t.Errorf("saved corners %v (reference %v), printed %v", saved.Corners, saved.Reference != nil, res.Corners)
	}
	dbg := gocv.IMRead(debugPath, gocv.IMReadColor)
	defer dbg.Close()
	if dbg.Cols() != 1280 || dbg.Rows() != 720 {
		t.Errorf("debug image is %dx%d, want 1280x720", dbg.Cols(), dbg.Rows())
	}
}

func TestCalibrateCommandManualCorners(t *testing.T) {
	img, _ := sampleStill(t, "0000")
	const corners = "220.6,691.8 1103.9,544.7 990.6,24.4 156.4,187.2"
	code, stdout, stderr := runCalibrateArgs("--corners", corners, "--north-at-bottom", "--out", filepath.Join(t.TempDir(), "c.json"), img)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"by manual", "corners A1 E1 E4 A4: " + corners, "north player at the image bottom"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output %q lacks %q", stdout, want)
		}
	}
}

// TestCalibrateCommandCellSize states a mat's cell size: the grid is
// searched with cells of that shape and the saved calibration maps by that
// size, whether the corners are found or given.
func TestCalibrateCommandCellSize(t *testing.T) {
	img, truth := sampleStill(t, "0000")
	want := models.RealmGeometry{CellWidthMM: 120, CellHeightMM: 90}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"found", nil},
		{"given", []string{"--corners", calibration.FormatCorners(truth)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calPath := filepath.Join(t.TempDir(), "cal.json")
			args := append(append([]string{"--json", "--cell-mm", "120x90", "--out", calPath}, tc.args...), img)
			res := calibrateJSON(t, args...)
			width := math.Hypot(truth[1].X-truth[0].X, truth[1].Y-truth[0].Y)
			if d := maxCornerDistance(res.Corners, truth); d > 0.01*width || res.Geometry != want {
				t.Errorf("corners %v with cells %v, want %v with cells %v (off by %.1f px)", res.Corners, res.Geometry, truth, want, d)
			}
			saved, err := calibration.Load(calPath)
			if err != nil {
				t.Fatal(err)
			}
			// The realm's far corner E4 lies 600×360 mm from A1 on this mat.
			if p, q := saved.RealmToImage(models.Point{X: 600, Y: 360}), truth[2]; saved.Geometry != want || math.Hypot(p.X-q.X, p.Y-q.Y) > 0.01*width {
				t.Errorf("saved cells %v map E4's corner to %v, want %v at %v", saved.Geometry, p, want, q)
			}
		})
	}
}

func TestCalibrateCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.jpg")
	if err := os.WriteFile(garbage, []byte("not an image"), 0o644); err != nil {
		t.Fatal(err)
	}
	blank := filepath.Join(dir, "blank.png")
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 90, 90, 0), 720, 1280, gocv.MatTypeCV8UC3)
	gocv.IMWrite(blank, m)
	m.Close()
	missing := filepath.Join(dir, "missing.jpg")
	// blank.png cut short: OpenCV would read it, the lower part missing.
	cut := filepath.Join(dir, "cut.png")
	whole, err := os.ReadFile(blank)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cut, whole[:len(whole)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want []string // in stderr
	}{
		{"missing file", []string{missing}, []string{missing, "no such file"}},
		{"not an image", []string{garbage}, []string{garbage, "not an image OpenCV can read"}},
		{"cut short", []string{cut}, []string{cut, "stops before its end"}},
		{"no realm", []string{"--out", "-", blank}, []string{blank, "no realm found", "--corners"}},
		{"markers required", []string{"--markers", "--out", "-", blank}, []string{blank, "ArUco markers"}},
		{"bad corners", []string{"--corners", "1,2 3,4", blank}, []string{"--corners", "want 4 points"}},
		{"mirrored corners", []string{"--corners", "100,600 100,100 1000,100 1000,600", blank}, []string{"wrong way"}},
		{"no image", nil, []string{"exactly one IMAGE"}},
		{"bad cell size", []string{"--cell-mm", "100", blank}, []string{"--cell-mm", "WIDTHxHEIGHT"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCalibrateArgs(tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
}

// TestCalibrateSouth turns a bundled still a quarter, half and three
// quarter turn and calibrates it with the flag saying where south is now:
// the corners must be the still's true corners carried along (A1 stays the
// south-west corner), and the saved calibration and the printed JSON must
// carry the side. Flags that disagree or name no side are refused with an
// error naming the flag.
func TestCalibrateSouth(t *testing.T) {
	img, truth := sampleStill(t, "0000")
	frame := gocv.IMRead(img, gocv.IMReadColor)
	defer frame.Close()
	w, h := float64(frame.Cols()), float64(frame.Rows())
	width := math.Hypot(truth[1].X-truth[0].X, truth[1].Y-truth[0].Y)
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		turn gocv.RotateFlag
		args []string
		want calibration.Side
		move func(models.Point) models.Point
	}{
		{"left", gocv.Rotate90Clockwise, []string{"--south", "left"}, calibration.Left,
			func(p models.Point) models.Point { return models.Point{X: h - 1 - p.Y, Y: p.X} }},
		{"top", gocv.Rotate180Clockwise, []string{"--south", "top"}, calibration.Top,
			func(p models.Point) models.Point { return models.Point{X: w - 1 - p.X, Y: h - 1 - p.Y} }},
		{"north-at-bottom", gocv.Rotate180Clockwise, []string{"--north-at-bottom"}, calibration.Top,
			func(p models.Point) models.Point { return models.Point{X: w - 1 - p.X, Y: h - 1 - p.Y} }},
		{"right", gocv.Rotate90CounterClockwise, []string{"--south", "Right"}, calibration.Right,
			func(p models.Point) models.Point { return models.Point{X: p.Y, Y: w - 1 - p.X} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			turned := gocv.NewMat()
			defer turned.Close()
			gocv.Rotate(frame, &turned, tt.turn)
			path := filepath.Join(dir, tt.name+".png")
			if !gocv.IMWrite(path, turned) {
				t.Fatal("cannot write the turned still")
			}
			var want models.Quad
			for i, p := range truth {
				want[i] = tt.move(p)
			}
			calPath := filepath.Join(dir, tt.name+".json")
			res := calibrateJSON(t, append(tt.args, "--json", "--out", calPath, path)...)
			if d := maxCornerDistance(res.Corners, want); d > 0.01*width || res.South != tt.want {
				t.Errorf("corners %v, south %v; want %v, south %v (off by %.1f px)", res.Corners, res.South, want, tt.want, d)
			}
			saved, err := calibration.Load(calPath)
			if err != nil {
				t.Fatal(err)
			}
			if saved.South != tt.want || saved.Corners != res.Corners {
				t.Errorf("saved south %v corners %v, printed %v %v", saved.South, saved.Corners, tt.want, res.Corners)
			}
		})
	}
	for _, tt := range []struct {
		name string
		args []string
		want []string
	}{
		{"not a side", []string{"--south", "up"}, []string{"-south", `"up"`, "bottom, top, left or right"}},
		{"disagreeing flags", []string{"--north-at-bottom", "--south", "left"}, []string{"--north-at-bottom", "--south top"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCalibrateArgs(append(tt.args, "--out", "-", img)...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
}
