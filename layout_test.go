package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The README's layout table is the map of the module: a row per folder,
// what it is for and what it may import. TestLayoutTable holds the code to
// it, so that an arrow pointing up (or a package cut without its row) fails
// make test:
//
//   - every package of the module falls under a row (the longest folder that
//     holds it), and imports, outside its own row's folder, only what the
//     row names;
//   - its tests may import besides what the row names after "its tests:"
//     and the module's test helpers (a package whose name ends in "test",
//     or match/fakeuci);
//   - every name a row gives is imported by a package of the row, or by its
//     tests: the table says what the code does, not what it once did.
//
// A row whose cell says "everything" is not checked; one that is only "—"
// names no Go package (templates, scripts, benchmark tools).

const module = "knightwatch"

// layoutRow is one row of the table.
type layoutRow struct {
	folder    string // "web/"; "" for main.go, the module's root
	anything  bool   // "everything", or only "—"
	allowed   []string
	testsOnly []string
}

var (
	backticked = regexp.MustCompile("`([a-z0-9_/]+)`")
	folderName = regexp.MustCompile("`([a-z0-9_/.]+)`")
)

// readLayout reads the table from README.md.
func readLayout(t *testing.T) []layoutRow {
	t.Helper()
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []layoutRow
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## Layout"):
			in = true
			continue
		case in && strings.HasPrefix(line, "## "):
			in = false
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) < 3 {
			t.Fatalf("layout row with %d cells: %s", len(cells), line)
		}
		cell := strings.TrimSpace(cells[len(cells)-1])
		row := layoutRow{}
		switch {
		case cell == "everything" || cell == "—":
			row.anything = true
		case strings.HasPrefix(cell, "nothing of ours"):
		default:
			main, tests, _ := strings.Cut(cell, "its tests:")
			for _, m := range backticked.FindAllStringSubmatch(main, -1) {
				row.allowed = append(row.allowed, m[1])
			}
			for _, m := range backticked.FindAllStringSubmatch(tests, -1) {
				row.testsOnly = append(row.testsOnly, m[1])
			}
		}
		for _, m := range folderName.FindAllStringSubmatch(cells[0], -1) {
			r := row
			r.folder = m[1]
			if r.folder == "main.go" {
				r.folder = ""
			}
			rows = append(rows, r)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// pkgInfo is what go list says of one package.
type pkgInfo struct {
	ImportPath                         string
	Imports, TestImports, XTestImports []string
}

// listPackages runs go list over the module.
func listPackages(t *testing.T) []pkgInfo {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkgInfo
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkgInfo
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// ours returns the module's packages among imports, relative to the module
// ("web", "recon/bots"; "" for the root).
func ours(imports []string) []string {
	var out []string
	for _, p := range imports {
		if p == module {
			out = append(out, "")
		} else if rel, ok := strings.CutPrefix(p, module+"/"); ok {
			out = append(out, rel)
		}
	}
	return out
}

// within reports whether package pkg lies in folder.
func within(pkg, folder string) bool {
	return folder == "" || pkg+"/" == folder || strings.HasPrefix(pkg, folder)
}

// rowOf returns the row of pkg: the longest folder that holds it.
func rowOf(rows []layoutRow, pkg string) (layoutRow, bool) {
	best, found := layoutRow{}, false
	for _, r := range rows {
		if r.folder == "" && pkg != "" {
			continue // main.go's row is the root package's alone
		}
		if within(pkg, r.folder) && (!found || len(r.folder) > len(best.folder)) {
			best, found = r, true
		}
	}
	return best, found
}

// testHelper reports whether pkg is one of the module's test helpers.
func testHelper(pkg string) bool {
	last := pkg[strings.LastIndex(pkg, "/")+1:]
	return strings.HasSuffix(last, "test") || pkg == "match/fakeuci"
}

func TestLayoutTable(t *testing.T) {
	rows := readLayout(t)
	if len(rows) < 10 {
		t.Fatalf("only %d rows read from the README's layout table", len(rows))
	}
	used := map[string]map[string]bool{} // row folder: what its packages import
	for _, p := range listPackages(t) {
		pkg := ""
		if p.ImportPath != module {
			pkg = strings.TrimPrefix(p.ImportPath, module+"/")
		}
		row, ok := rowOf(rows, pkg)
		if !ok {
			t.Errorf("package %s has no row in the README's layout table", p.ImportPath)
			continue
		}
		if used[row.folder] == nil {
			used[row.folder] = map[string]bool{}
		}
		for _, imp := range ours(p.Imports) {
			used[row.folder][imp] = true
			if row.anything || within(imp, row.folder) && row.folder != "" || slices.Contains(row.allowed, imp) {
				continue
			}
			t.Errorf("%s imports %s, which its row (%q) does not allow: %v", p.ImportPath, imp, row.folder, row.allowed)
		}
		for _, imp := range ours(append(p.TestImports, p.XTestImports...)) {
			used[row.folder][imp] = true
			if row.anything || imp == pkg || within(imp, row.folder) && row.folder != "" || testHelper(imp) ||
				slices.Contains(row.allowed, imp) || slices.Contains(row.testsOnly, imp) {
				continue
			}
			t.Errorf("the tests of %s import %s, which its row (%q) does not allow: %v, its tests %v", p.ImportPath, imp, row.folder, row.allowed, row.testsOnly)
		}
	}
	for _, r := range rows {
		if r.anything {
			continue
		}
		var stale []string
		for _, name := range append(append([]string{}, r.allowed...), r.testsOnly...) {
			if !used[r.folder][name] {
				stale = append(stale, name)
			}
		}
		sort.Strings(stale)
		if stale != nil {
			t.Errorf("the row of %q names %v, which nothing in it imports", r.folder, stale)
		}
	}
}
