package synth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadSceneTruthErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, body, want string
	}{
		{"broken.json", `{"width": 1280,`, "broken.json"},
		{"nosize.json", `{"cards": []}`, "missing image size"},
		{"rotation.json", `{"width": 1280, "height": 720, "cards": [{"name": "X", "owner": "south", "rotation": 45}]}`, "rotation 45"},
		{"owner.json", `{"width": 1280, "height": 720, "cards": [{"name": "X", "owner": null, "rotation": 0}]}`, "owner must be south or north"},
	}
	for _, tc := range cases {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadSceneTruth(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
	// The shipped stills load.
	if _, err := os.Stat("../samples/stills/0000.json"); err == nil {
		tr, err := LoadSceneTruth("../samples/stills/0000.json")
		if err != nil || tr.Image != "0000.jpg" || len(tr.Cards) == 0 {
			t.Errorf("samples/stills/0000.json: %v, %+v", err, tr)
		}
	}
}
