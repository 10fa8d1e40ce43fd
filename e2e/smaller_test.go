package e2e

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSmallerFaults (issue 42, item 8): the smaller faults a new player
// met, each where it showed.
func TestSmallerFaults(t *testing.T) {
	e := newEnv(t)

	// A typed move clears the circles and arrows, as a move by hand does.
	t.Run("typed-move-clears-marks", func(t *testing.T) {
		tb := e.newTab(t, desktop1440)
		defer tb.close()
		tb.newGame(gameOpts{color: "white", level: "1"})
		tb.rightClickSquare("e4", 0)
		tb.rightDrag("d2", "d4", 0)
		tb.waitJS(`document.querySelectorAll('#board svg.annotations circle, #board svg.annotations line').length === 2`,
			"a circle and an arrow", `document.querySelector('#board svg.annotations')?.outerHTML.slice(0, 300)`, uiWait)
		tb.typeMove("e4")
		tb.waitPly(1, uiWait)
		tb.shot("typed-e4")
		if n := eval[int](tb, `document.querySelectorAll('#board svg.annotations circle, #board svg.annotations line[data-arrow]').length`); n != 0 {
			t.Errorf("%d circles and arrows still on the board after a typed move", n)
		}
		tb.waitPly(2, engineWait)
	})

	// The upload form's label reads as one block of text, not a word a line.
	for _, c := range []struct {
		vp    viewport
		lines int
	}{{desktop1440, 2}, {phone390, 3}} {
		t.Run("replay-label-"+c.vp.name, func(t *testing.T) {
			tb := e.newTab(t, c.vp)
			defer tb.close()
			tb.open("/replay")
			tb.shot("replay-form")
			n := eval[int](tb, `(() => { const l = document.querySelector('.replay-upload label');
				const r = document.createRange(), boxes = [];
				const walk = document.createTreeWalker(l, NodeFilter.SHOW_TEXT);
				for (let t = walk.nextNode(); t; t = walk.nextNode()) {
					if (!t.textContent.trim()) continue;
					r.selectNodeContents(t);
					boxes.push(...r.getClientRects());
				}
				// A box that starts below the line so far starts a new line.
				boxes.sort((a, b) => a.top - b.top);
				let lines = 0, bottom = -Infinity;
				for (const q of boxes) { if (q.top >= bottom - 3) { lines++; bottom = q.bottom; } else bottom = Math.max(bottom, q.bottom); }
				return lines; })()`)
			if n > c.lines {
				t.Errorf("[%s] the upload label takes %d lines, want at most %d", c.vp.name, n, c.lines)
			}
		})
	}

	// The commands on /bots are whole: nothing cut off or hidden in a box
	// that scrolls.
	for _, vp := range []viewport{desktop1440, phone390} {
		t.Run("bots-commands-"+vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.open("/bots")
			tb.shot("bots")
			got := eval[[]float64](tb, `(() => { const p = document.querySelector('pre.code'); return [p.scrollWidth, p.clientWidth, p.scrollHeight, p.clientHeight]; })()`)
			if got[0] > got[1]+1 || got[2] > got[3]+1 {
				t.Errorf("[%s] the commands are cut off: %.0fx%.0f of text in a %.0fx%.0f box", vp.name, got[0], got[2], got[1], got[3])
			}
		})
	}

	// A long replay's step numbers (three digits) have room in the list.
	t.Run("replay-step-numbers", func(t *testing.T) {
		tb := e.newTab(t, desktop1440)
		defer tb.close()
		path, err := filepath.Abs(filepath.Join("..", "recon", "testdata", "fixtures", "random_seed1.json"))
		if err != nil {
			t.Fatal(err)
		}
		tb.open("/replay")
		tb.do(chromedp.SetUploadFiles(chromedp.CSS(`input[type=file][name=history]`), []string{path}))
		tb.clickSel(`.replay-upload button[type=submit]`)
		tb.waitJS(`document.querySelectorAll('#replay-steps li').length > 100`, "a replay of more than 100 steps", `document.body.innerText.slice(0, 200)`, uiWait)
		eval[bool](tb, `(document.querySelector('#replay-steps li:last-child').scrollIntoView({block: 'nearest'}), true)`)
		tb.shot("replay-end")
		got := eval[[]float64](tb, `(() => { const ol = document.getElementById('replay-steps'), li = ol.lastElementChild;
			const s = document.createElement('span'); const cs = getComputedStyle(li);
			s.style.font = cs.font; s.style.fontVariantNumeric = cs.fontVariantNumeric; s.style.position = 'absolute'; s.style.whiteSpace = 'pre';
			s.textContent = ol.children.length + '. '; document.body.append(s);
			const need = s.getBoundingClientRect().width; s.remove();
			return [need, parseFloat(getComputedStyle(ol).paddingLeft), ol.children.length]; })()`)
		if got[0] > got[1] {
			t.Errorf("step %.0f's number needs %.1f px, the list leaves %.1f px: it is cut off", got[2], got[0], got[1])
		}
	})

	// A remembered black piece on a light square still reads as black: the
	// piece's ink keeps 3:1 against the square (WCAG 1.4.11), however old.
	t.Run("remembered-black-pieces", func(t *testing.T) {
		tb := e.newTab(t, desktop1440)
		defer tb.close()
		tb.newRecon("white", "random", "15+5")
		for turn := 0; turn < 3; turn++ {
			if tb.waitMyPhase() != "sense" {
				t.Fatalf("the game ended in its first turns (phase %q)", tb.phase())
			}
			if turn == 0 {
				tb.senseAt("e7")
			} else {
				tb.clickAction("skip-sense")
				tb.waitJS(`document.getElementById('board').getAttribute('data-phase') === 'move'`, "the move phase", ``, uiWait)
			}
			before := tb.seq()
			tb.clickAction("pass")
			tb.waitJS(`+document.getElementById('board').getAttribute('data-seq') > `+strconv.Itoa(before), "the pass", ``, uiWait)
		}
		tb.waitMyPhase()
		tb.shot("remembered")
		type piece struct {
			Square  string
			Opacity float64
		}
		got := eval[[]piece](tb, `[...document.querySelectorAll('#board .sq:not(.dark) img[data-seen="old"][data-piece^="b"]')].map((i) =>
			({Square: i.closest('[data-square]').dataset.square, Opacity: parseFloat(getComputedStyle(i).opacity)}))`)
		if len(got) == 0 {
			t.Fatalf("no remembered black piece on a light square after sensing e7")
		}
		for _, p := range got {
			// Ink (#000) at opacity o over the light square (luminance L)
			// has luminance (1-o)L; 3:1 against L needs o >= 0.72 here.
			if p.Opacity < 0.72 {
				t.Errorf("the remembered black piece on %s is drawn at opacity %.2f: grey, not black", p.Square, p.Opacity)
			}
		}
	})
}
