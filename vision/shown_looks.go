package vision

import "github.com/tablecam/tablecam/models"

// shownLooks holds the colour thumbnails (warpLook) of what the camera
// shows of the cards of the frame being read, by outline and size: the
// colour cast, the tone checks and the search for tokens on named cards
// read the same cards' thumbnails. It is emptied at each frame; its
// buffers are kept.
type shownLooks struct {
	n    int
	keys []shownLookKey
	px   [][]byte
}

// shownLookKey is what a thumbnail is warped from: a card's outline (top-
// down pixels), the thumbnail's size and the colour image's scale.
type shownLookKey struct {
	quad  models.Quad
	w, h  int
	scale float64
}

// shownLooksMax bounds the thumbnails kept in a frame; those beyond are
// warped each time they are wanted.
const shownLooksMax = 64

// reset empties the thumbnails kept, for a new frame.
func (s *shownLooks) reset() { s.n = 0 }

// shownLook gives the w × h colour thumbnail (BGR) of what the frame's
// colour top-down image shows in quad (top-down pixels of v), warped once a
// frame. The bytes given must not be changed.
func (a *Analyzer) shownLook(v *view, quad models.Quad, w, h int) ([]byte, bool) {
	colour := a.images.small
	if colour.Empty() || v.size.X <= 0 {
		return nil, false
	}
	key := shownLookKey{quad: quad, w: w, h: h, scale: float64(colour.Cols()) / float64(v.size.X)}
	s := &a.shown
	for i := range s.n {
		if s.keys[i] == key {
			return s.px[i], true
		}
	}
	if s.n >= shownLooksMax {
		return warpLook(colour, key.scale, [4]models.Point(quad), w, h)
	}
	if s.n == len(s.keys) {
		s.keys, s.px = append(s.keys, shownLookKey{}), append(s.px, nil)
	}
	buf := s.px[s.n]
	if cap(buf) < 3*w*h {
		buf = make([]byte, 3*w*h)
	}
	out, ok := warpLookInto(buf[:3*w*h], colour, key.scale, [4]models.Point(quad), w, h)
	if !ok {
		return nil, false
	}
	s.keys[s.n], s.px[s.n] = key, out
	s.n++
	return out, true
}
