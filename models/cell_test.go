package models

import "testing"

// TestCellNearby checks Nearby against the rulebook's nine squares: the
// cell itself and the eight around it, diagonals included.
func TestCellNearby(t *testing.T) {
	c := Cell{Col: 2, Row: 1} // C2
	for _, tc := range []struct {
		d    Cell
		want bool
	}{
		{Cell{Col: 2, Row: 1}, true},
		{Cell{Col: 1, Row: 1}, true},
		{Cell{Col: 3, Row: 2}, true},
		{Cell{Col: 1, Row: 0}, true},
		{Cell{Col: 4, Row: 1}, false},
		{Cell{Col: 2, Row: 3}, false},
		{Cell{Col: 0, Row: 3}, false},
	} {
		if got := c.Nearby(tc.d); got != tc.want {
			t.Errorf("%v nearby %v: %v, want %v", c, tc.d, got, tc.want)
		}
		if got := tc.d.Nearby(c); got != tc.want {
			t.Errorf("%v nearby %v: %v, want %v", tc.d, c, got, tc.want)
		}
	}
}
