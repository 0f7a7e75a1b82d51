package synth

import (
	"strings"

	"github.com/tablecam/tablecam/models"
)

// cardSpec describes one made-up card of the sample catalog. Cards with the
// same paletteKey share a palette, so mean colour cannot tell them apart.
type cardSpec struct {
	name       string
	typ        models.CardType
	rarity     models.Rarity
	cost       int // -1: no cost (sites, avatars)
	attack     int // -1: none
	life       int // -1: none
	th         models.Thresholds
	subTypes   string
	rules      string
	paletteKey string
}

func th(air, earth, fire, water int) models.Thresholds {
	return models.Thresholds{Air: air, Earth: earth, Fire: fire, Water: water}
}

// sampleCards is the sample catalog: 14 sites, 16 minions, 3 avatars, 5 other
// spells and 3 tokens, all with made-up names.
var sampleCards = []cardSpec{
	// Sites.
	{"Emberfall Ridge", models.Site, models.Ordinary, -1, -1, -1, th(0, 0, 1, 0), "", "Provides fire threshold.", "ember"},
	{"Cinder Hollow", models.Site, models.Ordinary, -1, -1, -1, th(0, 0, 1, 0), "", "Provides fire threshold. Genesis: deal 1 damage to each minion here.", "ember"},
	{"Stormveil Peak", models.Site, models.Exceptional, -1, -1, -1, th(1, 0, 1, 0), "", "Provides air and fire threshold.", "storm"},
	{"Tidewrack Cove", models.Site, models.Ordinary, -1, -1, -1, th(0, 0, 0, 1), "", "Provides water threshold. This is a water site.", "tide"},
	{"Glimmering Shoals", models.Site, models.Ordinary, -1, -1, -1, th(0, 0, 0, 1), "", "Provides water threshold. This is a water site.", "tide"},
	{"Sunken Lantern", models.Site, models.Exceptional, -1, -1, -1, th(1, 0, 0, 1), "", "Provides air and water threshold. This is a water site.", "lantern"},
	{"Brinefog Marsh", models.Site, models.Ordinary, -1, -1, -1, th(0, 1, 0, 1), "", "Provides earth and water threshold. This is a water site.", "marsh"},
	{"Mossgrave Hollow", models.Site, models.Ordinary, -1, -1, -1, th(0, 1, 0, 0), "", "Provides earth threshold.", "moss"},
	{"Quarry of Kings", models.Site, models.Elite, -1, -1, -1, th(0, 2, 0, 0), "", "Provides two earth threshold.", "quarry"},
	{"Thornwood Vale", models.Site, models.Ordinary, -1, -1, -1, th(0, 1, 0, 0), "", "Provides earth threshold.", "moss"},
	{"Windlash Spire", models.Site, models.Ordinary, -1, -1, -1, th(1, 0, 0, 0), "", "Provides air threshold.", "sky"},
	{"Skyreach Mesa", models.Site, models.Ordinary, -1, -1, -1, th(1, 0, 0, 0), "", "Provides air threshold. Genesis: draw a spell.", "sky"},
	{"Ashen Steppe", models.Site, models.Exceptional, -1, -1, -1, th(0, 1, 1, 0), "", "Provides earth and fire threshold.", "ash"},
	{"Barren Flats", models.Site, models.Ordinary, -1, -1, -1, th(0, 0, 0, 0), "", "Provides mana but no threshold.", "quarry"},

	// Minions.
	{"Ember Whelp", models.Minion, models.Ordinary, 1, 1, -1, th(0, 0, 1, 0), "Beast", "A small hungry flame.", "ember"},
	{"Cindertail Fox", models.Minion, models.Ordinary, 2, 2, -1, th(0, 0, 1, 0), "Beast", "Movement +1", "ember"},
	{"Ashwing Drake", models.Minion, models.Exceptional, 4, 4, -1, th(0, 0, 2, 0), "Dragon", "Airborne", "ash"},
	{"Pyre Colossus", models.Minion, models.Elite, 6, 7, -1, th(0, 0, 3, 0), "Giant", "Charge. Deals damage to each unit it passes.", "ember"},
	{"Reefstalker", models.Minion, models.Ordinary, 2, 2, -1, th(0, 0, 0, 1), "Beast", "Submerge", "tide"},
	{"Tidecaller Adept", models.Minion, models.Exceptional, 3, 2, -1, th(0, 0, 0, 2), "Mortal", "Spellcaster", "tide"},
	{"Drowned Sentinel", models.Minion, models.Elite, 5, 5, -1, th(0, 0, 0, 2), "Undead", "Submerge. Waterbound.", "marsh"},
	{"Brine Serpent", models.Minion, models.Ordinary, 4, 4, -1, th(0, 0, 0, 1), "Monster", "Waterbound", "lantern"},
	{"Tunnelmaw Grub", models.Minion, models.Ordinary, 2, 2, -1, th(0, 1, 0, 0), "Beast", "Burrowing", "moss"},
	{"Stonehide Ox", models.Minion, models.Ordinary, 3, 3, -1, th(0, 1, 0, 0), "Beast", "A patient beast of burden.", "quarry"},
	{"Granite Warden", models.Minion, models.Exceptional, 5, 5, -1, th(0, 2, 0, 0), "Construct", "Immobile", "quarry"},
	{"Rootbound Elder", models.Minion, models.Elite, 4, 3, -1, th(0, 2, 0, 0), "Spirit", "Genesis: untap a site you control.", "moss"},
	{"Gale Sprite", models.Minion, models.Ordinary, 1, 1, -1, th(1, 0, 0, 0), "Faerie", "Airborne", "sky"},
	{"Stormcrow Flock", models.Minion, models.Ordinary, 3, 2, -1, th(1, 0, 0, 0), "Beast", "Airborne. Ranged.", "storm"},
	{"Voidsworn Shade", models.Minion, models.Elite, 4, 3, -1, th(2, 0, 0, 0), "Spirit", "Voidwalk", "storm"},
	{"Wandering Tinker", models.Minion, models.Ordinary, 1, 1, -1, th(0, 0, 0, 0), "Mortal", "Deathrite: draw a card.", "lantern"},

	// Avatars.
	{"Lantern Warden", models.Avatar, models.Unique, -1, 0, 20, th(0, 0, 0, 0), "", "Tap: play or draw a site.", "lantern"},
	{"Ashen Sovereign", models.Avatar, models.Unique, -1, 0, 20, th(0, 0, 0, 0), "", "Tap: play or draw a site.", "ash"},
	{"Tide Oracle", models.Avatar, models.Unique, -1, 0, 20, th(0, 0, 0, 0), "", "Tap: play or draw a site.", "tide"},

	// Other spells.
	{"Searing Lash", models.Magic, models.Ordinary, 2, -1, -1, th(0, 0, 1, 0), "", "Deal 3 damage to a unit.", "ember"},
	{"Undertow", models.Magic, models.Exceptional, 3, -1, -1, th(0, 0, 0, 1), "", "Return a minion to its owner's hand.", "tide"},
	{"Veil of Mists", models.Aura, models.Exceptional, 2, -1, -1, th(1, 0, 0, 1), "", "Units here have Stealth.", "lantern"},
	{"Brass Orrery", models.Artifact, models.Elite, 2, -1, -1, th(0, 0, 0, 0), "Device", "Tap: gain 1 mana.", "quarry"},
	{"Oaken Totem", models.Artifact, models.Ordinary, 1, -1, -1, th(0, 0, 0, 0), "Relic", "Bearer has +1 power.", "moss"},

	// Tokens.
	{"Foot Soldier", models.Minion, models.Ordinary, 0, 1, -1, th(0, 0, 0, 0), "Mortal Token", "", "quarry"},
	{"Bog Frog", models.Minion, models.Ordinary, 0, 1, -1, th(0, 0, 0, 0), "Beast Token", "", "marsh"},
	{"Ember Wisp", models.Minion, models.Ordinary, 0, 1, -1, th(0, 0, 0, 0), "Spirit Token", "Airborne", "ember"},
}

// isToken reports whether the spec is a token card.
func (s cardSpec) isToken() bool {
	for _, f := range strings.Fields(s.subTypes) {
		if strings.EqualFold(f, "token") {
			return true
		}
	}
	return false
}

// slug makes the catalog slug of a name the way the public API does: lower
// case, words joined by underscores.
func slug(name string) string {
	return strings.ReplaceAll(models.NormalizeName(name), " ", "_")
}

// elementsText gives the API's "Fire, Water" element list (or "None").
func elementsText(t models.Thresholds) string {
	var parts []string
	for _, e := range models.Elements {
		if t.Get(e) > 0 {
			name := e.String()
			parts = append(parts, strings.ToUpper(name[:1])+name[1:])
		}
	}
	if len(parts) == 0 {
		return "None"
	}
	return strings.Join(parts, ", ")
}
