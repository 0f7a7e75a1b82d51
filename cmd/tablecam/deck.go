package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/tablecam/tablecam/rules"
)

// runDeck checks decklists: "tablecam deck check [--json] [--catalog PATH] DECK.txt".
// It exits 0 for a legal deck, 1 for an illegal one and 2 when the list cannot
// be read or names a card the catalog lacks.
func runDeck(_ context.Context, e env) int {
	usage := func() {
		fmt.Fprintln(e.stderr, "usage: tablecam deck check [--json] [--catalog PATH] DECK.txt")
		fmt.Fprintln(e.stderr, "\nChecks a decklist of \"N Card Name\" lines under Avatar, Atlas and Spellbook headers:")
		fmt.Fprintln(e.stderr, "exactly one Avatar, at least 30 sites, at least 60 spells, copies limited by rarity.")
		fmt.Fprintln(e.stderr, "Exit status: 0 legal, 1 illegal, 2 unreadable or unknown card.")
	}
	if len(e.args) == 0 || e.args[0] != "check" {
		if len(e.args) > 0 && (e.args[0] == "-h" || e.args[0] == "--help" || e.args[0] == "help") {
			usage()
			return 0
		}
		usage()
		return 2
	}
	fs := flag.NewFlagSet("deck check", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	catalogPath := fs.String("catalog", "", "card catalog: a cards.json file or a catalog directory (default: the shared card list, else the bundled samples)")
	fs.Usage = func() { usage(); fs.PrintDefaults() }
	args, code, ok := parseCommandLine(fs, e.args[1:], 1)
	if !ok {
		return code
	}
	path := args[0]
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam deck: %v\n", err)
		return 2
	}
	defer f.Close()
	cat, err := openCatalog(*catalogPath, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam deck: %v\n", err)
		return 2
	}
	deck, err := rules.ParseDeck(f, path, cat)
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(e.stderr, "tablecam deck: %s\n", line)
		}
		return 2
	}
	problems := rules.CheckDeck(deck)
	avatar := ""
	for _, en := range deck.Entries {
		if en.Section == rules.AvatarSection {
			avatar = en.Card.Name
			break
		}
	}
	counts := fmt.Sprintf("Avatar %s, atlas %d sites, spellbook %d spells", orDash(avatar),
		deck.Count(rules.AtlasSection), deck.Count(rules.SpellbookSection))
	if *asJSON {
		out := struct {
			Deck      string              `json:"deck"`
			Legal     bool                `json:"legal"`
			Avatar    string              `json:"avatar"`
			Atlas     int                 `json:"atlas"`
			Spellbook int                 `json:"spellbook"`
			Problems  []rules.DeckProblem `json:"problems"`
		}{path, len(problems) == 0, avatar, deck.Count(rules.AtlasSection), deck.Count(rules.SpellbookSection), problems}
		if out.Problems == nil {
			out.Problems = []rules.DeckProblem{}
		}
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		for _, p := range problems {
			if p.Line > 0 {
				fmt.Fprintf(e.stdout, "%s:%d: %s\n", path, p.Line, p.Message)
			} else {
				fmt.Fprintf(e.stdout, "%s: %s\n", path, p.Message) // no header to point at
			}
		}
		if len(problems) == 0 {
			fmt.Fprintf(e.stdout, "%s: legal (%s)\n", path, counts)
		} else {
			fmt.Fprintf(e.stdout, "%s: illegal, %d problem%s (%s)\n", path, len(problems), plural(len(problems)), counts)
		}
	}
	if len(problems) > 0 {
		return 1
	}
	return 0
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
