package rules

import (
	"fmt"
	"io"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// BoardLegend explains the compact board of WriteText.
const BoardLegend = "board: s/n = site of south/north, ~ = water site, # = Rubble, . = void; @ = Avatar, digit = other units"

// DescribeEvent writes an event in one short line, such as
// "site_played south C1 Arid Desert" or "unit_moved Scout C1→C2".
func DescribeEvent(ev models.Event) string {
	parts := []string{string(ev.Type)}
	if ev.Type == models.GameStart {
		for _, s := range []struct {
			p    string
			seat *models.Seat
		}{{"south", ev.South}, {"north", ev.North}} {
			switch {
			case s.seat != nil && s.seat.Unnamed:
				parts = append(parts, s.p+" (unnamed)")
			case s.seat != nil:
				parts = append(parts, s.p+" "+s.seat.Avatar)
			}
		}
		if ev.First != models.NoPlayer {
			parts = append(parts, "first "+ev.First.String())
		}
		return strings.Join(parts, " ")
	}
	if ev.Player != models.NoPlayer {
		parts = append(parts, ev.Player.String())
	}
	if ev.Cell != nil {
		parts = append(parts, ev.Cell.String())
	}
	if ev.Card != "" {
		parts = append(parts, ev.Card)
	} else if ev.Unnamed {
		parts = append(parts, "(unnamed)")
	}
	if ev.From != nil && ev.To != nil {
		parts = append(parts, ev.From.String()+"→"+ev.To.String())
	}
	if ev.Amount != 0 {
		parts = append(parts, fmt.Sprint(ev.Amount))
	}
	return strings.Join(parts, " ")
}

// WriteText writes a game state as readable text: the event, the turn, each
// player's line, a compact board, what each cell holds, the water and land
// groupings and the event's warnings.
func WriteText(w io.Writer, ev models.Event, st models.GameState) error {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s\n", st.Event, DescribeEvent(ev))
	switch {
	case st.Winner != models.NoPlayer:
		fmt.Fprintf(&b, "   turn %d, game over: %s wins by a death blow\n", st.Turn, st.Winner)
	case st.Turn == 0 && st.Active != models.NoPlayer:
		fmt.Fprintf(&b, "   before the first turn; %s goes first\n", st.Active)
	case st.Active != models.NoPlayer:
		fmt.Fprintf(&b, "   turn %d, %s active\n", st.Turn, st.Active)
	default:
		fmt.Fprintf(&b, "   turn %d\n", st.Turn)
	}
	for _, p := range models.Players {
		ps := st.Players[p.String()]
		life := fmt.Sprint(ps.Life)
		if ps.Defeated {
			life += " DEFEATED"
		} else if ps.DeathsDoor {
			life += " (death's door)"
		}
		sites := "-"
		if len(ps.Sites) > 0 {
			sites = cellList(ps.Sites)
		}
		avatar, affinity := ps.Avatar, ps.Affinity.String()
		if avatar == "" {
			avatar = "(unnamed Avatar)"
		}
		if ps.UnnamedSites > 0 {
			affinity += fmt.Sprintf(" + %d unnamed site(s)", ps.UnnamedSites)
		}
		fmt.Fprintf(&b, "   %s %s: life %s, mana %d/%d, affinity %s; sites %s\n",
			p, avatar, life, ps.Mana.Available, ps.Mana.Total, affinity, sites)
	}
	water := map[models.Cell]bool{}
	for _, body := range st.Realm.BodiesOfWater {
		for _, c := range body {
			water[c] = true
		}
	}
	b.WriteString("        A     B     C     D     E\n")
	for row := models.Rows - 1; row >= 0; row-- {
		line := fmt.Sprintf("     %d ", row+1)
		for col := 0; col < models.Columns; col++ {
			line += fmt.Sprintf(" %-5s", cellCode(st, models.Cell{Col: col, Row: row}, water))
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	for _, c := range sortedCells() {
		cs, ok := st.Realm.Cells[c.String()]
		if !ok {
			continue
		}
		where := "void"
		if cs.Site != nil {
			where = cs.Site.Card
			if cs.Site.Unnamed {
				where = "(unnamed site)"
			}
			if cs.Site.Controller != models.NoPlayer {
				where += " (" + cs.Site.Controller.String() + ")"
			}
		}
		var units []string
		for _, u := range cs.Units {
			tags := []string{u.Owner.String()}
			if u.Tapped {
				tags = append(tags, "tapped")
			}
			if u.EnteredThisTurn {
				tags = append(tags, "new")
			}
			name := u.Card
			switch {
			case u.Unnamed && u.Avatar:
				name = "(unnamed Avatar)"
			case u.Unnamed:
				name = "(unnamed)"
			}
			units = append(units, fmt.Sprintf("%s (%s)", name, strings.Join(tags, ", ")))
		}
		line := "   " + c.String() + " " + where
		if len(units) > 0 {
			line += ": " + strings.Join(units, ", ")
		}
		b.WriteString(line + "\n")
	}
	fmt.Fprintf(&b, "   bodies of water %s; spans of land %s\n", clusterList(st.Realm.BodiesOfWater), clusterList(st.Realm.SpansOfLand))
	for _, wn := range st.Warnings {
		who := wn.Player.String()
		if len(wn.Cells) > 0 {
			who += " " + cellList(wn.Cells)
		}
		fmt.Fprintf(&b, "   ! %s (%s): %s\n", wn.Code, who, wn.Message)
	}
	for _, wn := range st.OtherStanding() {
		who := wn.Player.String()
		if len(wn.Cells) > 0 {
			who += " " + cellList(wn.Cells)
		}
		fmt.Fprintf(&b, "   standing %s (%s): %s\n", wn.Code, who, wn.Message)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cellCode is a cell of the compact board: the site's mark, "~" for a water
// site, "@" per Avatar and the count of other units.
func cellCode(st models.GameState, c models.Cell, water map[models.Cell]bool) string {
	cs, ok := st.Realm.Cells[c.String()]
	if !ok {
		return "."
	}
	var s string
	switch {
	case cs.Site == nil:
		s = "."
	case cs.Site.Controller == models.NoPlayer:
		s = "#"
	case cs.Site.Controller == models.North:
		s = "n"
	default:
		s = "s"
	}
	if water[c] {
		s += "~"
	}
	others := 0
	for _, u := range cs.Units {
		if u.Avatar {
			s += "@"
		} else {
			others++
		}
	}
	if others > 0 {
		s += fmt.Sprint(others)
	}
	return s
}

func cellList(cs []models.Cell) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.String()
	}
	return strings.Join(s, " ")
}

func clusterList(gs [][]models.Cell) string {
	if len(gs) == 0 {
		return "-"
	}
	s := make([]string, len(gs))
	for i, g := range gs {
		s[i] = "[" + cellList(g) + "]"
	}
	return strings.Join(s, " ")
}
