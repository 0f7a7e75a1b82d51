package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
}
