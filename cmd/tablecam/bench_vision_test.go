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

func TestBenchVision(t *testing.T) {
	frames := filepath.Join("..", "..", "samples", "stills")
	if matches, _ := filepath.Glob(filepath.Join(frames, "*.json")); len(matches) == 0 {
		t.Skip("no sample stills")
	}
	var out, errOut bytes.Buffer
	code := run(context.Background(), env{
		args:   []string{"bench", "vision", "--frames", frames, "--catalog", sampleCatalogDir, "--cache", t.TempDir(), "--limit", "3"},
		stdin:  strings.NewReader(""),
		stdout: &out, stderr: &errOut,
	})
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	for _, want := range []string{"realm found", "corner error", "realm CPU per frame", "detection precision", "recall, ≥50% visible", "identity, fully visible",
		"realm turned half round", "south given as the image side", "identity, sites 40–80%", "rotation", "owner", "tapped", "occlusion", "time per frame, full", "time per frame, steady", "identify one card"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
	// Three frames of the bundled stills: every fully visible card is named.
	if !strings.Contains(out.String(), "identity, fully visible   100.0%") {
		t.Errorf("fully visible cards not all named:\n%s", out.String())
	}
}

// TestBenchVisionCatalogSize reads the frames again against a larger
// catalog (the sample faces plus faces rendered for names of the real card
// list) and reports those figures in a block of their own.
func TestBenchVisionCatalogSize(t *testing.T) {
	frames := filepath.Join("..", "..", "samples", "stills")
	realList := filepath.Join("..", "..", "..", "shared", "data", "sorcery-cards.json")
	if matches, _ := filepath.Glob(filepath.Join(frames, "*.json")); len(matches) == 0 {
		t.Skip("no sample stills")
	}
	if _, err := os.Stat(realList); err != nil {
		t.Skipf("no real card list: %v", err)
	}
	var out, errOut bytes.Buffer
	code := run(context.Background(), env{
		args: []string{"bench", "vision", "--frames", frames, "--catalog", sampleCatalogDir, "--cache", t.TempDir(), "--limit", "2",
			"--no-realm", "--catalog-size", "52", "--real-list", realList},
		stdin:  strings.NewReader(""),
		stdout: &out, stderr: &errOut,
	})
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	report := out.String()
	_, block, ok := strings.Cut(report, "the same 2 frames read against 52 faces")
	if !ok {
		t.Fatalf("no block for the frames read against 52 faces:\n%s", report)
	}
	for _, want := range []string{"recall, ≥50% visible", "identity, fully visible   100.0%", "identity, sites 40–80%", "wrong names              0", "CPU per frame, full"} {
		if !strings.Contains(block, want) {
			t.Errorf("the 52-face block lacks %q:\n%s", want, block)
		}
	}
	if !strings.Contains(report, "identify one card,   52 faces") {
		t.Errorf("no identification figures against 52 faces:\n%s", report)
	}
}

func TestBenchVisionBadFrames(t *testing.T) {
	var out, errOut bytes.Buffer
	dir := t.TempDir()
	code := run(context.Background(), env{args: []string{"bench", "vision", "--frames", dir, "--catalog", sampleCatalogDir}, stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
	if code != 2 || !strings.Contains(errOut.String(), dir) {
		t.Errorf("exit %d, stderr %q; want 2 naming %s", code, errOut.String(), dir)
	}
}

// TestBenchBarNotTerminal checks that progress written to a pipe or a log is
// a line per quarter, not a redraw per frame.
func TestBenchBarNotTerminal(t *testing.T) {
	var buf bytes.Buffer
	bar := benchBar(&buf, 200, "reading frames")
	for i := 0; i < 200; i++ {
		bar.Add(1)
	}
	bar.Finish()
	want := "reading frames: 50/200\nreading frames: 100/200\nreading frames: 150/200\nreading frames: 200/200 done\n"
	if buf.String() != want {
		t.Errorf("progress on a non-terminal:\n%q\nwant\n%q", buf.String(), want)
	}
}

// TestBenchVisionCatalogFaces reads the frames against only the first few
// faces of the catalog: the report names the faces read, counts how the
// cards without a face were reported, and gives no wrong name.
func TestBenchVisionCatalogFaces(t *testing.T) {
	frames := filepath.Join("..", "..", "samples", "stills")
	if matches, _ := filepath.Glob(filepath.Join(frames, "*.json")); len(matches) == 0 {
		t.Skip("no sample stills")
	}
	var out, errOut bytes.Buffer
	code := run(context.Background(), env{
		args:   []string{"bench", "vision", "--frames", frames, "--catalog", sampleCatalogDir, "--cache", t.TempDir(), "--limit", "6", "--no-realm", "--catalog-faces", "5"},
		stdin:  strings.NewReader(""),
		stdout: &out, stderr: &errOut,
	})
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	report := out.String()
	for _, want := range []string{"(5 faces)", "only the first 5 faces by slug", "wrong names              0", "cards without a face     found",
		"identify one card,    5 faces", "wrong 0", "cards without a face left unknown"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
	code = run(context.Background(), env{
		args:   []string{"bench", "vision", "--frames", frames, "--catalog", sampleCatalogDir, "--catalog-faces", "-1"},
		stdin:  strings.NewReader(""),
		stdout: &out, stderr: &errOut,
	})
	if code != 2 || !strings.Contains(errOut.String(), "--catalog-faces -1") {
		t.Errorf("--catalog-faces -1: exit %d, stderr %q; want 2 naming the option", code, errOut.String())
	}
}

// TestTurnedHalfRound tells the right realm read turned half round from the
// right realm, a realm off, and a realm turned and off.
func TestTurnedHalfRound(t *testing.T) {
	truth := models.Quad{{X: 100, Y: 600}, {X: 1100, Y: 620}, {X: 1000, Y: 100}, {X: 200, Y: 90}}
	half := models.Quad{truth[2], truth[3], truth[0], truth[1]}
	move := func(q models.Quad, dx float64) models.Quad {
		for i := range q {
			q[i].X += dx
		}
		return q
	}
	for _, tt := range []struct {
		name     string
		detected models.Quad
		want     bool
	}{
		{"right", truth, false},
		{"right, 0.5% off", move(truth, 5), false},
		{"turned", half, true},
		{"turned, 0.5% off", move(half, 5), true},
		{"turned, 3% off", move(half, 30), false},
		{"another realm", move(truth, 300), false},
	} {
		if got := turnedHalfRound(tt.detected, truth); got != tt.want {
			t.Errorf("%s: turnedHalfRound = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestScoreNamedOnNoCard scores a frame with one true card against
// observations that name it in its place, name a card where none lies,
// and leave an outline unnamed where none lies: only the second counts
// as named matching no card, and both unmatched ones cost precision.
func TestScoreNamedOnNoCard(t *testing.T) {
	square := func(x, y float64) models.Quad {
		return models.Quad{{X: x, Y: y}, {X: x + 60, Y: y}, {X: x + 60, Y: y + 80}, {X: x, Y: y + 80}}
	}
	name := func(s string) *string { return &s }
	truth := &synth.SceneTruth{Cards: []synth.CardTruth{{Name: "Bog Frog", Quad: square(100, 100), VisibleFraction: 1}}}
	obs := models.FrameObservation{Cards: []models.CardObservation{
		{Name: name("Bog Frog"), Quad: square(102, 101)},
		{Name: name("Ember Wisp"), Quad: square(400, 100)},
		{Quad: square(700, 100)},
	}}
	var log bytes.Buffer
	b := newVisionBench()
	b.log = &log
	b.score(obs, truth, "frame.jpg")
	if b.namedOnNoCard != 1 || b.wrongNames != 0 {
		t.Errorf("named matching no card %d, wrong names %d; want 1 and 0", b.namedOnNoCard, b.wrongNames)
	}
	if got := b.precision.String(); !strings.Contains(got, "(1/3)") {
		t.Errorf("precision %s, want 1 of 3", got)
	}
	if !strings.Contains(log.String(), "Ember Wisp (rotation 0) named, matching no true card") {
		t.Errorf("the misses list does not name the card:\n%s", log.String())
	}
	var report bytes.Buffer
	b.report(&report, benchVisionFlags{})
	if !strings.Contains(report.String(), "named, matching no card  1") {
		t.Errorf("the report lacks the count:\n%s", report.String())
	}
}

// TestScoreRecallNotOccluded counts the cards at least half visible of the
// frames with nothing over the realm on a line of their own: a card missed
// under a hand counts against the recall of all frames only.
func TestScoreRecallNotOccluded(t *testing.T) {
	square := func(x, y float64) models.Quad {
		return models.Quad{{X: x, Y: y}, {X: x + 60, Y: y}, {X: x + 60, Y: y + 80}, {X: x, Y: y + 80}}
	}
	name := func(s string) *string { return &s }
	cards := []synth.CardTruth{
		{Name: "Bog Frog", Quad: square(100, 100), VisibleFraction: 1},
		{Name: "Ember Wisp", Quad: square(400, 100), VisibleFraction: 0.6},
	}
	found := models.FrameObservation{Cards: []models.CardObservation{{Name: name("Bog Frog"), Quad: square(101, 100)}}}
	b := newVisionBench()
	b.score(found, &synth.SceneTruth{Cards: cards}, "clear.jpg")                // Ember Wisp missed in a clear frame
	b.score(found, &synth.SceneTruth{Cards: cards, Occluded: true}, "hand.jpg") // and under a hand
	if got := b.recall50.String(); !strings.Contains(got, "(2/4)") {
		t.Errorf("recall %s, want 2 of 4", got)
	}
	if got := b.recall50Clear.String(); !strings.Contains(got, "(1/2)") {
		t.Errorf("recall in frames not occluded %s, want 1 of 2", got)
	}
	var report bytes.Buffer
	b.report(&report, benchVisionFlags{})
	if !strings.Contains(report.String(), "in frames not occluded   50.0% (1/2)") {
		t.Errorf("the report lacks the line:\n%s", report.String())
	}
}
