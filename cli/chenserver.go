package cli

import (
	"fmt"
	"io"
	"net"
	"strconv"

	"knightwatch/chenserver"
	"knightwatch/engine"
)

func init() {
	register(command{
		name:    "chenserver",
		summary: "ChenServer-compatible line protocol on stdin/stdout (-s) or TCP and HTTP GET (-p PORT)",
		run:     runChenserver,
	})
}

func runChenserver(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("chenserver", "-s | -p PORT", stderr)
	stdio := fs.Bool("s", false, "read commands from standard input, answer on standard output")
	port := fs.Int("p", 0, "serve TCP (one command per connection) and HTTP GET on this port, 1..65535")
	host := fs.String("host", "", "address to listen on with -p (empty: all interfaces, as ChenServer does)")
	hashMB := fs.Int("hash", 64, "engine transposition table size in MB")
	maxLine := fs.Int("maxline", chenserver.DefaultMaxLine, "longest accepted command line in bytes")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	switch {
	case *stdio && *port != 0:
		return fmt.Errorf("give either -s or -p PORT, not both")
	case !*stdio && *port == 0:
		fs.Usage()
		return errFlagParse
	case !*stdio && (*port < 1 || *port > 65535):
		return fmt.Errorf("invalid port number %d: must be an integer in the range 1..65535", *port)
	case *hashMB < engine.UCIOption("Hash").Min:
		return fmt.Errorf("-hash must be at least %d, got %d", engine.UCIOption("Hash").Min, *hashMB)
	case *maxLine < 16:
		return fmt.Errorf("-maxline must be at least 16, got %d", *maxLine)
	}

	session := chenserver.NewSession(chenserver.NewEngineThinker(*hashMB))
	if *stdio {
		return chenserver.ServeLines(session, stdin, stdout, *maxLine)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "chenserver: listening on %s (TCP lines and HTTP GET); send \"exit\" to stop\n", ln.Addr())
	srv := &chenserver.Server{Session: session, MaxLine: *maxLine}
	return srv.Serve(ln)
}
