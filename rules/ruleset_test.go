package rules

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

func TestNewRuleset(t *testing.T) {
	r, err := NewRuleset(Sorcery, testCatalog(), WithStartingLife(25))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := DecodeEvent([]byte(`{"type":"game_start","south":{"avatar":"Test Seer"},"north":{"avatar":"Test Warden"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Apply(ev); err != nil {
		t.Fatal(err)
	}
	// The made-up Avatars have 20 life on their cards, which wins over the option.
	if st := r.State(); st.Players["south"].Life != 20 || len(r.Events()) != 1 {
		t.Errorf("state %+v", st.Players["south"])
	}
	noLife := models.NewCatalog([]*models.Card{
		{Name: "A", Slug: "a", Type: models.Avatar}, {Name: "B", Slug: "b", Type: models.Avatar}})
	g := NewGame(noLife, WithStartingLife(25))
	if _, err := applyLine(g, `{"type":"game_start","south":{"avatar":"A"},"north":{"avatar":"B"}}`); err != nil {
		t.Fatal(err)
	}
	if got := g.State().Players["north"].Life; got != 25 {
		t.Errorf("starting life %d, want 25", got)
	}
	if _, err := NewRuleset("age-of-wild-magic", testCatalog()); err == nil {
		t.Errorf("an unknown ruleset gave no error")
	}
}
