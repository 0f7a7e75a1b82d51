package models

import (
	"fmt"
	"strings"
)

// Element is one of the four elements of Sorcery.
type Element int8

const (
	Air Element = iota
	Earth
	Fire
	Water
)

// Elements lists the four elements in the order the rules print them.
var Elements = [4]Element{Air, Earth, Fire, Water}

// String gives the lower-case name, such as "fire".
func (e Element) String() string {
	switch e {
	case Air:
		return "air"
	case Earth:
		return "earth"
	case Fire:
		return "fire"
	case Water:
		return "water"
	}
	return fmt.Sprintf("Element(%d)", int(e))
}

// ParseElement reads an element name in any case ("Fire", "water").
func ParseElement(s string) (Element, error) {
	for _, e := range Elements {
		if strings.EqualFold(strings.TrimSpace(s), e.String()) {
			return e, nil
		}
	}
	return 0, fmt.Errorf("element %q: want air, earth, fire or water", s)
}

// Thresholds counts threshold symbols per element. On a site it is the
// affinity the site provides; on a spell it is what the caster must have.
type Thresholds struct {
	Air   int `json:"air"`
	Earth int `json:"earth"`
	Fire  int `json:"fire"`
	Water int `json:"water"`
}

// Get returns the count for one element.
func (t Thresholds) Get(e Element) int {
	switch e {
	case Air:
		return t.Air
	case Earth:
		return t.Earth
	case Fire:
		return t.Fire
	case Water:
		return t.Water
	}
	return 0
}

// With returns a copy with element e set to n.
func (t Thresholds) With(e Element, n int) Thresholds {
	switch e {
	case Air:
		t.Air = n
	case Earth:
		t.Earth = n
	case Fire:
		t.Fire = n
	case Water:
		t.Water = n
	}
	return t
}

// Add sums two threshold counts element by element.
func (t Thresholds) Add(u Thresholds) Thresholds {
	return Thresholds{t.Air + u.Air, t.Earth + u.Earth, t.Fire + u.Fire, t.Water + u.Water}
}

// Meets reports whether an affinity t satisfies the requirement need.
func (t Thresholds) Meets(need Thresholds) bool {
	return t.Air >= need.Air && t.Earth >= need.Earth && t.Fire >= need.Fire && t.Water >= need.Water
}

// Missing lists what t lacks to meet need, per element (zero where met).
func (t Thresholds) Missing(need Thresholds) Thresholds {
	var m Thresholds
	for _, e := range Elements {
		if d := need.Get(e) - t.Get(e); d > 0 {
			m = m.With(e, d)
		}
	}
	return m
}

// IsZero reports whether no element has any symbol.
func (t Thresholds) IsZero() bool { return t == Thresholds{} }

// String writes the non-zero counts, such as "1 air, 2 water", or "none".
func (t Thresholds) String() string {
	var parts []string
	for _, e := range Elements {
		if n := t.Get(e); n != 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, e))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
