package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// catalogFixtureCards is a made-up card list in the older API shape.
const catalogFixtureCards = `[
 {"name": "Glimmer Moth", "slug": "glimmer_moth",
  "guardian": {"type": "Minion", "rarity": "Exceptional", "rulesText": "Airborne, Movement +1\n\nGenesis → Draw a spell.",
               "cost": 3, "attack": 2, "defence": 2, "life": null, "thresholds": {"air": 2, "earth": 0, "fire": 0, "water": 0}},
  "elements": "Air", "subTypes": "Beast, Spirit",
  "sets": [{"name": "Alpha", "variants": [{"slug": "alp-glimmer_moth-b-s"}, {"slug": "alp-glimmer_moth-b-f"}]}]},
 {"name": "Brackwater Fen", "slug": "brackwater_fen",
  "guardian": {"type": "Site", "rarity": "Ordinary", "rulesText": "", "cost": null, "attack": null, "defence": null, "life": null,
               "thresholds": {"air": 0, "earth": 1, "fire": 0, "water": 1}},
  "elements": "Earth, Water", "subTypes": "", "sets": []},
 {"name": "Cinder Knoll", "slug": "cinder_knoll",
  "guardian": {"type": "Site", "rarity": "Ordinary", "rulesText": "Genesis → Deal 1 damage to each minion here.", "cost": null,
               "attack": null, "defence": null, "life": null, "thresholds": {"air": 0, "earth": 0, "fire": 1, "water": 0}},
  "elements": "Fire", "subTypes": "", "sets": []}
]`

// catalogFixtureDir writes a catalog directory with images for two of its
// three cards.
func catalogFixtureDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "catalog")
	writeCatalogTestFile(t, filepath.Join(dir, "cards.json"), catalogFixtureCards)
	writeCatalogTestFile(t, filepath.Join(dir, "images", "glimmer_moth.png"), "png")
	writeCatalogTestFile(t, filepath.Join(dir, "images", "brackwater_fen.jpg"), "jpg")
	return dir
}

// runTablecam runs the command line as main does, capturing its output.
func runTablecam(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), env{args: args, stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
	return out.String(), errOut.String(), code
}

func TestCatalogStats(t *testing.T) {
	dir := catalogFixtureDir(t)
	out, errOut, code := runTablecam(t, "catalog", "--catalog", dir, "stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"cards       3\n",
		"by type     Site 2, Minion 1\n",
		"by element  air 1, earth 1, fire 1, water 1\n",
		"sites       2: 1 with water, 1 land\n",
		"keywords    Genesis 2, Airborne 1, Movement 1\n",
		"images      2 of 3; none for cinder_knoll\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stats lack %q:\n%s", want, out)
		}
	}

	out, errOut, code = runTablecam(t, "catalog", "stats", "--json", "--catalog", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s catalogStatsReport
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if s.Cards != 3 || s.ByType["Site"] != 2 || s.WaterSites != 1 || s.LandSites != 1 || s.Images != 2 ||
		len(s.NoImage) != 1 || s.NoImage[0] != "cinder_knoll" || s.ByRarity["Ordinary"] != 2 || s.ByKeyword["Genesis"] != 2 {
		t.Errorf("stats JSON: %+v", s)
	}

	// A plain card list has no images, and stats says so rather than
	// listing every card as missing one.
	out, _, code = runTablecam(t, "catalog", "--catalog", filepath.Join(dir, "cards.json"), "stats")
	if code != 0 || !strings.Contains(out, "images      none (a plain card list") {
		t.Errorf("exit %d, stats of a plain file:\n%s", code, out)
	}
}

func TestCatalogShow(t *testing.T) {
	dir := catalogFixtureDir(t)
	out, errOut, code := runTablecam(t, "catalog", "--catalog", dir, "show", "glimmer", "MOTH")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"name       Glimmer Moth\n", "type       Minion\n", "rarity     Exceptional (up to 3 copies in a deck)\n", "cost       3\n", "attack     2\n", "life       -\n",
		"threshold  2 air\n", "subtypes   Beast, Spirit\n", "keywords   Airborne, Genesis, Movement +1\n",
		"printings  alp-glimmer_moth-b-s, alp-glimmer_moth-b-f\n", "sets       Alpha\n",
		"image      " + filepath.Join(dir, "images", "glimmer_moth.png") + "\n",
		"rules text:\n  Airborne, Movement +1\n  Genesis → Draw a spell.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}

	out, _, code = runTablecam(t, "catalog", "--catalog", dir, "show", "brackwater_fen")
	if code != 0 || !strings.Contains(out, "provides   1 earth, 1 water (water site)") {
		t.Errorf("show a site by slug: exit %d\n%s", code, out)
	}

	out, errOut, code = runTablecam(t, "catalog", "show", "Brackwater Fen", "--json", "--catalog", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var card struct {
		Name       string         `json:"name"`
		Elements   []string       `json:"elements"`
		Thresholds map[string]int `json:"thresholds"`
		Image      string         `json:"image"`
	}
	if err := json.Unmarshal([]byte(out), &card); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var keys map[string]any
	if err := json.Unmarshal([]byte(out), &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"keywords", "subtypes", "printings", "sets", "token", "cost", "life", "image"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("show --json lacks %q even though it is empty:\n%s", k, out)
		}
	}
	if card.Name != "Brackwater Fen" || strings.Join(card.Elements, ",") != "earth,water" ||
		card.Thresholds["water"] != 1 || !strings.HasSuffix(card.Image, "brackwater_fen.jpg") {
		t.Errorf("show --json: %+v", card)
	}

	out, errOut, code = runTablecam(t, "catalog", "--catalog", dir, "show", "Glimer Mothh")
	if code != 2 || out != "" || !strings.Contains(errOut, `unknown card "Glimer Mothh" (did you mean Glimmer Moth?)`) {
		t.Errorf("unknown card: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestCatalogSearch(t *testing.T) {
	dir := catalogFixtureDir(t)
	out, errOut, code := runTablecam(t, "catalog", "--catalog", dir, "search", "genesis")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "Cinder Knoll ") || !strings.HasPrefix(lines[1], "Glimmer Moth ") {
		t.Errorf("search genesis:\n%s", out)
	}

	out, _, code = runTablecam(t, "catalog", "--catalog", dir, "--json", "search", "type:site", "is:water")
	var found []struct{ Name string }
	if err := json.Unmarshal([]byte(out), &found); err != nil || code != 0 || len(found) != 1 || found[0].Name != "Brackwater Fen" {
		t.Errorf("search --json: exit %d, %v, %s", code, err, out)
	}

	// Flags anywhere, and "--" to end them.
	out, errOut, code = runTablecam(t, "catalog", "search", "--catalog", dir, "--", "-draw", "--json")
	if code != 1 || !strings.Contains(errOut, `no card matches "-draw --json"`) {
		t.Errorf("search after --: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	out, errOut, code = runTablecam(t, "catalog", "--catalog", dir, "search", "glimer")
	if code != 1 || out != "" || !strings.Contains(errOut, "did you mean Glimmer Moth") {
		t.Errorf("no match: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestCatalogBadInput(t *testing.T) {
	dir := catalogFixtureDir(t)
	broken := filepath.Join(t.TempDir(), "broken.json")
	writeCatalogTestFile(t, broken, "[\n {\"name\": \"X\",\n  \"guardian\": {\"type\": \"Minion\", \"cost\": \"two\"}}\n]")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no subcommand", []string{"catalog"}, 2, "usage: tablecam catalog"},
		{"unknown subcommand", []string{"catalog", "--catalog", dir, "list"}, 2, `unknown subcommand "list"`},
		{"show without a name", []string{"catalog", "--catalog", dir, "show"}, 2, "give a card name"},
		{"stats with extra words", []string{"catalog", "--catalog", dir, "stats", "now"}, 2, `unexpected "now"`},
		{"unknown flag", []string{"catalog", "--colour", "stats"}, 2, "flag provided but not defined: -colour"},
		{"missing catalog", []string{"catalog", "--catalog", filepath.Join(dir, "nope.json"), "stats"}, 2, "nope.json"},
		{"broken catalog", []string{"catalog", "--catalog", broken, "stats"}, 2,
			broken + `:3:34: card 1 "X": guardian.cost is a string, want a whole number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runTablecam(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d (want %d), stderr:\n%s\nwant it to hold %q", code, tt.code, errOut, tt.want)
			}
		})
	}
	for _, help := range []string{"--help", "-h", "help"} {
		out, _, code := runTablecam(t, "catalog", help)
		if code != 0 || !strings.Contains(out, "usage: tablecam catalog") {
			t.Errorf("%s: exit %d\n%s", help, code, out)
		}
	}
}

func TestCatalogFetch(t *testing.T) {
	var body string
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/cards" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	defer srv.Close()
	url := srv.URL + "/api/cards"

	root := t.TempDir()
	t.Chdir(root) // no ../shared here
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Setenv("TABLECAM_SAMPLES", filepath.Join(root, "no-samples"))
	t.Setenv("TABLECAM_CATALOG", "")
	cached := filepath.Join(root, "cache", "tablecam", "cards.json")

	body = catalogFixtureCards
	out, errOut, code := runTablecam(t, "catalog", "fetch", "--url", url)
	if code != 0 || !strings.Contains(out, "fetched 3 cards") || !strings.Contains(out, cached) {
		t.Fatalf("fetch: exit %d\n%s%s", code, out, errOut)
	}
	if got, err := os.ReadFile(cached); err != nil || string(got) != catalogFixtureCards {
		t.Fatalf("cached file: %v\n%s", err, got)
	}

	// With no --catalog and no shared card list, commands now use the cache.
	out, errOut, code = runTablecam(t, "catalog", "show", "Cinder Knoll")
	if code != 0 || !strings.Contains(out, "name       Cinder Knoll") || !strings.Contains(errOut, "using the cached card list "+cached) {
		t.Errorf("show from the cache: exit %d\n%s%s", code, out, errOut)
	}

	// A broken download, an empty list or a server error leave the cache as it was.
	for _, bad := range []struct {
		status int
		body   string
		want   string
	}{
		{http.StatusOK, `[{"name": "Half`, "not a card list"},
		{http.StatusOK, `[]`, "holds no cards"},
		{http.StatusOK, `[{"name": "X", "guardian": {"cost": "1"}}]`, `card 1 "X": guardian.cost is a string`},
		{http.StatusServiceUnavailable, "down", "503 Service Unavailable"},
	} {
		status, body = bad.status, bad.body
		_, errOut, code := runTablecam(t, "catalog", "fetch", "--url", url)
		if code != 1 || !strings.Contains(errOut, bad.want) {
			t.Errorf("fetch of %q (%d): exit %d, stderr %q; want exit 1 saying %q", bad.body, bad.status, code, errOut, bad.want)
		}
		if got, _ := os.ReadFile(cached); string(got) != catalogFixtureCards {
			t.Errorf("a failed fetch changed the cached card list")
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(cached))
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}

	// --out writes elsewhere.
	status, body = http.StatusOK, catalogFixtureCards
	other := filepath.Join(root, "elsewhere", "cards.json")
	if _, errOut, code := runTablecam(t, "catalog", "fetch", "--url", url, "--out", other); code != 0 {
		t.Fatalf("fetch --out: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(other); err != nil {
		t.Error(err)
	}
}

func TestCatalogShowRealCards(t *testing.T) {
	real := "../../../shared/data/sorcery-cards.json"
	if _, err := os.Stat(real); err != nil {
		t.Skip("public card list absent")
	}
	out, errOut, code := runTablecam(t, "catalog", "--catalog", real, "show", "maelstrom")
	if code != 0 || !strings.Contains(out, "name       Maelström\n") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	_, errOut, code = runTablecam(t, "catalog", "--catalog", real, "show", "Arid Dessert")
	if code != 2 || !strings.Contains(errOut, "(did you mean Arid Desert?)") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
}

func TestBenchCatalog(t *testing.T) {
	dir := catalogFixtureDir(t)
	out, errOut, code := runTablecam(t, "bench", "catalog", "--catalog", dir, "--runs", "3", "--measure", "20ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var b catalogBench
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if b.Cards != 3 || b.Runs != 3 || b.LoadMinMS <= 0 || b.LoadMinMS > b.LoadMedianMS || b.LoadMedianMS > b.LoadMaxMS ||
		b.LookupsPerSec <= 0 || b.SuggestPerSec <= 0 || b.SearchPerSec <= 0 {
		t.Errorf("figures: %+v", b)
	}
	out, _, code = runTablecam(t, "bench", "catalog", "--catalog", dir, "--runs", "1", "--measure", "20ms")
	if code != 0 || !strings.Contains(out, "load         median") || !strings.Contains(out, "lookups") {
		t.Errorf("exit %d\n%s", code, out)
	}
	if _, _, code := runTablecam(t, "bench", "catalog", "--runs", "0"); code != 2 {
		t.Errorf("--runs 0: exit %d, want 2", code)
	}
}
