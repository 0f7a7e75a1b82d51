package pipeline

import (
	"fmt"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/tracker"
)

// typedByPlayers reports whether players type events of this type; the
// camera sees the others.
func typedByPlayers(t models.EventType) bool {
	switch t {
	case models.LifeGain, models.LifeLoss, models.Damage, models.ManaSpent,
		models.TurnStart, models.TurnEnd, models.SpellCast:
		return true
	}
	return false
}

// Manual records an event typed by a player: life_gain, life_loss, damage,
// mana_spent, spell_cast, turn_start or turn_end. An event the rules refuse
// is an error and changes nothing but the journal, which keeps it.
func (s *Session) Manual(ev models.Event) error {
	if !typedByPlayers(ev.Type) {
		return fmt.Errorf("pipeline: %q is not typed by players (the camera sees it)", ev.Type)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return ErrEnded
	}
	if !s.game.Started() {
		return fmt.Errorf("pipeline: the game has not started (both Avatars must be seen first)")
	}
	applied, ws, err := s.game.Record([]models.Event{ev}, tracker.Manual)
	s.tracker.SetActive(s.game.Active())
	s.queue(applied, ws, "")
	return err
}

// Undo takes back the last batch of events or correction.
func (s *Session) Undo() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return ErrEnded
	}
	if err := s.game.Undo(); err != nil {
		return err
	}
	s.resync("undone")
	return nil
}

// Correct fixes what the camera got wrong.
func (s *Session) Correct(c models.Correction) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return ErrEnded
	}
	if err := s.game.Correct(c); err != nil {
		return err
	}
	s.resync("corrected")
	return nil
}

// resync makes the tracker start again from the game's board; the caller holds s.mu.
func (s *Session) resync(status string) {
	if s.game.Started() {
		s.tracker.SetBoard(s.game.Board(), s.game.Active())
		s.tracker.Hide(s.game.Hidden())
	}
	s.queue(nil, nil, status)
}

// Recalibrate sets the realm's corners (A1, E1, E4, A4 in image pixels).
func (s *Session) Recalibrate(corners models.Quad) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, h := 0, 0
	if s.cal != nil {
		w, h = s.cal.ImageWidth, s.cal.ImageHeight
	}
	if w == 0 {
		return fmt.Errorf("pipeline: no frame yet to recalibrate on")
	}
	cal, err := calibration.FromCorners(corners, w, h)
	if err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	// New corners, the same mat: its cells keep their size.
	s.setCalibration(withGeometry(cal, s.cal.Geometry))
	s.queue(nil, nil, "recalibrated")
	return nil
}

// SetPaused stops or resumes recognition.
func (s *Session) SetPaused(paused bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.paused = paused
	if paused {
		s.queue(nil, nil, "paused")
	}
}
