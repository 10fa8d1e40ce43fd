// annotations.js: the person's own marks on the board, as on lichess.
// Right-click a square to toggle a circle, right-drag from one square to
// another to toggle an arrow; with Shift red, Alt blue, Ctrl (or Shift+Alt)
// yellow, else green. Any left click (or tap) on the board clears them.
// They are drawn in an SVG above the squares and pieces, below a dragged
// piece, and never leave the page. The page may also show one hint arrow
// of its own (setHint: the review's best move), beneath the person's
// marks, which a click does not clear.

const FILES = 'abcdefgh';
const SVG = 'http://www.w3.org/2000/svg';
const COLOURS = { green: '#15781b', red: '#882020', blue: '#003088', yellow: '#e68f00' };
const HINT = '#1b78d0';

function colourOf(e) {
  if (e.ctrlKey || (e.shiftKey && e.altKey)) return 'yellow';
  if (e.shiftKey) return 'red';
  if (e.altKey) return 'blue';
  return 'green';
}

/** Annotations owns a board's circles and arrows. */
export class Annotations {
  /** @param board the Board (board.js) it draws on */
  constructor(board) {
    this.board = board;
    this.shapes = []; // {from, to, colour}; to === from for a circle
    this.start = null; // {sq, id} of a right button held down
    this.hint = ''; // UCI of the page's hint arrow, or ''
    this.svg = document.createElementNS(SVG, 'svg');
    this.svg.setAttribute('class', 'annotations');
    this.svg.setAttribute('viewBox', '0 0 8 8');
    this.svg.setAttribute('aria-hidden', 'true');
    board.el.append(this.svg);
    const el = board.el;
    el.addEventListener('pointerdown', (e) => this.down(e));
    el.addEventListener('pointerup', (e) => this.up(e));
    el.addEventListener('pointercancel', () => { this.start = null; });
    this.render();
  }

  down(e) {
    if (e.pointerType === 'mouse' && e.button === 2) {
      const sq = this.board.squareAt(e.clientX, e.clientY);
      this.start = sq ? { sq, id: e.pointerId } : null;
      return;
    }
    if (e.button === 0) this.clear();
  }

  up(e) {
    const s = this.start;
    if (!s || e.button !== 2 || e.pointerId !== s.id) return;
    this.start = null;
    const to = this.board.squareAt(e.clientX, e.clientY);
    if (to) this.toggle(s.sq, to, colourOf(e));
  }

  /** toggle adds a shape, recolours it, or removes it when it is the same. */
  toggle(from, to, colour) {
    const i = this.shapes.findIndex((s) => s.from === from && s.to === to);
    if (i >= 0 && this.shapes[i].colour === colour) this.shapes.splice(i, 1);
    else if (i >= 0) this.shapes[i].colour = colour;
    else this.shapes.push({ from, to, colour });
    this.render();
  }

  clear() {
    if (!this.shapes.length) return;
    this.shapes = [];
    this.render();
  }

  /** setHint shows the page's hint arrow for a UCI move ('' for none). */
  setHint(uci) {
    const h = uci && uci.length >= 4 ? uci.slice(0, 4) : '';
    if (h === this.hint) return;
    this.hint = h;
    this.render();
  }

  /** arrow is the SVG of an arrow from one square's centre to the head at another's. */
  arrow(from, to, colour, marker, attrs, width, opacity) {
    const [x1, y1] = this.centre(from);
    const [x2, y2] = this.centre(to);
    // Stop short of the target's centre so the head ends there.
    const len = Math.hypot(x2 - x1, y2 - y1);
    const k = (len - 0.3) / len;
    const ex = x1 + (x2 - x1) * k;
    const ey = y1 + (y2 - y1) * k;
    return `<line ${attrs} x1="${x1}" y1="${y1}" x2="${ex.toFixed(3)}" y2="${ey.toFixed(3)}" ` +
      `stroke="${colour}" stroke-width="${width}" stroke-linecap="round" marker-end="url(#${marker})" opacity="${opacity}"></line>`;
  }

  /** centre is a square's middle in the SVG's 8x8 units, for the board's orientation. */
  centre(sq) {
    const f = FILES.indexOf(sq[0]);
    const r = Number(sq[1]);
    return this.board.orientation === 'white' ? [f + 0.5, 8.5 - r] : [7.5 - f, r - 0.5];
  }

  render() {
    let html = '<defs>';
    for (const [name, c] of Object.entries({ ...COLOURS, hint: HINT })) {
      html += `<marker id="kw-arrowhead-${name}" orient="auto" markerWidth="4" markerHeight="8" refX="2.05" refY="2.01">` +
        `<path d="M0,0 V4 L3,2 Z" fill="${c}"></path></marker>`;
    }
    html += '</defs>';
    if (this.hint && this.hint.slice(0, 2) !== this.hint.slice(2, 4)) {
      html += this.arrow(this.hint.slice(0, 2), this.hint.slice(2, 4), HINT, 'kw-arrowhead-hint', `data-hint="${this.hint}"`, 0.2, 0.75);
    }
    for (const s of this.shapes) {
      const c = COLOURS[s.colour];
      const [x1, y1] = this.centre(s.from);
      if (s.from === s.to) {
        html += `<circle data-circle="${s.from}" data-colour="${s.colour}" cx="${x1}" cy="${y1}" r="0.45" fill="none" stroke="${c}" stroke-width="0.0625" opacity="0.8"></circle>`;
        continue;
      }
      html += this.arrow(s.from, s.to, c, `kw-arrowhead-${s.colour}`, `data-arrow="${s.from}${s.to}" data-colour="${s.colour}"`, 0.16, 0.8);
    }
    this.svg.innerHTML = html;
  }
}
