//go:build unix

package match

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the engine in its own process group, so that killing
// it also kills anything it started (an engine run through a shell script or
// "go run" is two processes).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcess kills the engine's whole process group.
func killProcess(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
