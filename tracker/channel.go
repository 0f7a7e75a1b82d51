package tracker

// sample is one frame's reading of one channel: how much video time the frame
// stands for and what it read, as a key.
type sample struct {
	at    float64 // video time of the frame
	dur   float64
	key   string
	cards []seen
	// carried marks a reading completed with identities the tracker already
	// knew, rather than read with confidence.
	carried bool
	// unnamed marks a reading with a card that has no name: one the cell
	// holds unnamed, or a new one.
	unnamed bool
	// hold is how long, in seconds, the reading must hold before it is
	// accepted when that is longer than the window: a reading that puts an
	// unnamed card on the board or takes one off (see check).
	hold float64
}

// channel decides when one thing about one cell (its site, its units, the
// spells on it) has changed for good. Each frame that reads the channel
// adds a sample; a new reading is accepted once it fills the stability
// window with a quorum. Frames that could not read the channel (occluded,
// low confidence) add nothing, so they neither confirm nor deny a change.
type channel struct {
	accepted string
	samples  []sample
	// unsettled counts the frames in a row that saw something other than
	// the accepted reading, readable or not.
	unsettled int
}

// saw records whether a frame agreed with the accepted reading.
func (c *channel) saw(agrees bool) {
	if agrees {
		c.unsettled = 0
	} else {
		c.unsettled++
	}
}

// add records a frame's reading and forgets samples older than keep seconds
// of observed time. hold is how long the reading must hold (see check).
func (c *channel) add(at, dur float64, cards []seen, carried bool, hold, keep float64) {
	c.samples = append(c.samples, sample{at, dur, key(cards), cards, carried, hasUnnamed(cards), hold})
	total := 0.0
	for i := len(c.samples) - 1; i >= 0; i-- {
		total += c.samples[i].dur
		if total > keep {
			c.samples = append(c.samples[:0], c.samples[i:]...)
			return
		}
	}
}

// expire forgets the samples of frames before the given video time.
func (c *channel) expire(before float64) {
	i := 0
	for i < len(c.samples) && c.samples[i].at < before {
		i++
	}
	if i > 0 {
		c.samples = append(c.samples[:0], c.samples[i:]...)
	}
}

// check gives the new reading when the latest sample differs from the
// accepted one and the new reading has held for the window: the stretch
// from its first sample to now covers at least window seconds of observed
// frames, and the new reading fills at least quorum of it (so a misread
// frame inside the stretch does not reset it). A reading that puts an
// unnamed card on the board or takes one off must stay for its own hold,
// times scale when scale is more than 1, when that is longer (a shorter
// window, as when a reading joins another change, never shortens it): a
// card being put down is often unidentified for a few frames before it is
// named, and a card without a face to match is found less surely than one
// with. Frames read with an
// unnamed card say nothing
// for or against a reading that names every card, as frames that could not
// be read at all: after such a frame, the latest reading that names every
// card, if it is recent (within window), is checked as if it were not there.
func (c *channel) check(window, scale, quorum float64) ([]seen, bool) {
	if len(c.samples) == 0 {
		return nil, false
	}
	last := c.samples[len(c.samples)-1]
	w := max(window, last.hold*max(scale, 1))
	if !last.unnamed {
		if last.key == c.accepted {
			return nil, false
		}
		return c.holds(last, w, quorum)
	}
	if last.key != c.accepted {
		if cards, ok := c.holds(last, w, quorum); ok {
			return cards, true
		}
	}
	for i := len(c.samples) - 1; i >= 0 && c.samples[i].at > last.at-window-1e-9; i-- {
		if s := c.samples[i]; !s.unnamed {
			if s.key == c.accepted {
				return nil, false
			}
			return c.holds(s, max(window, s.hold*max(scale, 1)), quorum)
		}
	}
	return nil, false
}

// holds is check for one candidate reading, last.
func (c *channel) holds(last sample, window, quorum float64) ([]seen, bool) {
	total, support := 0.0, 0.0
	for i := len(c.samples) - 1; i >= 0; i-- {
		s := c.samples[i]
		if s.unnamed && !last.unnamed {
			continue
		}
		total += s.dur
		if s.key == last.key {
			support += s.dur
			// The stretch starts on a sample of the new reading.
			if total >= window-1e-9 {
				return last.cards, support >= quorum*total
			}
		}
	}
	return nil, false
}

// majority gives the reading that held most of the last window seconds
// among the frames read with confidence, the share of their time it held,
// and whether the channel has read anything with confidence at all. Frames
// read with an unnamed card count only when no frame named every card.
func (c *channel) majority(window float64) ([]seen, float64, bool) {
	time := map[string]float64{}
	cards := map[string][]seen{}
	total := 0.0
	read := 0.0
	named := false
	for i := len(c.samples) - 1; i >= 0 && total < window; i-- {
		s := c.samples[i]
		total += s.dur
		named = named || !s.carried && !s.unnamed
	}
	total = 0
	for i := len(c.samples) - 1; i >= 0 && total < window; i-- {
		s := c.samples[i]
		if s.unnamed && named {
			continue // as a frame that read nothing
		}
		total += s.dur
		if s.carried {
			continue // only what was read with confidence decides
		}
		read += s.dur
		time[s.key] += s.dur
		cards[s.key] = s.cards
	}
	best, bestTime := "", -1.0
	for k, v := range time {
		if v > bestTime || v == bestTime && k < best {
			best, bestTime = k, v
		}
	}
	if bestTime < 0 {
		return nil, 0, false
	}
	return cards[best], bestTime / read, true
}

// pending reports whether any reading of the last window seconds differs
// from the accepted one: a change may be under way.
func (c *channel) pending(window float64) bool {
	total := 0.0
	for i := len(c.samples) - 1; i >= 0 && total < window; i-- {
		if c.samples[i].key != c.accepted {
			return true
		}
		total += c.samples[i].dur
	}
	return false
}

// becoming gives what the cell seems to be becoming: the reading that most
// of the confident samples of the last window agree on, when at least votes
// of them do and they are more than share of them. It never rests on carried
// samples, so a misread cannot feed on itself, nor on unnamed ones, which
// name nothing.
func (c *channel) becoming(window float64, votes int, share float64) ([]seen, bool) {
	count := map[string]int{}
	cards := map[string][]seen{}
	n, total := 0, 0.0
	for i := len(c.samples) - 1; i >= 0 && total < window; i-- {
		s := c.samples[i]
		if s.unnamed {
			continue // as a frame that read nothing
		}
		total += s.dur
		if s.carried {
			continue
		}
		n++
		count[s.key]++
		if cards[s.key] == nil {
			cards[s.key] = s.cards
		}
	}
	for k, v := range count {
		if v >= votes && float64(v) > share*float64(n) {
			return cards[k], true
		}
	}
	return nil, false
}
