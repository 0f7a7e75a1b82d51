package ui

// KeyHelp is one line of the help overlay.
type KeyHelp struct {
	Keys   string
	Action string
}

// KeyBindings lists the overlay's keys and mouse actions, as the help overlay (?) shows them.
func KeyBindings() []KeyHelp {
	return []KeyHelp{
		{"Tab", "choose the player the keys act on"},
		{"↑ / +", "life +1 (Shift: +5)"},
		{"↓ / −", "life −1 (Shift: −5)"},
		{"D", "damage 1 (Shift: 5), apart from life loss"},
		{"M", "spend 1 mana"},
		{"E", "end the turn"},
		{"C", "cast a spell: type its name, Enter"},
		{"U / Ctrl+Z", "undo the last entry"},
		{"click a card", "correct its name (type, Tab/↑↓, Enter)"},
		{"K", "recalibrate: click A1, E1, E4, A4 corners"},
		{"P / Space", "pause recognition"},
		{"R", "rectified top-down view"},
		{"[ / ]", "volume down / up"},
		{"V", "mute"},
		{"F", "full screen"},
		{"click + / −", "life of that player"},
		{"hover a cell", "the rule it breaks"},
		{"? / H", "this help"},
		{"Esc", "close / cancel"},
	}
}
