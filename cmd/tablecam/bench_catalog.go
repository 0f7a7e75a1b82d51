package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tablecam/tablecam/models"
)

// catalogLoadTarget is the load time the catalog must stay under.
const catalogLoadTarget = 100 * time.Millisecond

// catalogBench holds the figures of "tablecam bench catalog".
type catalogBench struct {
	Path          string  `json:"path"`
	Cards         int     `json:"cards"`
	Runs          int     `json:"runs"`
	LoadMedianMS  float64 `json:"load_median_ms"`
	LoadMinMS     float64 `json:"load_min_ms"`
	LoadMaxMS     float64 `json:"load_max_ms"`
	UnderTarget   bool    `json:"under_target"`
	LookupsPerSec float64 `json:"lookups_per_sec"`
	SuggestPerSec float64 `json:"suggestions_per_sec"`
	SearchPerSec  float64 `json:"searches_per_sec"`
}

// runBenchCatalog is "tablecam bench catalog": how long the catalog takes to
// load (the median of --runs loads) and how many lookups, suggestions and
// searches it answers per second.
func runBenchCatalog(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("tablecam bench catalog", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	path := fs.String("catalog", "", "card list `PATH` (JSON file or catalog directory)")
	runs := fs.Int("runs", 15, "how many times to load the catalog")
	asJSON := fs.Bool("json", false, "print JSON")
	window := fs.Duration("measure", 300*time.Millisecond, "how long to measure each rate")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 || *runs < 1 || *window <= 0 {
		fmt.Fprintln(e.stderr, "usage: tablecam bench catalog [--catalog PATH] [--runs N] [--measure DURATION] [--json]")
		return 2
	}
	cat, err := openCatalog(*path, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam bench catalog: %v\n", err)
		return 2
	}
	b, err := benchCatalog(ctx, cat, *runs, *window)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam bench catalog: %v\n", err)
		return 1
	}
	if *asJSON {
		if err := writeJSON(e.stdout, b); err != nil {
			return 1
		}
		return 0
	}
	writeCatalogBench(e.stdout, b)
	return 0
}

func benchCatalog(ctx context.Context, cat *models.Catalog, runs int, window time.Duration) (catalogBench, error) {
	b := catalogBench{Path: cat.Path, Cards: cat.Len(), Runs: runs}
	times := make([]time.Duration, 0, runs)
	for range runs {
		if err := ctx.Err(); err != nil {
			return b, err
		}
		start := time.Now()
		if _, err := models.LoadCatalog(cat.Path); err != nil {
			return b, err
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	median := times[len(times)/2]
	if len(times)%2 == 0 {
		median = (times[len(times)/2-1] + times[len(times)/2]) / 2
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.LoadMedianMS, b.LoadMinMS, b.LoadMaxMS = ms(median), ms(times[0]), ms(times[len(times)-1])
	b.UnderTarget = median < catalogLoadTarget
	if cat.Len() == 0 {
		return b, nil
	}

	// Lookups the way people and vision make them: names as printed, in
	// capitals, slugs and printing slugs.
	var queries []string
	for _, c := range cat.Cards() {
		queries = append(queries, c.Name, strings.ToUpper(c.Name), c.Slug)
		if len(c.Printings) > 0 {
			queries = append(queries, c.Printings[0])
		}
	}
	rate, err := perSecond(ctx, window, func(i int) error {
		_, err := cat.Lookup(queries[i%len(queries)])
		return err
	})
	if err != nil {
		return b, err
	}
	b.LookupsPerSec = rate

	// Suggestions for misspelt names: two neighbouring letters swapped.
	var typos []string
	for _, c := range cat.Cards() {
		r := []rune(c.Name)
		if len(r) > 4 {
			r[2], r[3] = r[3], r[2]
			typos = append(typos, string(r))
		}
	}
	if len(typos) > 0 {
		b.SuggestPerSec, _ = perSecond(ctx, window, func(i int) error {
			cat.Suggest(typos[i%len(typos)], 3)
			return nil
		})
	}

	searches := []string{"draw a spell", "type:minion cost<=2", "keyword:airborne", "deal damage", "is:water"}
	b.SearchPerSec, _ = perSecond(ctx, window, func(i int) error {
		cat.Search(searches[i%len(searches)])
		return nil
	})
	return b, nil
}

// perSecond calls f with 0, 1, 2… for about d and gives the calls per second.
func perSecond(ctx context.Context, d time.Duration, f func(i int) error) (float64, error) {
	start := time.Now()
	n := 0
	for {
		// Check the clock every few calls only: it costs more than a lookup.
		for range 64 {
			if err := f(n); err != nil {
				return 0, err
			}
			n++
		}
		if el := time.Since(start); el >= d || ctx.Err() != nil {
			return float64(n) / el.Seconds(), ctx.Err()
		}
	}
}

func writeCatalogBench(w io.Writer, b catalogBench) {
	verdict := "under the 100 ms target"
	if !b.UnderTarget {
		verdict = "OVER the 100 ms target"
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "catalog\t%s (%d cards)\n", b.Path, b.Cards)
	fmt.Fprintf(tw, "load\tmedian %.1f ms of %d runs (min %.1f, max %.1f): %s\n", b.LoadMedianMS, b.Runs, b.LoadMinMS, b.LoadMaxMS, verdict)
	fmt.Fprintf(tw, "lookups\t%s per second (names, capitals, slugs, printing slugs)\n", humanRate(b.LookupsPerSec))
	fmt.Fprintf(tw, "suggestions\t%s per second (misspelt names)\n", humanRate(b.SuggestPerSec))
	fmt.Fprintf(tw, "searches\t%s per second\n", humanRate(b.SearchPerSec))
	tw.Flush()
}

// humanRate writes 2345678 as "2.35 million" and 1234 as "1234".
func humanRate(r float64) string {
	if r >= 1e6 {
		return fmt.Sprintf("%.2f million", r/1e6)
	}
	return fmt.Sprintf("%.0f", r)
}
