// Command tablecam watches a Sorcery: Contested Realm table through a webcam
// and keeps the game state. Run "tablecam help" for the subcommands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// env is what a subcommand gets from the process: its arguments and streams.
type env struct {
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command runs one subcommand and returns the process exit code:
// 0 success, 1 failure, 2 bad input or usage.
type command struct {
	summary string
	run     func(ctx context.Context, e env) int
}

func commands() map[string]command {
	return map[string]command{
		"catalog":   {"look up cards: stats | show NAME | search TEXT", runCatalog},
		"rules":     {"replay a game's events through the Sorcery rules", runRules},
		"deck":      {"check a decklist: deck check DECK.txt", runDeck},
		"synth":     {"render sample catalogs, table scenes and recorded games", runSynth},
		"calibrate": {"find the realm in an image and save the calibration", runCalibrate},
		"analyze":   {"find the realm and read every card in camera images", runAnalyze},
		"watch":     {"run the whole pipeline on a video, camera or frames", runWatch},
		"replay":    {"rebuild a game's state from its journal", runReplay},
		"bench":     {"measure vision, tracker and catalog figures", runBench},
		"play":      {"the overlay on the sample game or a camera (the default)", runPlay},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, env{args: os.Args[1:], stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr})
	stop()
	os.Exit(code)
}

func run(ctx context.Context, e env) int {
	cmds := commands()
	if len(e.args) == 0 || (len(e.args[0]) > 0 && e.args[0][0] == '-' && e.args[0] != "-h" && e.args[0] != "--help") {
		// No subcommand: the main job, with any flags passed on.
		return runPlay(ctx, e)
	}
	name := e.args[0]
	if name == "help" || name == "-h" || name == "--help" {
		usage(e.stdout, cmds)
		return 0
	}
	cmd, ok := cmds[name]
	if !ok {
		fmt.Fprintf(e.stderr, "tablecam: unknown command %q\n\n", name)
		usage(e.stderr, cmds)
		return 2
	}
	e.args = e.args[1:]
	return cmd.run(ctx, e)
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: tablecam [COMMAND] [FLAGS] [ARGS]")
	fmt.Fprintln(w, "\nWith no command, tablecam plays the bundled sample game in the overlay.")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, cmds[n].summary)
	}
}
