package models

import (
	"regexp"
	"strconv"
	"strings"
)

// FindKeywords reads the keywords a card has from its rules text, in the
// order of AllKeywords, and the N of "Movement +N" (0 when absent).
//
// A card's own keywords are printed as a list at the start of a line or
// sentence ("Airborne, Spellcaster", "Submerge, Waterbound", "Fire
// Spellcaster", "Ranged 2", "Movement +1"), and its Genesis and Deathrite
// abilities as "Genesis → …" and "Deathrite → …". Keywords anywhere else
// are about other cards or hold only sometimes, so they do not count:
// "Bearer has Burrowing" (what an artifact gives), "lose Airborne", "give an
// ally Charge", "Has Charge and Lethal if an ally died", "Airborne while
// Warded", "All minions have Burrowing".
func FindKeywords(rulesText string) (keywords []Keyword, movementBonus int) {
	var found [len(keywordOrder)]bool
	if rulesText == "" {
		return nil, 0
	}
	for _, sentence := range rulesSentences(rulesText) {
		if opensTrigger(sentence) {
			if m := triggerPattern.FindStringSubmatch(sentence); m != nil {
				for _, name := range []string{m[1], m[2]} {
					switch strings.ToLower(name) {
					case "genesis":
						found[keywordIndex[Genesis]] = true
					case "deathrite":
						found[keywordIndex[Deathrite]] = true
					}
				}
				continue
			}
		}
		items := strings.Split(sentence, ",")
		if _, _, ok := keywordItem(items[0]); !ok && !otherAbilityWords[strings.ToLower(strings.TrimSpace(items[0]))] {
			continue
		}
		for _, item := range items {
			k, n, ok := keywordItem(item)
			if !ok {
				continue
			}
			found[keywordIndex[k]] = true
			if k == Movement && n > movementBonus {
				movementBonus = n
			}
		}
	}
	for i, f := range found {
		if f {
			keywords = append(keywords, keywordOrder[i])
		}
	}
	return keywords, movementBonus
}

// keywordOrder is AllKeywords as an array, so FindKeywords can count
// without allocating.
var keywordOrder = [...]Keyword{Airborne, Burrowing, Submerge, Voidwalk, Spellcaster, Stealth, Immobile,
	Waterbound, Landbound, Ranged, Charge, Lethal, Genesis, Deathrite, Movement}

var keywordIndex = func() map[Keyword]int {
	m := make(map[Keyword]int, len(keywordOrder))
	for i, k := range keywordOrder {
		m[k] = i
	}
	return m
}()

// otherAbilityWords are ability words the rules engine does not track that
// can open a card's keyword list ("Ward, Airborne while Warded",
// "Lance, Lethal").
var otherAbilityWords = map[string]bool{"ward": true, "lance": true}

var (
	// triggerPattern matches "Genesis →", "Deathrite ->", "Genesis & Deathrite →".
	triggerPattern = regexp.MustCompile(`(?i)^(genesis|deathrite)(?:\s*(?:&|and)\s*(genesis|deathrite))?\s*(?:→|->|—|-|:)`)
	// spellcasterPattern matches "Spellcaster", "Fire Spellcaster",
	// "Earth and Water Spellcaster", "Non-Ordinary Spellcaster".
	spellcasterPattern = regexp.MustCompile(`(?i)^(?:[a-z-]+(?: and [a-z-]+)? )?spellcasters?$`)
	rangedPattern      = regexp.MustCompile(`(?i)^ranged(?: \d+)?$`)
	movementPattern    = regexp.MustCompile(`(?i)^movement \+(\d+)$`)
	// thresholdPrefix is the "(W)(W)(W) — " that opens some sites' abilities.
	thresholdPrefix = regexp.MustCompile(`^(?:\([AEFW]\)\s*)+\s*[—–-]\s*`)
)

// opensTrigger is a quick test before triggerPattern: only Genesis and
// Deathrite open a trigger.
func opensTrigger(sentence string) bool {
	c := sentence[0] | 0x20 // lower case
	return c == 'g' || c == 'd'
}

// keywordItem reads one item of a keyword list: "Airborne", "Fire
// Spellcaster", "Ranged 2", "Movement +1".
func keywordItem(item string) (Keyword, int, bool) {
	item = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(item), ".;"))
	if len(item) < 6 || len(item) > 40 {
		return "", 0, false // no keyword item is this short or this long
	}
	if strings.EqualFold(item[:3], "mov") {
		if m := movementPattern.FindStringSubmatch(item); m != nil {
			n, err := strconv.Atoi(m[1])
			return Movement, n, err == nil
		}
	}
	if strings.EqualFold(item[:6], "ranged") && rangedPattern.MatchString(item) {
		return Ranged, 0, true
	}
	if strings.Contains(strings.ToLower(item), "spellcaster") && spellcasterPattern.MatchString(item) {
		return Spellcaster, 0, true
	}
	for _, k := range keywordOrder {
		if k != Movement && k != Genesis && k != Deathrite && strings.EqualFold(item, string(k)) {
			return k, 0, true
		}
	}
	return "", 0, false
}

// rulesSentences splits rules text into lines and then sentences, dropping
// the "UPDATED:" mark and the threshold prefix of site abilities.
func rulesSentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimSpace(strings.TrimPrefix(line, "UPDATED:"))
		if strings.HasPrefix(line, "(") {
			line = thresholdPrefix.ReplaceAllString(line, "")
		}
		for len(line) > 0 {
			i := strings.Index(line, ". ")
			if i < 0 {
				out = append(out, line)
				break
			}
			if i > 0 {
				out = append(out, line[:i])
			}
			line = strings.TrimSpace(line[i+2:])
		}
	}
	return out
}
