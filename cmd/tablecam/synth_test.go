package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

func TestSynthCommand(t *testing.T) {
	out := t.TempDir()
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no target", []string{}, 2, "usage: tablecam synth"},
		{"unknown target", []string{"movie", "--out", out}, 2, `unknown target "movie"`},
		{"no out", []string{"scenes"}, 2, "--out DIR is required"},
		{"bad catalog", []string{"scenes", "--out", out, "--catalog", filepath.Join(out, "nope")}, 2, "want a folder with cards.json"},
		{"bad count", []string{"scenes", "--out", out, "--count", "0"}, 2, "--count must be at least 1"},
		{"bad size", []string{"game", "--out", out, "--size", "1280"}, 2, `--size "1280": want WxH`},
		{"size not a number", []string{"game", "--out", out, "--size", "wide×720"}, 2, "whole numbers"},
		{"size too small", []string{"scenes", "--out", out, "--size", "64x48"}, 2, "a width of 320 to 7680"},
		{"bad style", []string{"catalog", "--out", out, "--style", "photo"}, 2, `--style: synth: unknown face style "photo"`},
		{"poster catalog", []string{"catalog", "--out", filepath.Join(out, "poster"), "--style", "poster", "--quiet"}, 0, "wrote 41 cards"},
		{"two scenes", []string{"scenes", "--out", out, "--count", "2", "--quiet", "--catalog", "../../samples/catalog"}, 0, "wrote 2 scenes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runSynth(context.Background(), env{args: tc.args, stdout: &stdout, stderr: &stderr})
			if code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.want) {
				t.Errorf("exit %d, want %d; output %q, want it to hold %q", code, tc.code, stdout.String()+stderr.String(), tc.want)
			}
		})
	}
	truth, err := synth.LoadSceneTruth(filepath.Join(out, "0001.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, truth.Image)); err != nil || len(truth.Cards) == 0 {
		t.Errorf("scene 0001: image %q (%v), %d cards", truth.Image, err, len(truth.Cards))
	}
	if truth.Width != 1280 || truth.Height != 720 {
		t.Errorf("scene 0001 without --size is %d×%d, want the default 1280×720", truth.Width, truth.Height)
	}
}

func TestSynthSize(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"scenes", "--out", out, "--count", "1", "--quiet", "--size", "640x360", "--catalog", "../../samples/catalog"}
	if code := runSynth(context.Background(), env{args: args, stdout: &stdout, stderr: &stderr}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	truth, err := synth.LoadSceneTruth(filepath.Join(out, "0000.json"))
	if err != nil {
		t.Fatal(err)
	}
	if truth.Width != 640 || truth.Height != 360 {
		t.Errorf("--size 640x360 gave a %d×%d scene", truth.Width, truth.Height)
	}
}

func TestGameByteCap(t *testing.T) {
	for _, tc := range []struct {
		w, h, turns int
		want        int64
	}{
		{0, 0, 0, 0},     // default size and length: the synth package's default cap
		{960, 540, 6, 0}, // the bundled demo's size
		{640, 360, 4, 0}, // smaller frames and shorter games keep the default cap
		{1280, 720, 0, 35_555_555},
		{1920, 1080, 6, 80_000_000},
		{960, 540, 9, 30_000_000},     // a longer game may take more bytes
		{1920, 1080, 12, 160_000_000}, // both
	} {
		if got := gameByteCap(tc.w, tc.h, tc.turns); got != tc.want {
			t.Errorf("gameByteCap(%d, %d, %d) = %d, want %d", tc.w, tc.h, tc.turns, got, tc.want)
		}
	}
}

// TestSynthWithoutSamples runs synth scenes as an installed binary would,
// with no samples folder to find: it renders the sample catalog into the
// output folder, says so, and the bench then reads the scenes against it by
// itself and names every fully visible card (a catalog rendered from another
// seed, or thrown away, would leave every card unknown).
func TestSynthWithoutSamples(t *testing.T) {
	t.Setenv("TABLECAM_SAMPLES", t.TempDir()) // a folder with no samples in it
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"scenes", "--out", out, "--count", "2", "--quiet"}
	if code := runSynth(context.Background(), env{args: args, stdout: &stdout, stderr: &stderr}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	own := filepath.Join(out, "catalog")
	if !strings.Contains(stderr.String(), "rendered it into "+own) {
		t.Errorf("stderr %q does not say where the catalog went", stderr.String())
	}
	cat, err := models.LoadCatalog(own)
	if err != nil {
		t.Fatalf("the catalog the scenes were rendered with: %v", err)
	}
	bundled, err := models.LoadCatalog(sampleCatalogDir)
	if err != nil {
		t.Fatal(err)
	}
	if cat.Len() != bundled.Len() {
		t.Errorf("rendered %d cards, the bundled catalog has %d", cat.Len(), bundled.Len())
	}
	for _, c := range bundled.Cards() {
		a, b := readFile(t, filepath.Join(own, "images", c.Slug+".png")), readFile(t, filepath.Join(sampleCatalogDir, "images", c.Slug+".png"))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the face rendered differs from the bundled one", c.Slug)
		}
	}
	stdout.Reset()
	stderr.Reset()
	code := run(context.Background(), env{
		args:   []string{"bench", "vision", "--frames", out, "--cache", t.TempDir(), "--no-realm"},
		stdin:  strings.NewReader(""),
		stdout: &stdout, stderr: &stderr,
	})
	if code != 0 {
		t.Fatalf("bench vision: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "catalog "+own) {
		t.Errorf("bench vision did not read the scenes against %s:\n%s", own, stdout.String())
	}
	if !strings.Contains(stdout.String(), "identity, fully visible   100.0%") {
		t.Errorf("fully visible cards not all named:\n%s", stdout.String())
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
