package models

import (
	"regexp"
	"strings"
)

// tokenMention matches the capitalised words before "token" in rules text:
// "summon a Skeleton token", "three submerged Frog tokens", "a Foot Soldier token".
var tokenMention = regexp.MustCompile(`((?:[A-Z][A-Za-z'’-]*\s+)+)tokens?\b`)

// markTokens sets Token on the cards that are tokens. The public card list
// does not mark them, so besides a "Token" subtype (set while parsing), a
// card is a token when other cards' rules text summons it as one ("summon a
// Frog token" makes Frog, Frog (Blue) and Frog 2 tokens), and Rubble, which
// the rulebook makes a token site.
func markTokens(cards []*Card) {
	mentioned := map[string]bool{}
	for _, c := range cards {
		if !strings.Contains(c.RulesText, "token") {
			continue
		}
		for _, m := range tokenMention.FindAllStringSubmatch(c.RulesText, -1) {
			words := strings.Fields(m[1])
			// "Summon Frog tokens" captures "Summon Frog": try each tail.
			for i := range words {
				name := NormalizeName(strings.Join(words[i:], " "))
				mentioned[name] = true
				mentioned[name+"s"] = true
			}
		}
	}
	for _, c := range cards {
		if c.Token {
			continue
		}
		base := tokenBaseName(c.Name)
		c.Token = mentioned[base] || (c.Type == Site && base == NormalizeName(RubbleName))
	}
}

// tokenBaseName drops a printing's distinguishing tail: "Frog (Blue)" and
// "Foot Soldier 2" become "frog" and "foot soldier".
func tokenBaseName(name string) string {
	if i := strings.IndexByte(name, '('); i > 0 {
		name = name[:i]
	}
	name = strings.TrimRight(strings.TrimSpace(name), "0123456789")
	return NormalizeName(name)
}
