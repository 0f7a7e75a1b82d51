package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/tablecam/tablecam/models"
)

const catalogUsage = `usage: tablecam catalog [--catalog PATH] [--json] stats
       tablecam catalog [--catalog PATH] [--json] show NAME
       tablecam catalog [--catalog PATH] [--json] search TEXT
       tablecam catalog fetch [--url URL] [--out PATH]

  stats    count the cards by type, rarity and element; sites with water; images
  show     every field of one card, found by name (any case, accents or
           punctuation) or slug; suggests close names when there is none
  search   the cards whose name, type, subtypes or rules text hold every word;
           filters: type:minion rarity:elite element:fire subtype:beast
           keyword:airborne set:alpha cost:3 cost<=2 is:token is:water
  fetch    download the public card list into the user cache, where
           tablecam finds it when there is no ../shared/data/sorcery-cards.json

--catalog is a card list (JSON, either shape of the public API) or a catalog
directory (cards.json and images/<slug>.png|jpg|webp). Without it:
$TABLECAM_CATALOG, else ../shared/data/sorcery-cards.json, else the fetched
card list, else the bundled sample catalog. Flags may come anywhere.
`

// runCatalog is "tablecam catalog": stats, show, search and fetch.
func runCatalog(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("tablecam catalog", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	path := fs.String("catalog", "", "card list `PATH` (JSON file or catalog directory)")
	asJSON := fs.Bool("json", false, "print JSON")
	url := fs.String("url", defaultCardListURL, "where fetch downloads the card list from")
	out := fs.String("out", "", "where fetch writes the card list (default: the user cache)")
	args, err := parseCatalogArgs(fs, e.args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(e.stdout, catalogUsage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam catalog: %v\n\n%s", err, catalogUsage)
		return 2
	}
	if len(args) == 0 {
		fmt.Fprint(e.stderr, catalogUsage)
		return 2
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "help":
		fmt.Fprint(e.stdout, catalogUsage)
		return 0
	case "fetch":
		if len(rest) > 0 {
			fmt.Fprintf(e.stderr, "tablecam catalog fetch: unexpected %q\n", rest[0])
			return 2
		}
		return catalogFetch(ctx, e, *url, *out)
	case "stats", "show", "search":
	default:
		fmt.Fprintf(e.stderr, "tablecam catalog: unknown subcommand %q\n\n%s", sub, catalogUsage)
		return 2
	}
	if sub == "stats" && len(rest) > 0 {
		fmt.Fprintf(e.stderr, "tablecam catalog stats: unexpected %q\n", rest[0])
		return 2
	}
	if sub != "stats" && len(rest) == 0 {
		fmt.Fprintf(e.stderr, "tablecam catalog %s: give a card %s\n", sub, map[string]string{"show": "name", "search": "text"}[sub])
		return 2
	}
	cat, err := openCatalog(*path, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam catalog: %v\n", err)
		return 2
	}
	query := strings.Join(rest, " ")
	switch sub {
	case "stats":
		return catalogStats(e, cat, *asJSON)
	case "show":
		return catalogShow(e, cat, query, *asJSON)
	default:
		return catalogSearch(e, cat, query, *asJSON)
	}
}

// parseCatalogArgs parses flags wherever they are among the words, so that
// "show Arid Desert --json" works as well as "--json show Arid Desert".
// A "--" ends the flags.
func parseCatalogArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(words, rest...), nil // flag.Parse ate the "--"
		}
		if len(rest) == 0 {
			return words, nil
		}
		words = append(words, rest[0])
		args = rest[1:]
	}
}

// cardJSON is a card as the catalog command prints it: elements by name,
// and every list and flag present even when empty, so scripts can rely on
// the keys.
type cardJSON struct {
	*models.Card
	Elements      []string         `json:"elements"`
	Subtypes      []string         `json:"subtypes"`
	Keywords      []models.Keyword `json:"keywords"`
	MovementBonus int              `json:"movement_bonus"`
	Token         bool             `json:"token"`
	Printings     []string         `json:"printings"`
	Sets          []string         `json:"sets"`
	Image         string           `json:"image"`
}

func cardView(c *models.Card) cardJSON {
	orEmpty := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	kw := c.Keywords
	if kw == nil {
		kw = []models.Keyword{}
	}
	return cardJSON{
		Card: c, Elements: c.ElementNames(), Subtypes: orEmpty(c.Subtypes), Keywords: kw,
		MovementBonus: c.MovementBonus, Token: c.Token, Printings: orEmpty(c.Printings), Sets: orEmpty(c.Sets), Image: c.Image,
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// catalogStatsReport is what "tablecam catalog stats" reports.
type catalogStatsReport struct {
	Path        string         `json:"path"`
	Cards       int            `json:"cards"`
	ByType      map[string]int `json:"by_type"`
	ByRarity    map[string]int `json:"by_rarity"`
	ByElement   map[string]int `json:"by_element"`
	Sites       int            `json:"sites"`
	WaterSites  int            `json:"water_sites"`
	LandSites   int            `json:"land_sites"`
	Tokens      int            `json:"tokens"`
	ByKeyword   map[string]int `json:"by_keyword"`
	Images      int            `json:"images"`
	NoImage     []string       `json:"without_image,omitempty"`
	IsDirectory bool           `json:"directory"`
}

func gatherStats(cat *models.Catalog) catalogStatsReport {
	s := catalogStatsReport{
		Path: cat.Path, Cards: cat.Len(),
		ByType: map[string]int{}, ByRarity: map[string]int{}, ByElement: map[string]int{}, ByKeyword: map[string]int{},
	}
	for _, c := range cat.Cards() {
		s.ByType[string(c.Type)]++
		r := string(c.Rarity)
		if r == "" {
			r = "none"
		}
		s.ByRarity[r]++
		if len(c.Elements) == 0 {
			s.ByElement["none"]++
		}
		for _, el := range c.ElementNames() {
			s.ByElement[el]++
		}
		if c.Type == models.Site {
			s.Sites++
			if c.IsWaterSite() {
				s.WaterSites++
			} else {
				s.LandSites++
			}
		}
		if c.Token {
			s.Tokens++
		}
		for _, k := range c.Keywords {
			s.ByKeyword[string(k)]++
		}
		if c.Image != "" {
			s.Images++
		} else {
			s.NoImage = append(s.NoImage, c.Slug)
		}
	}
	s.IsDirectory = s.Images > 0 || isDir(cat.Path)
	if !s.IsDirectory {
		s.NoImage = nil // a plain card list has no images by design
	}
	return s
}

func catalogStats(e env, cat *models.Catalog, asJSON bool) int {
	s := gatherStats(cat)
	if asJSON {
		if err := writeJSON(e.stdout, s); err != nil {
			fmt.Fprintf(e.stderr, "tablecam catalog: %v\n", err)
			return 1
		}
		return 0
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "catalog\t%s\n", s.Path)
	fmt.Fprintf(tw, "cards\t%d\n", s.Cards)
	fmt.Fprintf(tw, "by type\t%s\n", countList(s.ByType))
	fmt.Fprintf(tw, "by rarity\t%s\n", countList(s.ByRarity))
	fmt.Fprintf(tw, "by element\t%s\n", countList(s.ByElement))
	fmt.Fprintf(tw, "sites\t%d: %d with water, %d land\n", s.Sites, s.WaterSites, s.LandSites)
	fmt.Fprintf(tw, "tokens\t%d\n", s.Tokens)
	fmt.Fprintf(tw, "keywords\t%s\n", countList(s.ByKeyword))
	switch {
	case !s.IsDirectory:
		fmt.Fprintf(tw, "images\tnone (a plain card list; a catalog directory holds images/<slug>.png)\n")
	case len(s.NoImage) == 0:
		fmt.Fprintf(tw, "images\t%d of %d\n", s.Images, s.Cards)
	default:
		missing := s.NoImage
		more := ""
		if len(missing) > 5 {
			missing, more = missing[:5], fmt.Sprintf(" and %d more", len(s.NoImage)-5)
		}
		fmt.Fprintf(tw, "images\t%d of %d; none for %s%s\n", s.Images, s.Cards, strings.Join(missing, ", "), more)
	}
	tw.Flush()
	return 0
}

// countList writes counts largest first: "Minion 497, Site 204".
func countList(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func catalogShow(e env, cat *models.Catalog, name string, asJSON bool) int {
	card, err := cat.Lookup(name)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam catalog show: %v\n", err)
		return 2
	}
	if asJSON {
		if err := writeJSON(e.stdout, cardView(card)); err != nil {
			fmt.Fprintf(e.stderr, "tablecam catalog: %v\n", err)
			return 1
		}
		return 0
	}
	writeCard(e.stdout, card)
	return 0
}

// writeCard prints every field of a card, one per line.
func writeCard(w io.Writer, c *models.Card) {
	num := func(n *int) string {
		if n == nil {
			return "-"
		}
		return fmt.Sprint(*n)
	}
	list := func(items []string) string {
		if len(items) == 0 {
			return "-"
		}
		return strings.Join(items, ", ")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "name\t%s\n", c.Name)
	fmt.Fprintf(tw, "slug\t%s\n", c.Slug)
	kind := string(c.Type)
	if c.Token {
		kind += " token"
	}
	fmt.Fprintf(tw, "type\t%s\n", kind)
	rarity := list(nonEmpty(string(c.Rarity)))
	switch n := c.Rarity.MaxCopies(); {
	case c.Token:
		rarity += " (a token: never in a deck)"
	case n == 1:
		rarity += " (1 copy in a deck)"
	case n > 1:
		rarity += fmt.Sprintf(" (up to %d copies in a deck)", n)
	}
	fmt.Fprintf(tw, "rarity\t%s\n", rarity)
	fmt.Fprintf(tw, "cost\t%s\n", num(c.Cost))
	fmt.Fprintf(tw, "attack\t%s\n", num(c.Attack))
	fmt.Fprintf(tw, "defence\t%s\n", num(c.Defence))
	fmt.Fprintf(tw, "life\t%s\n", num(c.Life))
	if c.Type == models.Site {
		water := "land site"
		if c.IsWaterSite() {
			water = "water site"
		}
		fmt.Fprintf(tw, "provides\t%s (%s)\n", c.Thresholds, water)
	} else {
		fmt.Fprintf(tw, "threshold\t%s\n", c.Thresholds)
	}
	fmt.Fprintf(tw, "elements\t%s\n", list(c.ElementNames()))
	fmt.Fprintf(tw, "subtypes\t%s\n", list(c.Subtypes))
	kw := make([]string, 0, len(c.Keywords))
	for _, k := range c.Keywords {
		if k == models.Movement {
			kw = append(kw, fmt.Sprintf("Movement +%d", c.MovementBonus))
			continue
		}
		kw = append(kw, string(k))
	}
	fmt.Fprintf(tw, "keywords\t%s\n", list(kw))
	fmt.Fprintf(tw, "sets\t%s\n", list(c.Sets))
	fmt.Fprintf(tw, "printings\t%s\n", list(c.Printings))
	fmt.Fprintf(tw, "image\t%s\n", list(nonEmpty(c.Image)))
	tw.Flush()
	if c.RulesText != "" {
		fmt.Fprintln(w, "rules text:")
		for _, line := range strings.Split(strings.TrimSpace(c.RulesText), "\n") {
			if line = strings.TrimSpace(line); line != "" {
				fmt.Fprintf(w, "  %s\n", line)
			}
		}
	}
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

func catalogSearch(e env, cat *models.Catalog, text string, asJSON bool) int {
	found := cat.Search(text)
	if asJSON {
		views := make([]cardJSON, len(found))
		for i, c := range found {
			views[i] = cardView(c)
		}
		if err := writeJSON(e.stdout, views); err != nil {
			fmt.Fprintf(e.stderr, "tablecam catalog: %v\n", err)
			return 1
		}
	} else {
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		for _, c := range found {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Name, cardSummary(c), c.Slug)
		}
		tw.Flush()
	}
	if len(found) == 0 {
		msg := fmt.Sprintf("no card matches %q", text)
		if s := cat.Suggest(text, 3); len(s) > 0 {
			msg += " (did you mean " + strings.Join(s, ", ") + "?)"
		}
		fmt.Fprintf(e.stderr, "tablecam catalog search: %s\n", msg)
		return 1
	}
	return 0
}

// cardSummary is the short description of a search result: "Minion, cost 3, fire".
func cardSummary(c *models.Card) string {
	parts := []string{string(c.Type)}
	if c.Token {
		parts[0] += " token"
	}
	if c.Cost != nil {
		parts = append(parts, fmt.Sprintf("cost %d", *c.Cost))
	}
	if c.Attack != nil {
		parts = append(parts, fmt.Sprintf("power %d", *c.Attack))
	}
	if !c.Thresholds.IsZero() {
		verb := "needs "
		if c.Type == models.Site {
			verb = "provides "
		}
		parts = append(parts, verb+c.Thresholds.String())
	}
	return strings.Join(parts, ", ")
}
