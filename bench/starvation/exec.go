package main

import "os/exec"

// execOutput runs a command and returns what it wrote, stdout and stderr.
func execOutput(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}
