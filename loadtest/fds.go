package loadtest

import (
	"fmt"
	"syscall"
)

// checkFDs refuses a run that needs more descriptors than this process
// (and the server it starts, which inherits the limit) may open, with the
// fix in words, rather than failing halfway with "too many open files".
func checkFDs(need int) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return nil // unknown: let the run find out
	}
	if uint64(need) > lim.Cur {
		return fmt.Errorf("loadtest: needs about %d open files, the limit is %d (raise it with ulimit -n, up to %d)", need, lim.Cur, lim.Max)
	}
	return nil
}
