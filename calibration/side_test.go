package calibration

// southOf is the Options.South of a truth's north_at_bottom.
func southOf(northAtBottom bool) Side {
	if northAtBottom {
		return Top
	}
	return Bottom
}
