package pipeline

import (
	"context"
	"testing"
	"time"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// namingAnalyzer reads the two Avatars and a unit in C2 that it names only
// on frames from namedFrom on, as vision names a card on the edge of being
// named on some re-reads of a still scene and not on others.
type namingAnalyzer struct {
	namedFrom int
	frames    []int // the frames read
}

func (a *namingAnalyzer) Analyze(frame gocv.Mat, _ *calibration.Calibration) (models.FrameObservation, error) {
	i := int(frame.GetUCharAt(0, 0)) + 256*int(frame.GetUCharAt(0, 1))
	a.frames = append(a.frames, i)
	card := func(cell, name string, typ models.CardType, owner models.Player) models.CardObservation {
		t := string(typ)
		return models.CardObservation{Cell: models.CellPtr(models.MustCell(cell)), Name: &name, Type: &t,
			Kind: models.KindStandard, Owner: owner, Rotation: models.RotationFor(owner, false), Confidence: 0.95}
	}
	obs := models.FrameObservation{Cards: []models.CardObservation{
		card("C1", "Lantern Warden", models.Avatar, models.South),
		card("C4", "Tide Oracle", models.Avatar, models.North),
		card("C2", "Ember Whelp", models.Minion, models.South),
	}}
	if i < a.namedFrom {
		obs.Cards[2].Name, obs.Cards[2].Type, obs.Cards[2].Confidence = nil, nil, 0.2
	}
	return obs, nil
}

// A still scene whose reference reading holds a card vision did not name is
// given to vision again for a while, so that its re-reads can name it: the
// change gate alone would spare every frame but one in gateMaxSkip. A card
// that stays unnamed is not read again for ever.
func TestStillSceneIsReadAgainToNameItsCards(t *testing.T) {
	run := func(namedFrom int) (named int, reads []int) {
		c := corners
		a := &namingAnalyzer{namedFrom: namedFrom}
		cfg := Config{Source: &scriptSource{n: 120}, Catalog: sampleCatalog(t), Corners: &c, Analyzer: a,
			Journal: t.TempDir() + "/game.jsonl", Retry: time.Millisecond, MaxRetry: 4 * time.Millisecond, Log: &syncBuffer{}}
		s, err := Start(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		named = -1
		for u := range s.Updates() {
			for _, ev := range u.Events {
				if ev.Type == models.CardNamed && ev.Card == "Ember Whelp" && named < 0 {
					named = u.Frame
				}
			}
		}
		if err := s.Wait(); err != nil {
			t.Fatal(err)
		}
		return named, a.frames
	}
	// The game starts on frame 14 with the unit unnamed; vision could name
	// it from frame 20 on, and the gate's next forced read is frame 45.
	if named, reads := run(20); named < 0 || named >= 30 {
		t.Errorf("the unit was named on frame %d (-1: never), want before 30; frames read: %v", named, reads)
	}
	if _, reads := run(1000); len(reads) > 15+16+4 {
		t.Errorf("a card never named: %d frames of 120 read, want at most %d: %v", len(reads), 15+16+4, reads)
	}
}
