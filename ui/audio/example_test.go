package audio_test

import (
	"fmt"

	"github.com/tablecam/tablecam/ui/audio"
)

func ExampleSamples() {
	for _, c := range audio.Cues() {
		s := audio.Samples(c, audio.SampleRate)
		fmt.Printf("%-13s %4.0f Hz %4d ms\n", c, audio.SpecOf(c).Pitch, len(s)*1000/audio.SampleRate)
	}
	// Output:
	// site_played    330 Hz  280 ms
	// unit_summoned  660 Hz  220 ms
	// warning        880 Hz  450 ms
	// deaths_door    220 Hz  900 ms
	// death_blow     110 Hz 1400 ms
	// turn_start    1320 Hz  500 ms
}
