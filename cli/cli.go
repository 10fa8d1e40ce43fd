// Package cli holds the knightwatch binary's subcommands, one file each
// (serve, uci, perft, bench, match, tune, chenserver, syzygy, rbc-match,
// rbc-playback). Each registers itself in init, so adding one touches no
// shared list; Run dispatches to them and is what the tests drive in-process.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"sort"
)

// command is one subcommand of the binary.
type command struct {
	name    string
	summary string
	// run receives the arguments after the subcommand name and the streams
	// to use, so tests can drive a subcommand in-process.
	run func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
	// runWeb, set instead of run, also receives the web assets (serve).
	runWeb func(assets fs.FS, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("duplicate subcommand " + c.name)
	}
	if (c.run == nil) == (c.runWeb == nil) {
		panic("subcommand " + c.name + " needs exactly one of run and runWeb")
	}
	commands[c.name] = c
}

// Run runs the subcommand named by args[0] (serve when args is empty or
// starts with a flag) and returns the process exit code: 0 on success, 1
// when the subcommand failed (its error is printed to stderr), 2 for an
// unknown subcommand or bad flags. web holds the folders "templates" and
// "static" that serve serves.
func Run(web fs.FS, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" || name == "-h" || name == "--help" {
		usage(stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "knightwatch: unknown subcommand %q\n\n", name)
		usage(stderr)
		return 2
	}
	var err error
	if c.runWeb != nil {
		err = c.runWeb(web, args, stdin, stdout, stderr)
	} else {
		err = c.run(args, stdin, stdout, stderr)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errFlagParse):
		return 2
	}
	fmt.Fprintf(stderr, "knightwatch %s: %v\n", name, err)
	return 1
}

// errFlagParse is returned after a FlagSet has already printed its complaint.
var errFlagParse = errors.New("bad flags")

// newFlagSet returns a FlagSet that writes its usage to stderr and lets the
// caller report errors instead of exiting.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: knightwatch %s %s\n\n%s\n\nflags:\n", name, synopsis, commands[name].summary)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, mapping flag errors to errFlagParse / flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return flag.ErrHelp
		}
		return errFlagParse
	}
	return nil
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments ("rbc-match random trout --games 10") and returns the
// positional ones in order.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: knightwatch [subcommand] [flags]   (serve is the default)")
	fmt.Fprintln(w, "\nsubcommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'knightwatch SUBCOMMAND -h' for a subcommand's flags.")
}
