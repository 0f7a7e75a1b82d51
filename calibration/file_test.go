package calibration

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
)

func TestSaveLoad(t *testing.T) {
	t.Parallel()
	s := scene{seed: 41, tiltDeg: 12, widthFrac: 0.7, lineMM: 2, borderMM: 2, contrast: 1, cards: 3, noise: 2}
	frame, truth := s.render(t)
	defer frame.Close()
	c, err := FromCorners(truth, frame.Cols(), frame.Rows())
	if err != nil {
		t.Fatal(err)
	}
	c.South = Top
	c.SetReference(frame)
	path := filepath.Join(t.TempDir(), "cal.json")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if cornerError(got.Corners, c.Corners) > 0.01 || got.ImageWidth != 1280 || got.ImageHeight != 720 ||
		got.South != Top || got.Method != MethodManual || got.Geometry != models.DefaultRealm() {
		t.Errorf("loaded %+v, saved %+v", got, c)
	}
	if got.Reference == nil || len(got.Reference.Segments) != len(c.Reference.Segments) {
		t.Fatal("drift reference lost in the round trip")
	}
	if drifted, _ := got.Drifted(frame); drifted {
		t.Error("the loaded calibration reports drift on its own frame")
	}
	p := got.RealmToImage(models.Point{X: 250, Y: 150})
	q := c.RealmToImage(models.Point{X: 250, Y: 150})
	if cornerError(models.Quad{p}, models.Quad{q}) > 0.05 {
		t.Errorf("loaded calibration maps the realm centre to %v, saved one to %v", p, q)
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	c, err := FromCorners(models.Quad{{X: 100, Y: 650}, {X: 1180, Y: 640}, {X: 1050, Y: 80}, {X: 220, Y: 90}}, 1280, 720)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := c.Save(good); err != nil {
		t.Fatal(err)
	}
	valid, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	text := string(valid)
	tests := []struct {
		name, content string
		want          []string
	}{
		{"truncated", text[:len(text)/2], []string{"truncated"}},
		{"syntax error on line 3", "{\n  \"version\": 1,\n  \"corners\": [[1,2],, \n}", []string{"line 3"}},
		{"wrong type", strings.Replace(text, `"image_width": 1280`, `"image_width": "wide"`, 1), []string{"line ", "image_width"}},
		{"unknown version", strings.Replace(text, `"version": 2`, `"version": 7`, 1), []string{"version 7 is not supported"}},
		{"no version", strings.Replace(text, `"version": 2,`, ``, 1), []string{`no "version"`}},
		{"bad south", strings.Replace(text, `"south": "bottom"`, `"south": "up"`, 1), []string{`"south"`, `"up"`, "bottom, top, left or right"}},
		{"south not a word", strings.Replace(text, `"south": "bottom"`, `"south": 3`, 1), []string{"south"}},
		{"no south", strings.Replace(text, `"south": "bottom",`, ``, 1), []string{`no "south"`}},
		{"version 2 with north_at_bottom", strings.Replace(text, `"south": "bottom"`, `"north_at_bottom": true`, 1), []string{`"north_at_bottom" is version 1's`}},
		{"version 1 with south", strings.Replace(text, `"version": 2`, `"version": 1`, 1), []string{`"south" is not in version 1`}},
		{"version 1 north_at_bottom not a bool", strings.Replace(strings.Replace(text, `"version": 2`, `"version": 1`, 1), `"south": "bottom"`, `"north_at_bottom": "yes"`, 1), []string{"north_at_bottom"}},
		{"unknown method", strings.Replace(text, `"method": "manual"`, `"method": "magic"`, 1), []string{`unknown method "magic"`}},
		{"unknown field", strings.Replace(text, `"method"`, `"colour": 3, "method"`, 1), []string{"colour"}},
		{"mirrored corners", mirrorCorners(t, c, dir), []string{"wrong way"}},
		{"empty", "", []string{"empty file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "cal.json")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "calibration "+path+": ") {
				t.Errorf("error %q does not start by naming the file", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want an error wrapping os.ErrNotExist", err)
	}
}

// mirrorCorners saves c with its corners in mirrored order and returns the file's text.
func mirrorCorners(t *testing.T, c *Calibration, dir string) string {
	m := *c
	m.Corners = models.Quad{c.Corners[1], c.Corners[0], c.Corners[3], c.Corners[2]}
	path := filepath.Join(dir, "mirrored.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSaveLoadSouth saves a calibration with each image side as south and
// loads it back; and loads version 1 files, whose "north_at_bottom" true is
// south at the top and false (or left out) at the bottom.
func TestSaveLoadSouth(t *testing.T) {
	t.Parallel()
	c, err := FromCorners(models.Quad{{X: 100, Y: 650}, {X: 1180, Y: 640}, {X: 1050, Y: 80}, {X: 220, Y: 90}}, 1280, 720)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, s := range []Side{Bottom, Top, Left, Right} {
		t.Run(s.String(), func(t *testing.T) {
			saved := *c
			saved.South = s
			path := filepath.Join(dir, s.String()+".json")
			if err := saved.Save(path); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if want := `"south": "` + s.String() + `"`; !strings.Contains(string(b), want) || strings.Contains(string(b), "north_at_bottom") {
				t.Errorf("saved file lacks %s or has north_at_bottom:\n%s", want, b)
			}
			got, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if got.South != s {
				t.Errorf("loaded south %v, saved %v", got.South, s)
			}
		})
	}
	good := filepath.Join(dir, "v2.json")
	if err := c.Save(good); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	v1 := strings.Replace(string(b), `"version": 2`, `"version": 1`, 1)
	for _, tt := range []struct {
		name, content string
		want          Side
	}{
		{"north at bottom", strings.Replace(v1, `"south": "bottom"`, `"north_at_bottom": true`, 1), Top},
		{"south at bottom", strings.Replace(v1, `"south": "bottom"`, `"north_at_bottom": false`, 1), Bottom},
		{"left out", strings.Replace(v1, `"south": "bottom",`, ``, 1), Bottom},
	} {
		t.Run("version 1 "+tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "v1.json")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if got.South != tt.want {
				t.Errorf("south %v, want %v", got.South, tt.want)
			}
			if cornerError(got.Corners, c.Corners) > 0.01 {
				t.Errorf("corners %v, want %v", fmtQuad(got.Corners), fmtQuad(c.Corners))
			}
		})
	}
}
