package calibration

import (
	"testing"

	"gocv.io/x/gocv"
)

// BenchmarkDetect measures automatic detection on varied synthetic 1280×720 scenes.
func BenchmarkDetect(b *testing.B) {
	scenes := variedScenes(8, 3)
	frames := make([]gocv.Mat, len(scenes))
	for i, s := range scenes {
		frames[i], _ = s.render(b)
		defer frames[i].Close()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Detect(frames[i%len(frames)], Options{}); err != nil {
			b.Log(err)
		}
	}
}

// BenchmarkDrifted measures the drift check on a 1280×720 frame.
func BenchmarkDrifted(b *testing.B) {
	frame, _ := variedScenes(1, 4)[0].render(b)
	defer frame.Close()
	c, err := Detect(frame, Options{})
	if err != nil {
		b.Skip(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Drifted(frame)
	}
}
