package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// sampleCatalogDir is the bundled sample catalog, relative to this package.
var sampleCatalogDir = filepath.Join("..", "..", "samples", "catalog")

// tableImage is a plain top-down photo of a realm whose corners are known:
// A1 (140,660) … A4 (140,60), 2 px per mm, with the given faces laid on it.
func tableImage(t *testing.T, path string, cards []tableCard) {
	t.Helper()
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 90, 70, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer img.Close()
	for i := 0; i <= 5; i++ {
		gocv.Line(&img, image.Pt(140+200*i, 60), image.Pt(140+200*i, 660), color.RGBA{220, 220, 220, 0}, 2)
	}
	for i := 0; i <= 4; i++ {
		gocv.Line(&img, image.Pt(140, 60+150*i), image.Pt(1140, 60+150*i), color.RGBA{220, 220, 220, 0}, 2)
	}
	for _, c := range cards {
		face := gocv.IMRead(c.image, gocv.IMReadColor)
		if face.Empty() {
			t.Fatalf("cannot read %s", c.image)
		}
		if c.site && face.Rows() > face.Cols() {
			gocv.Rotate(face, &face, gocv.Rotate90Clockwise)
		}
		if c.north {
			gocv.Rotate(face, &face, gocv.Rotate180Clockwise)
		}
		w, h := 126, 176
		if c.site {
			w, h = 176, 126
		}
		gocv.Resize(face, &face, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
		x, y := c.centre.X-w/2, c.centre.Y-h/2
		dst := img.Region(image.Rect(x, y, x+w, y+h))
		face.CopyTo(&dst)
		dst.Close()
		face.Close()
	}
	if !gocv.IMWrite(path, img) {
		t.Fatalf("cannot write %s", path)
	}
}

type tableCard struct {
	image       string
	site, north bool
	centre      image.Point
}

const tableCorners = "140,660 1140,660 1140,60 140,60"

func TestAnalyzeCommand(t *testing.T) {
	cat, err := models.LoadCatalog(sampleCatalogDir)
	if err != nil {
		t.Skipf("no sample catalog: %v", err)
	}
	site, _ := cat.Lookup("Emberfall Ridge")
	unit, _ := cat.Lookup("Ember Whelp")
	dir := t.TempDir()
	good1, good2, corrupt := filepath.Join(dir, "one.jpg"), filepath.Join(dir, "two.png"), filepath.Join(dir, "corrupt.jpg")
	// Emberfall Ridge in B1 (south), Ember Whelp in D3 (north).
	tableImage(t, good1, []tableCard{{image: site.Image, site: true, centre: image.Pt(440, 585)}, {image: unit.Image, north: true, centre: image.Pt(840, 285)}})
	tableImage(t, good2, []tableCard{{image: unit.Image, centre: image.Pt(240, 135)}})
	if err := os.WriteFile(corrupt, []byte("\xff\xd8\xff garbage, not a JPEG"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A copy of one.jpg cut short: OpenCV decodes it, its lower part grey.
	cut := filepath.Join(dir, "cut.jpg")
	whole, err := os.ReadFile(good1)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cut, whole[:len(whole)*6/10], 0o644); err != nil {
		t.Fatal(err)
	}
	debug := filepath.Join(dir, "debug")
	var out, errOut bytes.Buffer
	code := run(context.Background(), env{
		args:   []string{"analyze", "--catalog", sampleCatalogDir, "--cache", filepath.Join(dir, "cache"), "--corners", tableCorners, "--json", "--debug", debug, good1, corrupt, cut, good2},
		stdin:  strings.NewReader(""),
		stdout: &out, stderr: &errOut,
	})
	if code != 2 {
		t.Errorf("exit code %d, want 2 (two unreadable images)", code)
	}
	if !strings.Contains(errOut.String(), corrupt) {
		t.Errorf("stderr does not name the corrupt file:\n%s", errOut.String())
	}
	if !strings.Contains(errOut.String(), cut+": image file cut short: the JPEG data stops before the end of the image") {
		t.Errorf("stderr does not name the file cut short and its problem:\n%s", errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d JSON lines, want 2 (the readable images):\n%s", len(lines), out.String())
	}
	type card struct {
		Cell     *string `json:"cell"`
		Name     *string `json:"name"`
		Type     *string `json:"type"`
		Kind     string  `json:"kind"`
		Owner    string  `json:"owner"`
		Rotation int     `json:"rotation"`
		Tapped   bool    `json:"tapped"`
	}
	var first struct {
		Image string `json:"image"`
		Mat   struct {
			Found   bool         `json:"found"`
			Corners [][2]float64 `json:"corners"`
		} `json:"mat"`
		Occluded bool   `json:"occluded"`
		Cards    []card `json:"cards"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatalf("line 1: %v\n%s", err, lines[0])
	}
	if first.Image != good1 || !first.Mat.Found || len(first.Mat.Corners) != 4 {
		t.Errorf("line 1 header: %+v", first)
	}
	want := map[string]card{
		"B1": {Name: models.StrPtr("Emberfall Ridge"), Type: models.StrPtr("Site"), Kind: "site", Owner: "south", Rotation: 0},
		"D3": {Name: models.StrPtr("Ember Whelp"), Type: models.StrPtr("Minion"), Kind: "standard", Owner: "north", Rotation: 180},
	}
	if len(first.Cards) != len(want) {
		t.Errorf("got %d cards, want %d: %s", len(first.Cards), len(want), lines[0])
	}
	for _, c := range first.Cards {
		if c.Cell == nil || c.Name == nil || c.Type == nil {
			t.Errorf("card without cell or name: %+v", c)
			continue
		}
		w, ok := want[*c.Cell]
		if !ok || *c.Name != *w.Name || *c.Type != *w.Type || c.Kind != w.Kind || c.Owner != w.Owner || c.Rotation != w.Rotation || c.Tapped {
			t.Errorf("cell %s: got %s %s %s %s %d, want %+v", *c.Cell, *c.Name, *c.Type, c.Kind, c.Owner, c.Rotation, w)
		}
	}
	for _, name := range []string{"one.annotated.jpg", "two.annotated.jpg"} {
		if _, err := os.Stat(filepath.Join(debug, name)); err != nil {
			t.Errorf("debug image: %v", err)
		}
	}
}

func TestAnalyzeCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no images", []string{"analyze", "--catalog", sampleCatalogDir}, "no images"},
		{"bad corners", []string{"analyze", "--catalog", sampleCatalogDir, "--corners", "1,2 3", "x.jpg"}, "--corners"},
		{"bad catalog", []string{"analyze", "--catalog", filepath.Join(dir, "missing"), "x.jpg"}, filepath.Join(dir, "missing")},
		{"cell size in cm", []string{"analyze", "--catalog", sampleCatalogDir, "--cell-mm", "10x7.5", "x.jpg"}, `--cell-mm: realm cell size "10x7.5": realm cell width 10 mm is outside`},
		{"cell size one number", []string{"analyze", "--catalog", sampleCatalogDir, "--cell-mm", "100", "x.jpg"}, "--cell-mm: realm cell size \"100\": want WIDTHxHEIGHT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), env{args: tc.args, stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
			if code != 2 || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut.String(), tc.want)
			}
		})
	}
}

// TestAnalyzeCellSize reads a table on a playmat with 120×90 mm cells: told
// nothing, the command must say that the cards show other cells and name
// the cards; told the size with --cell-mm, it reads by it and says nothing.
func TestAnalyzeCellSize(t *testing.T) {
	cat, err := models.LoadCatalog(sampleCatalogDir)
	if err != nil {
		t.Skipf("no sample catalog: %v", err)
	}
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	mat := models.RealmGeometry{CellWidthMM: 120, CellHeightMM: 90}
	if err := r.SetGeometry(mat); err != nil {
		t.Fatal(err)
	}
	scene, err := r.Scene(synth.SceneSeed(5555, 1), synth.SceneOptions{HandChance: -1})
	if err != nil {
		t.Fatal(err)
	}
	img, err := gocv.ImageToMatRGB(scene.Image)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	dir := t.TempDir()
	still := filepath.Join(dir, "table.png")
	if !gocv.IMWrite(still, img) {
		t.Fatal("cannot write the still")
	}
	var corners []string
	for _, p := range scene.Truth.Corners {
		corners = append(corners, fmt.Sprintf("%.2f,%.2f", p.X, p.Y))
	}
	for _, tc := range []struct {
		flags []string
		says  bool
	}{{nil, true}, {[]string{"--cell-mm", "120x90"}, false}} {
		args := append([]string{"analyze", "--catalog", sampleCatalogDir, "--cache", filepath.Join(dir, "cache"), "--corners", strings.Join(corners, " ")}, tc.flags...)
		var out, errOut bytes.Buffer
		code := run(context.Background(), env{args: append(args, still), stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
		if code != 0 {
			t.Fatalf("%q: exit %d\n%s", tc.flags, code, errOut.String())
		}
		if said := strings.Contains(out.String(), "the cards show realm cells of"); said != tc.says {
			t.Errorf("%q: says the cards show other cells: %v, want %v\n%s", tc.flags, said, tc.says, out.String())
		}
		for _, c := range scene.Truth.Cards {
			if c.VisibleFraction == 1 && c.Cell != nil && !strings.Contains(out.String(), fmt.Sprintf("%-4s %s", c.Cell, c.Name)) {
				t.Errorf("%q: %s in %v not read:\n%s", tc.flags, c.Name, c.Cell, out.String())
			}
		}
	}
}
