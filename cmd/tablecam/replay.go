package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/tablecam/tablecam/rules"
	"github.com/tablecam/tablecam/tracker"
)

// runReplay rebuilds a game from its journal, with the undos and corrections
// in force, and prints it as `tablecam rules` does: the state after each
// event (or only the last with --final), as text or JSON lines.
func runReplay(_ context.Context, e env) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print JSON states (the shape of `tablecam rules --json`)")
	final := fs.Bool("final", false, "print only the state after the last event")
	catalogPath := fs.String("catalog", "", "card catalog (default: the one the journal names, else as `tablecam rules` picks)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: tablecam replay [--json] [--final] [--catalog PATH] JOURNAL.jsonl")
		fmt.Fprintln(e.stderr, "\nRebuilds a game from the journal `tablecam watch` wrote and prints its state.")
		fs.PrintDefaults()
	}
	args, code, ok := parseCommandLine(fs, e.args, 1)
	if !ok {
		return code
	}
	entries, torn, err := tracker.ReadJournal(args[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam replay: %v\n", err)
		return 2
	}
	if torn != nil {
		fmt.Fprintf(e.stderr, "tablecam replay: %v\n", torn)
	}
	path := *catalogPath
	if path == "" {
		if p := tracker.CatalogPath(entries); p != "" {
			if _, err := os.Stat(p); err == nil {
				path = p
			}
		}
	}
	cat, err := openCatalog(path, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam replay: %v\n", err)
		return 2
	}
	game := tracker.LoadGame(func() tracker.Rules { return rules.NewGame(cat) }, entries, nil, cat)
	for _, r := range game.Rejected() {
		fmt.Fprintf(e.stderr, "tablecam replay: %s: entry %d refused by the rules: %v\n", args[0], r.Seq, r.Err)
	}
	events := game.Events()
	if len(events) == 0 {
		fmt.Fprintf(e.stderr, "tablecam replay: %s: no game events yet\n", args[0])
		return 1
	}
	states, err := rules.Replay(cat, events)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam replay: %v\n", err)
		return 1
	}
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	if !*asJSON {
		fmt.Fprintln(out, rules.BoardLegend)
	}
	first := 0
	if *final {
		first = len(states) - 1
	}
	for i := first; i < len(states); i++ {
		if *asJSON {
			b, err := json.Marshal(states[i])
			if err != nil {
				fmt.Fprintf(e.stderr, "tablecam replay: %v\n", err)
				return 1
			}
			out.Write(append(b, '\n'))
		} else if err := rules.WriteText(out, events[i], states[i]); err != nil {
			fmt.Fprintf(e.stderr, "tablecam replay: %v\n", err)
			return 1
		}
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(e.stderr, "tablecam replay: %v\n", err)
		return 1
	}
	return 0
}
