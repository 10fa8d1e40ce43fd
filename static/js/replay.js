// replay.js steps through a Reconnaissance Chess history (the reference's
// GameHistory JSON, embedded in the page): each sense, with its window in
// the sensing player's colour, and each move, with the move asked for beside
// the move taken and captures marked; on the true board or as either
// player knew it at that moment.

import { Board, parseBoard } from './board.js';
import { reconMemory, pieceName } from './recon_words.js';

const root = document.querySelector('main.replay-page');
const boardEl = document.getElementById('board');
const stepLine = document.getElementById('step-line');
const list = document.getElementById('replay-steps');
const board = new Board(boardEl, { onMove: () => {} });

const SQUARES = [];
for (let r = 1; r <= 8; r++) for (let f = 0; f < 8; f++) SQUARES.push(String.fromCharCode(97 + f) + r);
const sqName = (i) => (i === null || i === undefined ? '' : SQUARES[i]);
const code = (p) => (p && p.value ? (p.value === p.value.toUpperCase() ? 'w' : 'b') + p.value.toUpperCase() : '');
const uci = (m) => (m && m.value ? m.value : '');
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const h = JSON.parse(root.dataset.history);
const turns = []; // [{color, n}] in play order
for (let n = 0; ; n++) {
  let any = false;
  for (const c of ['true', 'false']) {
    if (n < h.senses[c].length) {
      turns.push({ color: c === 'true' ? 'white' : 'black', key: c, n });
      any = true;
    }
  }
  if (!any) break;
}

// steps: the start, then per turn a sense step and (when recorded) a move step.
const steps = [{ kind: 'start' }];
for (const t of turns) {
  steps.push({ kind: 'sense', t });
  if (t.n < h.requested_moves[t.key].length) steps.push({ kind: 'move', t });
}
let at = 0;
let view = 'true';

/** fenAt returns the true board's FEN at a step. */
function fenAt(i) {
  const s = steps[i];
  if (s.kind === 'start') return START;
  const { key, n } = s.t;
  if (s.kind === 'move') return h.fens_after_move[key][n];
  if (n < h.fens_before_move[key].length) return h.fens_before_move[key][n];
  // A sense without a move (the record ends there): the board after the
  // previous move.
  for (let j = i - 1; j > 0; j--) if (steps[j].kind === 'move') return fenAt(j);
  return START;
}

/** turnsOf lists colour c's observations up to step i, as recon_state's turns. */
function turnsOf(c, i) {
  const key = c === 'white' ? 'true' : 'false';
  const other = c === 'white' ? 'false' : 'true';
  const out = [];
  for (let j = 1; j <= i; j++) {
    const s = steps[j];
    if (s.t.key !== key) continue;
    const n = s.t.n;
    if (s.kind === 'sense') {
      const prevN = c === 'white' ? n - 1 : n; // the opponent's turn just before
      const cap = prevN >= 0 && prevN < h.capture_squares[other].length ? h.capture_squares[other][prevN] : null;
      out.push({
        opponentCapture: sqName(cap), sensed: true, sense: sqName(h.senses[key][n]),
        senseResult: h.sense_results[key][n].map(([sq, p]) => ({ square: SQUARES[sq], piece: code(p) })),
        moved: false,
      });
    } else {
      const t = out[out.length - 1];
      t.moved = true;
      t.requested = uci(h.requested_moves[key][n]) || 'pass';
      t.taken = uci(h.taken_moves[key][n]);
      t.capture = sqName(h.capture_squares[key][n]);
    }
  }
  return out;
}

function window3(sq) {
  if (!sq) return [];
  const f = sq.charCodeAt(0) - 97;
  const r = Number(sq[1]);
  const out = [];
  for (let dr = 1; dr >= -1; dr--) {
    for (let df = -1; df <= 1; df++) {
      if (f + df >= 0 && f + df < 8 && r + dr >= 1 && r + dr <= 8) out.push(String.fromCharCode(97 + f + df) + (r + dr));
    }
  }
  return out;
}

function describe(i) {
  const s = steps[i];
  if (s.kind === 'start') return 'The start. White senses first.';
  const { key, n, color } = s.t;
  const who = color === 'white' ? 'White' : 'Black';
  const turnNo = n + 1;
  if (s.kind === 'sense') {
    const sq = sqName(h.senses[key][n]);
    if (!sq) return `Turn ${turnNo}, ${who}: no sense.`;
    const seen = h.sense_results[key][n].filter(([, p]) => p).map(([q, p]) => `${pieceName(code(p))} ${SQUARES[q]}`);
    return `Turn ${turnNo}, ${who} senses around ${sq}: ${seen.length ? seen.join(', ') : 'nothing'}.`;
  }
  const req = uci(h.requested_moves[key][n]);
  const taken = uci(h.taken_moves[key][n]);
  const cap = sqName(h.capture_squares[key][n]);
  let text = `Turn ${turnNo}, ${who} `;
  if (!req) text += 'passes.';
  else if (!taken) text += `asks for ${req}: nothing happens.`;
  else if (taken !== req) text += `asks for ${req}; taken ${taken}.`;
  else text += `plays ${taken}.`;
  if (cap) text += ` Captures on ${cap}.`;
  return text;
}

function show() {
  const s = steps[at];
  const fen = fenAt(at);
  root.dataset.step = String(at);
  root.dataset.view = view;
  boardEl.dataset.fen = fen;
  const map = new Map();
  if (view === 'true') {
    for (const [sq, c] of parseBoard(fen)) map.set(sq, { code: c });
  } else {
    const mine = view === 'white' ? 'w' : 'b';
    const pieces = {};
    for (const [sq, c] of parseBoard(fen)) if (c[0] === mine) pieces[sq] = c;
    for (const [sq, c] of Object.entries(pieces)) map.set(sq, { code: c });
    const own = s.kind !== 'start' && s.t.color === view;
    const state = { human: view, phase: own && s.kind === 'sense' ? 'sense' : 'waiting', pieces, turns: turnsOf(view, at) };
    for (const [sq, m] of reconMemory(state)) if (!map.has(sq)) map.set(sq, m);
  }
  board.setPieceMap(map);
  board.markSquares('sense-window', []);
  board.markSquares('sense-window-white', s.kind === 'sense' && s.t.color === 'white' ? window3(sqName(h.senses[s.t.key][s.t.n])) : []);
  board.markSquares('sense-window-black', s.kind === 'sense' && s.t.color === 'black' ? window3(sqName(h.senses[s.t.key][s.t.n])) : []);
  let last = [];
  let capture = [];
  if (s.kind === 'move') {
    const m = uci(h.taken_moves[s.t.key][s.t.n]) || uci(h.requested_moves[s.t.key][s.t.n]);
    if (m) last = [m.slice(0, 2), m.slice(2, 4)];
    const cap = sqName(h.capture_squares[s.t.key][s.t.n]);
    if (cap) capture = [cap];
  }
  board.markSquares('last', last);
  board.markSquares('captured-here', capture);
  stepLine.textContent = describe(at);
  for (const li of list.children) li.classList.toggle('current', Number(li.dataset.step) === at);
  list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
}

function go(i) {
  at = Math.max(0, Math.min(steps.length - 1, i));
  show();
}

steps.forEach((_, i) => {
  const li = document.createElement('li');
  li.dataset.step = String(i);
  li.textContent = describe(i);
  li.addEventListener('click', () => go(i));
  list.append(li);
});

document.addEventListener('click', (e) => {
  const el = e.target.closest('[data-nav]');
  if (!el) return;
  const to = { first: 0, prev: at - 1, next: at + 1, last: steps.length - 1 }[el.dataset.nav];
  go(to);
});
document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  go(to);
});
for (const r of document.querySelectorAll('input[name="view"]')) {
  r.addEventListener('change', () => {
    view = r.value;
    board.setOrientation(view === 'black' ? 'black' : 'white');
    show();
  });
}
go(0);
