package recon

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// referenceFiles returns every history file the reference wrote that the
// repository keeps: testdata/fixtures (a copy of the project's shared
// fixtures) and testdata/reference (games made for this package).
func referenceFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"testdata/fixtures", "testdata/reference"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".json") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 38 {
		t.Fatalf("found %d reference histories, want at least the 38 shared fixtures", len(files))
	}
	return files
}

// TestReferenceHistoriesRoundTrip loads every reference history and saves it
// again: the bytes must be the reference's own.
func TestReferenceHistoriesRoundTrip(t *testing.T) {
	for _, path := range referenceFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h, err := UnmarshalHistory(data)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if out := MarshalHistory(h); !bytes.Equal(out, data) {
			i := 0
			for i < len(out) && i < len(data) && out[i] == data[i] {
				i++
			}
			lo := max(0, i-60)
			t.Errorf("%s: re-saved file differs at byte %d:\n got  ...%s\n want ...%s", path, i,
				out[lo:min(len(out), i+60)], data[lo:min(len(data), i+60)])
		}
	}
}

// TestReferenceHistoriesReplay re-runs the arbiter on every reference
// history: every sense result, taken move, capture square, FEN and outcome
// must agree.
func TestReferenceHistoriesReplay(t *testing.T) {
	for _, path := range referenceFiles(t) {
		h, err := LoadHistory(path)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		n, err := Playback(h, PlaybackOptions{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if n != h.NumTurns() {
			t.Errorf("%s: replayed %d turns of %d", path, n, h.NumTurns())
		}
	}
}

// TestSharedFixturesCopy checks that testdata/fixtures, the copy every
// other test reads, is still the project's shared fixture set in shared/
// beside the repository. The copy is what the tests need; the comparison
// is possible only where shared/ is present, so elsewhere (a clone on its
// own) the test skips and names the folder it looked for.
func TestSharedFixturesCopy(t *testing.T) {
	shared := filepath.Join("..", "..", "shared", "fixtures", "reconchess")
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("no shared fixture set at %s to compare testdata/fixtures with: %v", shared, err)
	}
	err := filepath.WalkDir(shared, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(shared, path)
		want, _ := os.ReadFile(path)
		got, err := os.ReadFile(filepath.Join("testdata", "fixtures", rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("testdata/fixtures/%s is missing or differs from %s", rel, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
