package cli

import (
	"path/filepath"
	"testing"
)

// serve documents --experience and its variable, and refuses a value of
// KNIGHTWATCH_EXPERIENCE that is neither on nor off, and a row cap below 1.
func TestServeExperienceSwitch(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name       string
		env        string
		args       []string
		wantStatus int
		wantErr    []string
	}{
		{"help", "", []string{"serve", "-h"}, 0, []string{"-experience", "KNIGHTWATCH_EXPERIENCE=off", "-experience-rows"}},
		{"bad variable", "maybe", []string{"serve", "--db", filepath.Join(dir, "a.db")}, 1, []string{`KNIGHTWATCH_EXPERIENCE="maybe"`, "on or off"}},
		{"bad cap", "off", []string{"serve", "--db", filepath.Join(dir, "b.db"), "--experience-rows", "0"}, 1, []string{"--experience-rows"}},
	}
	for _, tc := range tests {
		t.Setenv("KNIGHTWATCH_EXPERIENCE", tc.env)
		checkServeRun(t, tc.name, tc.args, tc.wantStatus, tc.wantErr)
	}
}

func TestEnvOnOff(t *testing.T) {
	cases := []struct {
		value   string
		def     bool
		want    bool
		wantErr bool
	}{
		{"", true, true, false},
		{"", false, false, false},
		{"off", true, false, false},
		{" OFF ", true, false, false},
		{"0", true, false, false},
		{"no", true, false, false},
		{"false", true, false, false},
		{"on", false, true, false},
		{"Yes", false, true, false},
		{"1", false, true, false},
		{"disabled", true, false, true},
	}
	for _, c := range cases {
		t.Setenv("KW_TEST_SWITCH", c.value)
		got, err := envOnOff("KW_TEST_SWITCH", c.def)
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("%q (default %v): %v, %v", c.value, c.def, got, err)
		}
	}
}
