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

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/rules"
)

// runRules replays a game given as JSON Lines events through the Sorcery rules
// and prints the state after each event: readable text, or one JSON object per
// event with --json.
func runRules(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print one JSON state per event (the shape of models.GameState)")
	onlyWarnings := fs.Bool("warnings", false, "print only the events that raise warnings, then the final state")
	catalogPath := fs.String("catalog", "", "card catalog: a cards.json file or a catalog directory (default: the shared card list, else the bundled samples)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: tablecam rules [--json] [--warnings] [--catalog PATH] EVENTS.jsonl   (- reads stdin)")
		fmt.Fprintln(e.stderr, "\nReplays a game's events and prints the state after each one, with rule warnings.")
		fs.PrintDefaults()
	}
	args, code, ok := parseCommandLine(fs, e.args, 1)
	if !ok {
		return code
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
	var (
		last    models.GameState
		lastEv  models.Event
		pending bool
	)
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
		for _, f := range events.Ignored() {
			fmt.Fprintf(e.stderr, "tablecam rules: %s: line %d: field %q is not an event field; skipped\n", name, events.Line(), f)
		}
		if _, err := game.Apply(ev); err != nil {
			out.Flush()
			fmt.Fprintf(e.stderr, "tablecam rules: %s: %v\n", name, &rules.LineError{Line: events.Line(), Err: err})
			return 2
		}
		st := game.State()
		if *onlyWarnings && len(st.Warnings) == 0 {
			last, lastEv, pending = st, ev, true
			continue
		}
		pending = false
		if err := printState(out, ev, st, *asJSON); err != nil {
			fmt.Fprintf(e.stderr, "tablecam rules: %v\n", err)
			return 1
		}
		if name == "stdin" {
			out.Flush() // a live feed shows each state as it comes
		}
	}
	if pending {
		// --warnings: the final state closes the report.
		if err := printState(out, lastEv, last, *asJSON); err != nil {
			fmt.Fprintf(e.stderr, "tablecam rules: %v\n", err)
			return 1
		}
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(e.stderr, "tablecam rules: %v\n", err)
		return 1
	}
	return 0
}

// printState writes one state as a JSON line or as text.
func printState(w io.Writer, ev models.Event, st models.GameState, asJSON bool) error {
	if !asJSON {
		return rules.WriteText(w, ev, st)
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
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

// parseCommandLine parses a subcommand's flags and operands (flags may follow
// operands) and checks that there are want operands; want < 0 takes any number.
// When ok is false the command returns code: 0 after -h, 2 after a bad flag or
// a wrong number of operands (with the usage printed).
func parseCommandLine(fs *flag.FlagSet, args []string, want int) (operands []string, code int, ok bool) {
	operands, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0, false
		}
		return nil, 2, false
	}
	if want >= 0 && len(operands) != want {
		fs.Usage()
		return nil, 2, false
	}
	return operands, 0, true
}
