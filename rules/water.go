package rules

import (
	"regexp"

	"github.com/tablecam/tablecam/models"
)

// floodsPattern finds a card whose text floods its site: a site "Flooded."
// (Mismanaged Mortuary), or a unit "This site is flooded. It is a water
// site." (Tide Naiads). The FAQ plays a flooded site as a water site (Giant
// Shark: "by the time the "On Enter" effect would be checked, the site is
// water").
var floodsPattern = regexp.MustCompile(`(?im)^(?:this site is )?flooded\.`)

// water reports whether the site at cell c is a water site now: by its
// threshold symbols, or flooded by its own text or by a unit standing on it.
func (g *Game) water(c models.Cell) bool {
	sq := g.board.at(c)
	if sq.site == nil {
		return false
	}
	if sq.site.water() || (!sq.site.rubble() && floodsPattern.MatchString(sq.site.card.RulesText)) {
		return true
	}
	for _, u := range sq.units {
		if u.card.Type != models.Site && floodsPattern.MatchString(u.card.RulesText) {
			return true
		}
	}
	return false
}

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
		isWater := g.water(start)
		cluster := []models.Cell{}
		stack := []models.Cell{start}
		seen[start] = true
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			cluster = append(cluster, c)
			for _, n := range c.Neighbors() {
				ns := g.board.at(n).site
				if ns != nil && ns.known() && !seen[n] && g.water(n) == isWater {
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
