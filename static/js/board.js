// board.js draws the 8x8 board and turns pointer input (mouse, pen, touch)
// into (from, to) requests. It never decides legality: the caller hands it
// the server's legal destinations and it only offers those. During the
// engine's turn it may instead be given premove destinations (premove.js):
// a move chosen then is only held and highlighted (board.premove) until
// the page plays or drops it.

import { Annotations } from './annotations.js';
import { pieceURL } from './pieces.js';

const FILES = 'abcdefgh';

// Piece images come from pieces.js (the set chosen on this browser);
// pieceURL is re-exported for the pages that import it from here.
export { pieceURL };

/** parseBoard expands a FEN's placement field into a square -> code map. */
export function parseBoard(fen) {
  const out = new Map();
  const placement = (fen || '').split(' ')[0] || '';
  let rank = 8;
  let file = 0;
  for (const c of placement) {
    if (c === '/') { rank--; file = 0; continue; }
    if (c >= '1' && c <= '8') { file += Number(c); continue; }
    if (file < 8 && rank >= 1) {
      const color = c === c.toUpperCase() ? 'w' : 'b';
      out.set(FILES[file] + rank, color + c.toUpperCase());
    }
    file++;
  }
  return out;
}

/** Board owns #board's squares, pieces, highlights and drag-and-drop. */
export class Board {
  /**
   * @param {HTMLElement} el the #board element
   * @param {{onMove: (from: string, to: string) => void, annotations?: boolean}} opts
   *   annotations: right-click circles and arrows (annotations.js)
   */
  constructor(el, opts) {
    this.el = el;
    this.onMove = opts.onMove;
    this.orientation = 'white';
    this.pieces = new Map();
    this.dests = new Map(); // from -> Set(to): what the person may move now
    this.premoveDests = new Map(); // from -> Set(to): what they may premove (engine's turn)
    this.premove = null; // {from, to} held until the engine has moved
    this.movableColor = ''; // 'w' | 'b' | '' (nobody)
    this.selected = '';
    this.drag = null;
    this.squares = new Map();
    this.build();
    if (opts.annotations) this.annotations = new Annotations(this);
    el.addEventListener('pointerdown', (e) => this.pointerDown(e));
    el.addEventListener('pointermove', (e) => this.pointerMove(e));
    el.addEventListener('pointerup', (e) => this.pointerUp(e));
    el.addEventListener('pointercancel', () => this.cancelDrag());
    el.addEventListener('lostpointercapture', () => { if (this.drag) this.cancelDrag(); });
    el.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  build() {
    for (let r = 8; r >= 1; r--) {
      for (let f = 0; f < 8; f++) {
        const sq = document.createElement('div');
        const name = FILES[f] + r;
        sq.className = 'sq ' + ((f + r) % 2 === 1 ? 'dark' : 'light');
        sq.dataset.square = name;
        this.el.append(sq);
        this.squares.set(name, sq);
      }
    }
    this.coords = document.createElement('div');
    this.coords.className = 'coords';
    this.coords.setAttribute('aria-hidden', 'true');
    this.el.append(this.coords);
    this.layout();
  }

  /** layout places squares and edge coordinates for the current orientation. */
  layout() {
    const white = this.orientation === 'white';
    for (const [name, sq] of this.squares) {
      const f = FILES.indexOf(name[0]);
      const r = Number(name[1]);
      sq.style.gridColumn = String(white ? f + 1 : 8 - f);
      sq.style.gridRow = String(white ? 9 - r : r);
    }
    // The top-left square is light whichever side is down, so the label
    // colours follow the display grid and only the text changes.
    let html = '';
    for (let i = 0; i < 8; i++) {
      const rank = white ? 8 - i : i + 1;
      html += `<span class="rank ${i % 2 === 0 ? 'on-light' : 'on-dark'}" style="top:calc(${i} * 12.5% + 2px)">${rank}</span>`;
      const file = FILES[white ? i : 7 - i];
      html += `<span class="file ${i % 2 === 0 ? 'on-dark' : 'on-light'}" style="right:calc(${7 - i} * 12.5% + 2px)">${file}</span>`;
    }
    this.coords.innerHTML = html;
    this.el.dataset.orientation = this.orientation;
    this.annotations?.render();
  }

  setOrientation(o) {
    if (o === this.orientation) return;
    this.orientation = o;
    this.layout();
  }

  /**
   * setPosition draws fen. When anim names a move {from, to} just played,
   * the piece slides there (about 150 ms) instead of jumping.
   */
  setPosition(fen, anim) {
    this.cancelDrag();
    const next = parseBoard(fen);
    let fromRect = null;
    if (anim && this.squares.has(anim.from)) fromRect = this.squares.get(anim.from).getBoundingClientRect();
    for (const [name, sq] of this.squares) {
      const want = next.get(name) || '';
      const img = sq.querySelector('.piece');
      if (img && img.dataset.piece === want) continue;
      if (img) img.remove();
      if (want) sq.prepend(makePiece(want));
    }
    this.pieces = next;
    this.el.dataset.fen = fen;
    if (fromRect && anim.to && !reducedMotion()) {
      const img = this.squares.get(anim.to)?.querySelector('.piece');
      if (img && img.animate) {
        const to = this.squares.get(anim.to).getBoundingClientRect();
        const dx = fromRect.left - to.left;
        const dy = fromRect.top - to.top;
        img.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }],
          { duration: 150, easing: 'ease-out' });
      }
    }
  }

  /**
   * setPieceMap draws pieces from a Map of square -> {code, seen, age}:
   * Reconnaissance Chess boards, where an opponent piece carries data-seen
   * ("now" for this turn's sense, "old" for one remembered) and fades with
   * its age in turns: it shrinks, and pales a little, but never below the
   * opacity at which a black piece still reads as black on a light square
   * (3:1 against it, WCAG's contrast for shapes) rather than as grey.
   */
  setPieceMap(map) {
    this.cancelDrag();
    const codes = new Map();
    for (const [name, sq] of this.squares) {
      const want = map.get(name);
      sq.querySelector('.piece')?.remove();
      if (!want) continue;
      const img = makePiece(want.code);
      if (want.seen) {
        img.dataset.seen = want.seen;
        if (want.seen === 'old') {
          const age = want.age || 0;
          img.style.opacity = String(Math.max(0.75, 0.9 - 0.05 * age));
          img.style.scale = String(Math.max(0.7, 0.9 - 0.05 * age));
        }
      } else {
        codes.set(name, want.code);
      }
      sq.prepend(img);
    }
    // Destination rings treat only the person's own pieces as real.
    this.pieces = codes;
  }

  /** setMarkers draws the person's notes: a Map of square -> piece code. */
  setMarkers(markers) {
    for (const [name, sq] of this.squares) {
      const want = markers.get(name) || '';
      const el = sq.querySelector('.marker');
      if (el && el.dataset.marker === want) continue;
      el?.remove();
      if (!want) continue;
      const m = document.createElement('div');
      m.className = 'marker';
      m.dataset.marker = want;
      const img = document.createElement('img');
      img.src = pieceURL(want);
      img.alt = '';
      img.draggable = false;
      m.append(img);
      sq.append(m);
    }
  }

  /** markSquares toggles class cls on exactly the squares in names. */
  markSquares(cls, names) {
    const set = new Set(names);
    for (const [name, sq] of this.squares) sq.classList.toggle(cls, set.has(name));
  }

  /** setHighlights marks the last move and a king in check. */
  setHighlights(last, check) {
    for (const [name, sq] of this.squares) {
      sq.classList.toggle('last', !!last && (name === last.from || name === last.to));
      sq.classList.toggle('check', name === check);
    }
  }

  /**
   * setMovable gives the destinations the person may choose now (a Map of
   * from -> Set of to), or an empty map when they may not move; premoves
   * (optional) are the destinations they may queue while they may not.
   */
  setMovable(color, dests, premoves = new Map()) {
    this.movableColor = color;
    this.dests = dests;
    this.premoveDests = dests.size > 0 ? new Map() : premoves;
    const active = this.activeDests();
    this.el.classList.toggle('movable', active.size > 0);
    this.el.classList.toggle('premoving', dests.size === 0 && active.size > 0);
    for (const [name, sq] of this.squares) sq.classList.toggle('mine', active.has(name));
    if (this.selected && !active.has(this.selected)) this.select('');
    else if (this.selected) this.select(this.selected);
  }

  /** activeDests is what a click or drag may choose: moves, else premoves. */
  activeDests() {
    return this.dests.size > 0 ? this.dests : this.premoveDests;
  }

  /** setPremove holds (and highlights) a premove {from, to}, or drops it (null). */
  setPremove(pm) {
    this.premove = pm ? { from: pm.from, to: pm.to } : null;
    for (const [name, sq] of this.squares) {
      sq.classList.toggle('premove', !!pm && (name === pm.from || name === pm.to));
    }
    if (pm) this.el.dataset.premove = pm.from + pm.to;
    else delete this.el.dataset.premove;
  }

  /** choose acts on a chosen (from, to): a move now, or a premove to hold. */
  choose(from, to) {
    if (this.dests.size > 0) this.onMove(from, to);
    else this.setPremove({ from, to });
  }

  select(name) {
    if (this.selected) this.squares.get(this.selected)?.classList.remove('selected');
    for (const d of this.el.querySelectorAll('.dest')) d.remove();
    this.selected = name;
    if (!name) return;
    this.squares.get(name).classList.add('selected');
    for (const to of this.activeDests().get(name) || []) {
      const m = document.createElement('div');
      const target = this.pieces.get(to);
      // A ring around an enemy piece, a dot on an empty square (castling
      // king-takes-rook targets an own rook and shows a dot too).
      m.className = 'dest' + (target && target[0] !== this.movableColor ? ' capture' : '');
      this.squares.get(to).append(m);
    }
  }

  /**
   * showPending moves the piece at once while the server confirms, so the
   * board answers the hand; the next state redraws it either way.
   */
  showPending(from, to) {
    const img = this.squares.get(from)?.querySelector('.piece');
    const dst = this.squares.get(to);
    if (!img || !dst || from === to) return;
    dst.querySelector('.piece')?.remove();
    dst.prepend(img);
    this.setMovable(this.movableColor, new Map());
  }

  squareAt(x, y) {
    const r = this.el.getBoundingClientRect();
    const col = Math.floor(((x - r.left) / r.width) * 8);
    const row = Math.floor(((y - r.top) / r.height) * 8);
    if (col < 0 || col > 7 || row < 0 || row > 7) return '';
    return this.orientation === 'white' ? FILES[col] + (8 - row) : FILES[7 - col] + (row + 1);
  }

  isDest(from, to) {
    return !!from && !!to && (this.activeDests().get(from)?.has(to) ?? false);
  }

  pointerDown(e) {
    if (e.button !== 0 && e.pointerType === 'mouse') {
      // A right-click drops a premove (and draws: annotations.js); other
      // boards' right-clicks (recon's markers) keep the selection.
      if (e.button === 2 && !this.drag && this.premove) {
        this.setPremove(null);
        this.select('');
      }
      return;
    }
    const sq = this.squareAt(e.clientX, e.clientY);
    if (!sq) return;
    if (this.premove) {
      // Any click drops the premove; on its own piece that is all it does.
      const held = this.premove.from;
      this.setPremove(null);
      if (sq === held) {
        this.select('');
        return;
      }
    }
    if (this.isDest(this.selected, sq)) {
      // Second click of click-click.
      e.preventDefault();
      const from = this.selected;
      this.select('');
      this.choose(from, sq);
      return;
    }
    if (!this.activeDests().has(sq)) {
      this.select('');
      return;
    }
    e.preventDefault();
    const wasSelected = this.selected === sq;
    this.select(sq);
    this.drag = { from: sq, x: e.clientX, y: e.clientY, id: e.pointerId, moving: false, wasSelected, ghost: null, hover: '' };
    try { this.el.setPointerCapture(e.pointerId); } catch { /* a finished pointer cannot be captured */ }
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.moving) {
      // A few pixels of wobble is still a click, not a drag.
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 4) return;
      d.moving = true;
      const img = this.squares.get(d.from).querySelector('.piece');
      if (!img) return;
      img.classList.add('dragging');
      d.ghost = document.createElement('img');
      d.ghost.className = 'drag-ghost';
      d.ghost.src = img.src;
      d.ghost.alt = '';
      this.el.parentElement.append(d.ghost);
    }
    const r = this.el.getBoundingClientRect();
    if (d.ghost) {
      // A finger would hide the piece it drags: on touch, draw it most of a
      // square above the finger (the drop square is still the one under it).
      const lift = e.pointerType === 'touch' ? r.height / 8 * 0.8 : 0;
      d.ghost.style.left = `${e.clientX - r.left}px`;
      d.ghost.style.top = `${e.clientY - r.top - lift}px`;
    }
    const over = this.squareAt(e.clientX, e.clientY);
    if (over !== d.hover) {
      if (d.hover) this.squares.get(d.hover)?.classList.remove('hover');
      d.hover = this.isDest(d.from, over) ? over : '';
      if (d.hover) this.squares.get(d.hover).classList.add('hover');
    }
  }

  pointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    const to = this.squareAt(e.clientX, e.clientY);
    this.cancelDrag();
    if (d.moving) {
      if (this.isDest(d.from, to)) {
        this.select('');
        this.choose(d.from, to);
      } else if (to !== d.from) {
        this.select(''); // an illegal drop snaps back
      }
      return;
    }
    // A plain click on the already selected piece puts it down again.
    if (d.wasSelected && to === d.from) this.select('');
  }

  cancelDrag() {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    d.ghost?.remove();
    if (d.hover) this.squares.get(d.hover)?.classList.remove('hover');
    this.squares.get(d.from)?.querySelector('.piece')?.classList.remove('dragging');
    try { this.el.releasePointerCapture(d.id); } catch { /* already released */ }
  }
}

function makePiece(code) {
  const img = document.createElement('img');
  img.className = 'piece';
  img.dataset.piece = code;
  img.src = pieceURL(code);
  img.alt = '';
  img.draggable = false;
  return img;
}

function reducedMotion() {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}
