package rules

import (
	"sort"

	"github.com/tablecam/tablecam/models"
)

// sortedCells lists the 20 cells in the order tablecam sorts cells in output:
// by name, so column by column (A1, A2, A3, A4, B1, …).
func sortedCells() []models.Cell {
	cells := make([]models.Cell, 0, models.Columns*models.Rows)
	for col := 0; col < models.Columns; col++ {
		for row := 0; row < models.Rows; row++ {
			cells = append(cells, models.Cell{Col: col, Row: row})
		}
	}
	return cells
}

// sortCells sorts cells by name.
func sortCells(cells []models.Cell) {
	sort.Slice(cells, func(i, j int) bool { return cellLess(cells[i], cells[j]) })
}

func cellLess(a, b models.Cell) bool {
	if a.Col != b.Col {
		return a.Col < b.Col
	}
	return a.Row < b.Row
}
