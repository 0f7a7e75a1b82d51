package models

import (
	"fmt"
	"strings"
)

// The realm is 5 columns (A–E, left to right as the south player sees it) by
// 4 rows (1–4, from the south player towards the north player).
const (
	Columns = 5
	Rows    = 4
)

// Cell is one location of the realm. Col 0 is column A and Row 0 is row 1, so
// the zero value is A1.
type Cell struct {
	Col, Row int
}

// ErrBadCell is wrapped by ParseCell when a cell name is not A1–E4.
var ErrBadCell = fmt.Errorf("not a realm cell (A1–E4)")

// ParseCell reads a cell name such as "C1" (case-insensitive).
func ParseCell(s string) (Cell, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if len(t) != 2 || t[0] < 'A' || t[0] > 'A'+Columns-1 || t[1] < '1' || t[1] > '0'+Rows {
		return Cell{}, fmt.Errorf("cell %q: %w", s, ErrBadCell)
	}
	return Cell{Col: int(t[0] - 'A'), Row: int(t[1] - '1')}, nil
}

// MustCell is ParseCell for constants in code and tests; it panics on a bad name.
func MustCell(s string) Cell {
	c, err := ParseCell(s)
	if err != nil {
		panic(err)
	}
	return c
}

// Valid reports whether c lies inside the realm.
func (c Cell) Valid() bool { return c.Col >= 0 && c.Col < Columns && c.Row >= 0 && c.Row < Rows }

// String gives the cell's name, such as "C1".
func (c Cell) String() string {
	if !c.Valid() {
		return fmt.Sprintf("Cell(%d,%d)", c.Col, c.Row)
	}
	return string([]byte{byte('A' + c.Col), byte('1' + c.Row)})
}

// Index numbers the cells 0–19 row by row from A1.
func (c Cell) Index() int { return c.Row*Columns + c.Col }

// CellAt is the inverse of Index.
func CellAt(index int) Cell { return Cell{Col: index % Columns, Row: index / Columns} }

// AllCells lists the 20 cells in index order (A1, B1, … E1, A2, …).
func AllCells() []Cell {
	cells := make([]Cell, 0, Columns*Rows)
	for i := 0; i < Columns*Rows; i++ {
		cells = append(cells, CellAt(i))
	}
	return cells
}

// Neighbors lists the orthogonally adjacent cells inside the realm.
func (c Cell) Neighbors() []Cell {
	var out []Cell
	for _, d := range [4][2]int{{0, -1}, {-1, 0}, {1, 0}, {0, 1}} {
		n := Cell{Col: c.Col + d[0], Row: c.Row + d[1]}
		if n.Valid() {
			out = append(out, n)
		}
	}
	return out
}

// Adjacent reports whether c and d share an edge.
func (c Cell) Adjacent(d Cell) bool { return c.Distance(d) == 1 }

// Nearby reports whether d is c or one of the eight cells around it,
// diagonals included (the rulebook's Adjacent and Nearby: "the card's own
// location, and all squares that surround it").
func (c Cell) Nearby(d Cell) bool { return abs(c.Col-d.Col) <= 1 && abs(c.Row-d.Row) <= 1 }

// Distance is the Manhattan distance between two cells.
func (c Cell) Distance(d Cell) int { return abs(c.Col-d.Col) + abs(c.Row-d.Row) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// MarshalText writes the cell's name.
func (c Cell) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("cell %v: %w", c, ErrBadCell)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a cell's name.
func (c *Cell) UnmarshalText(b []byte) error {
	v, err := ParseCell(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
