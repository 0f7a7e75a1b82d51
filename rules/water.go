package rules

import (
	"github.com/tablecam/tablecam/models"
)

// groupings finds the bodies of water (orthogonal clusters of water sites) and
// the spans of land (orthogonal clusters of land sites, Rubble included) of the
// realm. Each cluster lists its cells in sorted order; clusters are sorted by
// their first cell. An unnamed site, whose element is unknown, is in neither.
func (g *Game) groupings() (water, land [][]models.Cell) {
	seen := map[models.Cell]bool{}
	water, land = [][]models.Cell{}, [][]models.Cell{}
	for _, start := range sortedCells() {
		s := g.board.at(start).site
		if s == nil || !s.known() || seen[start] {
			continue
		}
		isWater := s.water()
		cluster := []models.Cell{}
		stack := []models.Cell{start}
		seen[start] = true
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			cluster = append(cluster, c)
			for _, n := range c.Neighbors() {
				ns := g.board.at(n).site
				if ns != nil && ns.known() && !seen[n] && ns.water() == isWater {
					seen[n] = true
					stack = append(stack, n)
				}
			}
		}
		sortCells(cluster)
		if isWater {
			water = append(water, cluster)
		} else {
			land = append(land, cluster)
		}
	}
	return water, land
}
