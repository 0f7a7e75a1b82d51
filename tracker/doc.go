// Package tracker turns the noisy stream of per-frame observations into stable board changes and
// game events, feeds them to the rules, and keeps an append-only journal with undo, corrections and
// replay. It is pure Go.
//
// A Tracker reads frames (models.FrameObservation) in order. Each cell is watched on three
// channels (its site, its units, the spells on it); a new reading is accepted once it has held
// for the stability window, measured in video time over the frames that could read it, with a
// quorum so that one misread frame does not reset it. Occluded frames and cards read with low
// confidence add no evidence; a card seen but not identified keeps the identity its cell is known
// to hold. Accepted changes become the events of `tablecam rules` (site_played, unit_summoned,
// unit_moved, card_tapped, …): a card that leaves one cell and settles in another is a move (also
// when it settles next door as a card vision cannot name: it keeps its name), two copies are told
// apart by position, a card covered by another stays on the board hidden (even
// when it shows in part now and then) until what still shows of it says it left (ObserveWith,
// HiddenSight); a card in sight that vision does not read on a frame while its place still looks
// as it did (a HiddenSight of an InSight card) is still there, so that vision losing a card for
// a moment makes no removal and no return, and a card that leaves while a move waits and comes
// back to its own cell never left; a site under units is accepted from names voted across
// frames (read even with low confidence, forgotten after a few seconds), and the turn is inferred
// from untaps and from who plays. The start phase untaps the player's hidden cards too; one
// that shows again tapped in the same reading was tapped again since (card_tapped follows).
// A change accepted long after the last hand left is a card vision found late, and says nothing
// of whose turn it is. A card seen but not identified in the place where a named unit of its
// owner was last read, turned, is that unit tapped or untapped (when nothing else explains it).
//
// A card the catalog lacks (an opponent's deck never scanned, a new set) is still a card on the
// board: one that stays neither identified nor recognised as a card its cell holds for UnnamedHold
// (default 1 s) is taken in play unnamed, and its events carry no name and Unnamed; an Avatar
// that cannot be named is the player's unnamed card nearest their home cell at game_start (the
// Seat is Unnamed, or named SouthAvatar/NorthAvatar when configured), and one vision never
// finds is taken unseen (hidden) in its home cell once the realm has shown cards for 1.5 s.
// Taking an unnamed card off the board waits UnnamedHold as well (an unnamed site three times
// as long), since a card without a face to match is found less surely. When later frames name
// an unnamed card, card_named gives it that name from then on; a player's rename correction
// names it from the event that brought it into play.
//
// A Game records events, manual inputs, undos and corrections in a Journal (JSONL, synced per
// entry) and rebuilds the rules' state from it; ReadJournal and LoadGame replay a journal after
// a crash, skipping a last line cut short.
package tracker
