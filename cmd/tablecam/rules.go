package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tablecam/tablecam/rules"
)

// runRules replays a game given as JSON Lines events through the Sorcery rules
// and prints the state after each event: readable text, or one JSON object per
// event with --json.
func runRules(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print one JSON state per event (the shape of models.GameState)")
	catalogPath := fs.String("catalog", "", "card catalog: a cards.json file or a catalog directory (default: the shared card list, else the bundled samples)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: tablecam rules [--json] [--catalog PATH] EVENTS.jsonl   (- reads stdin)")
		fmt.Fprintln(e.stderr, "\nReplays a game's events and prints the state after each one, with rule warnings.")
		fs.PrintDefaults()
	}
	args, err := parseInterspersed(fs, e.args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(args) != 1 {
		fs.Usage()
		return 2
	}
	name := args[0]
	var in io.Reader = e.stdin
	if name == "-" {
		name = "stdin"
	} else {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam rules: %v\n", err)
			return 2
		}
		defer f.Close()
		in = f
	}
	cat, err := openCatalog(*catalogPath, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam rules: %v\n", err)
		return 2
	}
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	if !*asJSON {
		fmt.Fprintln(out, rules.BoardLegend)
	}
	game := rules.NewGame(cat)
	events := rules.NewEventReader(in)
	for {
		if ctx.Err() != nil {
			fmt.Fprintf(e.stderr, "tablecam rules: %v\n", ctx.Err())
			return 1
		}
		ev, err := events.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			out.Flush()
			fmt.Fprintf(e.stderr, "tablecam rules: %s: %v\n", name, err)
			return 2
		}
		if _, err := game.Apply(ev); err != nil {
			out.Flush()
			fmt.Fprintf(e.stderr, "tablecam rules: %s: %v\n", name, &rules.LineError{Line: events.Line(), Err: err})
			return 2
		}
		st := game.State()
		if *asJSON {
			b, err := json.Marshal(st)
			if err != nil {
				fmt.Fprintf(e.stderr, "tablecam rules: %v\n", err)
				return 1
			}
			out.Write(append(b, '\n'))
		} else {
			if err := rules.WriteText(out, ev, st); err != nil {
				fmt.Fprintf(e.stderr, "tablecam rules: %v\n", err)
				return 1
			}
		}
		if name == "stdin" {
			out.Flush() // a live feed shows each state as it comes
		}
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(e.stderr, "tablecam rules: %v\n", err)
		return 1
	}
	return 0
}

// parseInterspersed parses flags that may come before or after the positional
// arguments ("rules game.jsonl --json"). A lone "-" is a positional argument.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
