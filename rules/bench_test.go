package rules

import (
	"os"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// BenchmarkReplayWholeGame replays the bundled whole sample game (163 events),
// taking the state after every event as "tablecam rules" does.
func BenchmarkReplayWholeGame(b *testing.B) {
	cat, err := models.LoadCatalog("../samples/catalog")
	if err != nil {
		b.Skip(err)
	}
	f, err := os.Open("../samples/games/whole-game.jsonl")
	if err != nil {
		b.Skip(err)
	}
	evs, err := ParseEvents(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g := NewGame(cat)
		for _, ev := range evs {
			if _, err := g.Apply(ev); err != nil {
				b.Fatal(err)
			}
			_ = g.State()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}
