package live

import (
	"fmt"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/rules"
	"github.com/tablecam/tablecam/tracker"
	"github.com/tablecam/tablecam/ui"
)

// HistoryLength is how many events of a resumed game the overlay lists.
const HistoryLength = 40

// Resumed is what the overlay shows of a resumed game's past.
type Resumed struct {
	// Events are its last events in force, oldest first.
	Events []ui.Recent
	// Warnings are the rule warnings raised in its current turn.
	Warnings []models.Warning
}

// History reads the game in a journal and gives its last n events in force
// (after the undos and corrections it records, as the game goes on), each
// with the time it was recorded, oldest first, and the warnings raised in
// its current turn: what the overlay shows when the game is resumed. A last
// line cut short by a crash is skipped, as the resumed game skips it.
func History(journal string, cat *models.Catalog, n int) (Resumed, error) {
	entries, _, err := tracker.ReadJournal(journal)
	if err != nil {
		return Resumed{}, fmt.Errorf("the game to resume: %w", err)
	}
	newRules := func() *rules.Game { return rules.NewGame(cat) }
	game := tracker.LoadGame(func() tracker.Rules { return newRules() }, entries, nil, cat)
	all := game.Events()

	// The state keeps only the last event's warnings: replay the events in
	// force to collect the current turn's.
	var res Resumed
	replay := newRules()
	turn, active := 0, models.NoPlayer
	for _, ev := range all {
		ws, err := replay.Apply(ev)
		if err != nil {
			continue // the game refused it too
		}
		if st := replay.State(); st.Turn != turn || st.Active != active {
			turn, active, res.Warnings = st.Turn, st.Active, nil
		}
		res.Warnings = append(res.Warnings, ws...)
	}

	events := all[max(0, len(all)-n):]
	res.Events = make([]ui.Recent, len(events))
	// The events in force are the journal's event entries, less those undone
	// or dropped, in order, some corrected (a name, an owner): walk both
	// backwards, matching each event to the latest entry it can come from.
	next := len(entries) - 1
	for i := len(events) - 1; i >= 0; i-- {
		res.Events[i] = ui.Recent{Event: events[i], Earlier: true}
		for j := next; j >= 0; j-- {
			e := entries[j]
			if e.Kind == tracker.EntryEvent && e.Event != nil && sameHappening(*e.Event, events[i]) {
				res.Events[i].Clock = e.At
				next = j - 1
				break
			}
		}
	}
	return res, nil
}

// sameHappening reports whether a journal's event and an event in force
// are the same happening, whatever a correction changed (a card's name or
// owner).
func sameHappening(a, b models.Event) bool {
	return a.Type == b.Type && sameCell(a.Cell, b.Cell) && sameCell(a.From, b.From) && sameCell(a.To, b.To) &&
		a.Amount == b.Amount && sameFrame(a.Frame, b.Frame)
}

func sameCell(a, b *models.Cell) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func sameFrame(a, b *int) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
