// Command knightwatch is chess in the browser against a Go engine, plus
// Reconnaissance Chess, in one binary. Run it without arguments to serve the
// web app; other subcommands (package cli) expose the engine, the rules
// library and the Reconnaissance Chess bots.
package main

import (
	"os"

	"knightwatch/cli"
)

func main() {
	os.Exit(cli.Run(webAssets, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
