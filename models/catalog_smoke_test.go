package models

import "testing"

func TestLoadRealCatalogSmoke(t *testing.T) {
	c, err := LoadCatalog("../../shared/data/sorcery-cards.json")
	if err != nil {
		t.Skip(err)
	}
	if c.Len() != 1104 {
		t.Fatalf("got %d cards", c.Len())
	}
	card, err := c.Lookup("arid desert")
	if err != nil || card.Thresholds.Fire != 1 {
		t.Fatalf("%v %+v", err, card)
	}
}
