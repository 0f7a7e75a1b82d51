package vision

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkReadRegion times readRegion (a card region's own reading, as
// nameOutline and Identify read one) on the outlines of the cards matched
// in ten bundled stills, in CPU time of one locked thread per region,
// against the sample catalog or, with -stages.extra-faces, 1,104 faces.
func BenchmarkReadRegion(b *testing.B) {
	prev := SetOpenCVThreads(1)
	defer SetOpenCVThreads(prev)
	cat := devCatalog(b)
	if *stagesExtraFaces != "" {
		cat = stagesCatalog(b)
	}
	a, err := NewAnalyzer(cat, Options{CacheDir: cacheDirFor(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	searches := stackedSearches(b, a, 10)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	named, regions := 0, 0
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range searches {
			for _, d := range s.dets {
				start := preciseThreadCPU()
				_, _, ok := a.readRegion(s.gray, d.quad)
				cpu += preciseThreadCPU() - start
				regions++
				if ok {
					named++
				}
			}
		}
	}
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(regions), "cpu-ms/region")
	b.ReportMetric(float64(named)/float64(regions), "named")
}
