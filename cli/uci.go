package cli

import (
	"fmt"
	"io"

	"knightwatch/engine"
)

func init() {
	register(command{
		name:    "uci",
		summary: "run the engine under the Universal Chess Interface on stdin/stdout",
		run:     runUCI,
	})
}

func runUCI(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("uci", "", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return engine.UCI(stdin, stdout)
}
