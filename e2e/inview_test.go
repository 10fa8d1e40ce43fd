package e2e

import (
	"fmt"
	"strings"
)

// Issue 42's five screens: where a new player found the game screen's
// faults, and where every fix is checked.
var (
	desktop1440 = viewport{name: "1440x900", width: 1440, height: 900}
	tablet820   = viewport{name: "820x1180", width: 820, height: 1180, mobile: true, touch: true}
	tablet1180  = viewport{name: "1180x820", width: 1180, height: 820, mobile: true, touch: true}
	phone390    = viewport{name: "390x844", width: 390, height: 844, mobile: true, touch: true}
	phone844    = viewport{name: "844x390", width: 844, height: 390, mobile: true, touch: true}
	fiveSizes   = []viewport{desktop1440, tablet820, tablet1180, phone390, phone844}
)

// inViewJS is a JS function (el) => "" when el can be seen by a person now,
// without scrolling: it has a box, lies inside the window and inside every
// box that clips it (a scrolled move list), and nothing covers its centre;
// otherwise it says why not.
const inViewJS = `((el) => {
	if (!el) return 'missing';
	const r = el.getBoundingClientRect();
	const cs = getComputedStyle(el);
	if (r.width < 1 || r.height < 1 || cs.visibility === 'hidden') return 'not shown';
	const where = 'x ' + Math.round(r.left) + '..' + Math.round(r.right) + ', y ' + Math.round(r.top) + '..' + Math.round(r.bottom);
	if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1)
		return 'outside the ' + innerWidth + 'x' + innerHeight + ' window at ' + where;
	for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
		const s = getComputedStyle(p);
		if (s.display === 'contents' || !/(auto|scroll|hidden|clip)/.test(s.overflowX + s.overflowY)) continue;
		const q = p.getBoundingClientRect();
		if (r.top < q.top - 1 || r.bottom > q.bottom + 1 || r.left < q.left - 1 || r.right > q.right + 1)
			return 'scrolled out of ' + (p.id ? '#' + p.id : p.className || p.tagName) + ' (' + where + ' in y ' + Math.round(q.top) + '..' + Math.round(q.bottom) + ', x ' + Math.round(q.left) + '..' + Math.round(q.right) + ')';
	}
	const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
	if (hit && hit !== el && !el.contains(hit)) return 'covered by ' + (hit.id ? '#' + hit.id : hit.className || hit.tagName) + ' at ' + where;
	return '';
})`

// mustSee names the things a person needs in sight through a whole game.
type mustSee struct{ name, sel string }

// notInView lists, for each of want that the person cannot see at the
// page's current scroll position, what it is and why.
func (tb *tab) notInView(want []mustSee) []string {
	tb.t.Helper()
	parts := make([]string, len(want))
	for i, w := range want {
		parts[i] = fmt.Sprintf(`[%s, %s(document.querySelector(%s))]`, jsq(w.name), inViewJS, jsq(w.sel))
	}
	res := eval[[][2]string](tb, `[`+strings.Join(parts, ",")+`]`)
	var out []string
	for _, r := range res {
		if r[1] != "" {
			out = append(out, r[0]+": "+r[1])
		}
	}
	return out
}

// pageScroll is how far the page itself scrolls down, in CSS pixels
// (0 when it fits the window).
func (tb *tab) pageScroll() float64 {
	tb.t.Helper()
	return eval[float64](tb, `Math.max(0, document.documentElement.scrollHeight - innerHeight)`)
}
