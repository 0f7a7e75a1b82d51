package vision

import "io"

// Options tune an Analyzer. The zero value is ready to use.
type Options struct {
	// PxPerMM is the scale of the top-down image the analyzer reads cards in
	// and of the reference faces it indexes; 0 means 2, or 1.2 for a frame whose
	// realm the camera shows at less than 1 px/mm (see lowReadScale).
	PxPerMM float64
	// MarginMM is how far around the realm, in millimetres, cards are looked
	// for (cards off the grid on the mat); 0 means 90, negative means none.
	MarginMM float64
	// Features is the number of ORB keypoints kept per reference face; 0 means 400.
	Features int
	// FrameFeatures is the number of ORB keypoints read from one frame; 0
	// means 7000. The weakest corners a larger budget adds lie mostly on the
	// bare mat, where matching looks them up in every hash table for nothing:
	// 10000 cost 2.2 ms more a frame and found the same cards.
	FrameFeatures int
	// CacheDir holds the on-disk index cache; "" means os.UserCacheDir()/tablecam.
	CacheDir string
	// NoCache neither reads nor writes the on-disk index cache.
	NoCache bool
	// Progress, when not nil, receives a progress bar while a large catalog
	// (more than 60 faces) is indexed, and a line when a corrupt cache is rebuilt.
	Progress io.Writer
	// NoReuse turns off the steady-state path: every Analyze call reads the
	// whole frame even when no cell changed since the last stable frame.
	NoReuse bool
	// PortraitSiteTopRight says which way a site scan stored portrait is
	// turned. False (the default) means the site's top edge lies along the
	// portrait image's left edge, so the scan is turned clockwise to read it;
	// true means the top edge lies along the right edge.
	PortraitSiteTopRight bool
}

func (o Options) pxPerMM() float64 {
	if o.PxPerMM <= 0 {
		return fullReadScale
	}
	return o.PxPerMM
}

func (o Options) marginMM() float64 {
	switch {
	case o.MarginMM < 0:
		return 0
	case o.MarginMM == 0:
		return 90
	}
	return o.MarginMM
}

func (o Options) features() int {
	if o.Features <= 0 {
		return 400
	}
	return o.Features
}

func (o Options) frameFeatures() int {
	if o.FrameFeatures <= 0 {
		return 7000
	}
	return o.FrameFeatures
}
