// editor.js is the home page's board editor for a start position: pieces
// dragged from the two rows of spare pieces onto the board, around it, or
// off it to remove them; or a spare piece (or the eraser) picked and then
// squares tapped, which is easier on a phone. Side to move, castling and
// en passant have their own controls. The FEN box below is bound both
// ways: an edit writes its FEN there, typing there redraws the board (a
// FEN that cannot be read says why and keeps the text). The board is
// board.js's, drawn from the chosen piece set; position.js reads, writes
// and checks positions.

import { Board, pieceURL } from './board.js';
import { START, CASTLING, parseFEN, toFEN, problems, castlingPossible, epSquares, pieceName } from './position.js';

// WAY_ON follows the list of a position's problems: what to do about them.
const WAY_ON = 'Correct the position on the board or in the FEN box, or press Start position to begin again from the usual one.';

// EditorBoard is a Board whose pointer input the editor handles itself
// (on the editor as a whole, so a drag may start on a spare piece).
class EditorBoard extends Board {
  pointerDown() {}
  pointerMove() {}
  pointerUp() {}
}

// spareButton is a spare piece: drag it onto the board, or press it to
// pick it as the brush.
function spareButton(code) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'spare';
  b.dataset.piece = code;
  b.setAttribute('aria-pressed', 'false');
  b.title = pieceName(code)[0].toUpperCase() + pieceName(code).slice(1);
  b.setAttribute('aria-label', b.title);
  const img = document.createElement('img');
  img.alt = '';
  img.src = pieceURL(code);
  b.append(img);
  return b;
}

/** Editor wires #editor and the FEN box of the new-game form. */
export class Editor {
  /**
   * @param {HTMLElement} root #editor
   * @param {HTMLInputElement} input the form's fen field
   * @param {{problems: HTMLElement, play: HTMLButtonElement, submit: () => void, refused?: HTMLElement}} opts
   *   problems: where the position's problems are listed; play: "Play from
   *   this position"; submit: sends the form; refused: the server's reason
   *   for refusing the position the page came back with, hidden once the
   *   position changes.
   */
  constructor(root, input, opts) {
    this.root = root;
    this.input = input;
    this.list = opts.problems;
    this.play = opts.play;
    this.submit = opts.submit;
    this.refused = opts.refused; // the server's reason for the last refusal, if any
    this.wrap = root.querySelector('.editor-board-wrap');
    this.board = new EditorBoard(root.querySelector('#editor-board'), { onMove: () => {} });
    this.tool = 'move'; // 'move', 'erase' or a piece code (a brush)
    this.selected = '';
    this.drag = null;
    this.suppressClick = false;
    this.wanted = new Set('KQkq'); // castling rights asked for, shown where possible
    this.pos = parseFEN(START).pos;

    for (const row of root.querySelectorAll('.editor-spares')) {
      for (const p of 'KQRBNP') row.append(spareButton(row.dataset.color + p));
    }
    root.addEventListener('pointerdown', (e) => this.pointerDown(e));
    root.addEventListener('pointermove', (e) => this.pointerMove(e));
    root.addEventListener('pointerup', (e) => this.pointerUp(e));
    root.addEventListener('pointercancel', () => this.cancelDrag());
    root.addEventListener('click', (e) => this.click(e));
    root.querySelector('.editor-board-wrap').addEventListener('contextmenu', (e) => e.preventDefault());
    for (const r of root.querySelectorAll('input[name="editor-turn"]')) {
      r.addEventListener('change', () => { if (r.checked) { this.pos.turn = r.value; this.edited(); } });
    }
    for (const c of root.querySelectorAll('input[name="editor-castling"]')) {
      c.addEventListener('change', () => {
        if (c.checked) this.wanted.add(c.value);
        else this.wanted.delete(c.value);
        this.edited();
      });
    }
    this.epSelect = root.querySelector('select[name="editor-ep"]');
    this.epSelect.addEventListener('change', () => { this.pos.ep = this.epSelect.value; this.edited(); });
    input.addEventListener('input', () => { this.changed(); this.typed(); });
    this.play.addEventListener('click', () => this.playClicked());

    root.hidden = false;
    this.play.hidden = false;
    this.typed();
  }

  /** typed reads the FEN box: an empty box is the normal start. */
  typed() {
    const text = this.input.value.trim();
    if (text === '') {
      this.pos = parseFEN(START).pos;
      this.wanted = new Set('KQkq');
      this.render();
      this.show([]);
      return;
    }
    const r = parseFEN(text);
    if (r.error) {
      this.show([r.error]); // the board keeps the last position that could be read
      return;
    }
    this.pos = r.pos;
    this.wanted = new Set(r.pos.castling);
    this.render();
    this.show(problems(this.pos));
  }

  /** changed drops the server's reason for an earlier position. */
  changed() {
    if (this.refused) this.refused.hidden = true;
  }

  /** edited follows a change made on the board or its controls. */
  edited() {
    this.changed();
    const b = this.pos.board;
    this.pos.castling = CASTLING.map((c) => c.right).filter((r) => this.wanted.has(r) && castlingPossible(b, r)).join('');
    if (this.pos.ep !== '-' && !epSquares(b, this.pos.turn).includes(this.pos.ep)) this.pos.ep = '-';
    this.render();
    this.input.value = toFEN(this.pos);
    this.show(problems(this.pos));
  }

  render() {
    const pos = this.pos;
    this.board.setPosition(toFEN(pos));
    this.root.dataset.fen = toFEN(pos);
    for (const r of this.root.querySelectorAll('input[name="editor-turn"]')) r.checked = r.value === pos.turn;
    for (const c of this.root.querySelectorAll('input[name="editor-castling"]')) {
      const { king, rook } = CASTLING.find((x) => x.right === c.value);
      c.disabled = !castlingPossible(pos.board, c.value);
      c.checked = pos.castling.includes(c.value);
      c.closest('label').title = c.disabled ? `Needs the king on ${king} and a rook on ${rook}` : '';
    }
    const options = ['-', ...epSquares(pos.board, pos.turn)];
    if (!options.includes(pos.ep)) options.push(pos.ep); // as typed; problems() says why not
    this.epSelect.replaceChildren(...options.map((sq) => new Option(sq === '-' ? 'None' : sq, sq)));
    this.epSelect.value = pos.ep;
    this.epSelect.disabled = options.length === 1;
    if (this.selected && !pos.board.has(this.selected)) this.select('');
  }

  /** show lists what keeps the position from starting a game. */
  show(msgs) {
    this.problems = msgs;
    const items = msgs.map((m) => Object.assign(document.createElement('li'), { textContent: m }));
    // The way on, after what is wrong.
    if (msgs.length) items.push(Object.assign(document.createElement('li'), { className: 'way-on', textContent: WAY_ON }));
    this.list.replaceChildren(...items);
    this.list.hidden = msgs.length === 0;
    this.list.classList.remove('refused');
  }

  playClicked() {
    this.typed();
    if (this.problems.length > 0) {
      // Not sent: the list says why (and is announced); the text stays.
      this.list.classList.add('refused');
      this.list.hidden = false;
      this.list.scrollIntoView({ block: 'nearest' });
      return;
    }
    this.submit();
  }

  setTool(tool) {
    this.tool = tool;
    this.select('');
    for (const b of this.root.querySelectorAll('[data-tool]')) b.setAttribute('aria-pressed', String(b.dataset.tool === tool));
    for (const b of this.root.querySelectorAll('.spare')) b.setAttribute('aria-pressed', String(b.dataset.piece === tool));
    this.root.dataset.tool = tool.length === 2 ? 'brush' : tool;
  }

  select(sq) {
    if (this.selected) this.board.squares.get(this.selected)?.classList.remove('selected');
    this.selected = sq;
    if (sq) this.board.squares.get(sq)?.classList.add('selected');
  }

  put(sq, code) {
    if (code) this.pos.board.set(sq, code);
    else this.pos.board.delete(sq);
  }

  click(e) {
    const t = e.target.closest('button');
    if (!t || !this.root.contains(t)) return;
    if (t.classList.contains('spare')) {
      // A tap or click (or Enter) on a spare piece picks it as the brush;
      // again, back to moving. A drag that started there is no click.
      if (this.suppressClick) { this.suppressClick = false; return; }
      this.setTool(this.tool === t.dataset.piece ? 'move' : t.dataset.piece);
    } else if (t.dataset.tool) {
      this.setTool(t.dataset.tool);
    } else if (t.dataset.editor === 'start') {
      this.pos = parseFEN(START).pos;
      this.wanted = new Set('KQkq');
      this.edited();
    } else if (t.dataset.editor === 'clear') {
      this.pos.board = new Map();
      this.pos.ep = '-';
      this.edited();
    } else if (t.dataset.editor === 'flip') {
      const o = this.board.orientation === 'white' ? 'black' : 'white';
      this.board.setOrientation(o);
      this.root.dataset.orientation = o;
    }
  }

  pointerDown(e) {
    this.suppressClick = false; // a drag whose end brought no click
    const spare = e.target.closest('.spare');
    const onBoard = this.board.el.contains(e.target);
    if (!spare && !onBoard) return;
    const sq = onBoard ? this.board.squareAt(e.clientX, e.clientY) : '';
    if (e.pointerType === 'mouse' && e.button !== 0) {
      if (e.button === 2 && sq && this.pos.board.has(sq)) { // right-click removes
        this.put(sq, '');
        this.edited();
      }
      return;
    }
    if (spare) {
      e.preventDefault();
      this.startDrag(e, spare, spare.dataset.piece, '');
      return;
    }
    if (!sq) return;
    e.preventDefault();
    if (this.tool === 'erase') {
      this.put(sq, '');
      this.edited();
    } else if (this.tool !== 'move') {
      this.put(sq, this.pos.board.get(sq) === this.tool ? '' : this.tool); // the same piece again lifts it
      this.edited();
    } else if (this.selected && this.selected !== sq) {
      // Second click of click-click: the selected piece moves here.
      const code = this.pos.board.get(this.selected);
      this.put(this.selected, '');
      this.put(sq, code);
      this.select('');
      this.edited();
    } else if (this.pos.board.has(sq)) {
      this.startDrag(e, this.board.el, this.pos.board.get(sq), sq);
    } else {
      this.select('');
    }
  }

  startDrag(e, el, code, from) {
    this.drag = { code, from, id: e.pointerId, x: e.clientX, y: e.clientY, el, moving: false, ghost: null, hover: '' };
    try { el.setPointerCapture(e.pointerId); } catch { /* a finished pointer cannot be captured */ }
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.moving) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 4) return; // a click, not a drag
      d.moving = true;
      if (d.from) {
        this.select('');
        this.board.squares.get(d.from).querySelector('.piece')?.classList.add('dragging');
      }
      d.ghost = document.createElement('img');
      d.ghost.className = 'drag-ghost';
      d.ghost.src = pieceURL(d.code);
      d.ghost.alt = '';
      this.wrap.append(d.ghost);
    }
    const r = this.board.el.getBoundingClientRect();
    // On touch the piece is drawn above the finger, which would hide it.
    const lift = e.pointerType === 'touch' ? r.height / 8 * 0.8 : 0;
    d.ghost.style.left = `${e.clientX - r.left}px`;
    d.ghost.style.top = `${e.clientY - r.top - lift}px`;
    const over = this.board.squareAt(e.clientX, e.clientY);
    if (over !== d.hover) {
      if (d.hover) this.board.squares.get(d.hover)?.classList.remove('hover');
      d.hover = over;
      if (over) this.board.squares.get(over).classList.add('hover');
    }
  }

  pointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    const to = this.board.squareAt(e.clientX, e.clientY);
    this.cancelDrag();
    if (!d.moving) {
      // A click on a board piece selects it for click-click (again: drops it).
      if (d.from) this.select(this.selected === d.from ? '' : d.from);
      return;
    }
    if (!d.from) this.suppressClick = true; // the click that ends a spare's drag
    if (d.from && to === d.from) return;
    if (d.from) this.put(d.from, ''); // off the board: removed
    if (to) this.put(to, d.code);
    this.edited();
  }

  cancelDrag() {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    d.ghost?.remove();
    if (d.hover) this.board.squares.get(d.hover)?.classList.remove('hover');
    if (d.from) this.board.squares.get(d.from)?.querySelector('.piece')?.classList.remove('dragging');
    try { d.el.releasePointerCapture(d.id); } catch { /* already released */ }
  }
}
