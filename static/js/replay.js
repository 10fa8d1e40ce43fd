// replay.js steps through a Reconnaissance Chess history (the reference's
// GameHistory JSON, embedded in the page): each sense, with its window in
// the sensing player's colour, and each move, with the move asked for beside
// the move taken and captures marked; on the true board or as either
// player knew it at that moment. A side's view comes from the server
// (data-views, built from what that side had been told), never from the
// history: the page draws nothing for it that the side could not know.
// Steps go by keys, by autoplay at a chosen speed, and by the address
// (#step=N&view=white), so that a link opens the same moment.

import { Board, parseBoard } from './board.js';
import { pieceName } from './recon_words.js';

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
const views = root.dataset.views ? JSON.parse(root.dataset.views) : null;
const result = root.dataset.result || '';
const kingCapture = root.dataset.kingCapture || '';
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

/** describeSide says step i as the viewing side knew it: its own steps in
 * full, the opponent's only as having happened. */
function describeSide(i) {
  const s = steps[i];
  const f = views[view][i];
  if (s.kind === 'start') return describe(i);
  if (f.final) return describe(i);
  const who = s.t.color === 'white' ? 'White' : 'Black';
  if (s.t.color !== view) return `Turn ${s.t.n + 1}, ${who} ${s.kind === 'sense' ? 'senses' : 'moves'}, unseen.`;
  // The piece lost is the one the side had there a step before.
  const lost = f.opponentCapture ? pieceName(views[view][i - 1].pieces[f.opponentCapture]) : '';
  const told = s.kind === 'sense' && f.opponentCapture ? `The opponent captured your ${lost || 'piece'} on ${f.opponentCapture}. ` : '';
  return told + describe(i);
}

/** label is step i's words in the current view; the last step says how the game ended. */
function label(i) {
  const text = view === 'true' ? describe(i) : describeSide(i);
  return i === steps.length - 1 && result ? `${text} ${result}` : text;
}

function show() {
  const s = steps[at];
  const fen = fenAt(at);
  root.dataset.step = String(at);
  root.dataset.view = view;
  boardEl.dataset.fen = fen;
  const map = new Map();
  const f = view === 'true' ? null : views[view][at];
  if (!f) {
    for (const [sq, c] of parseBoard(fen)) map.set(sq, { code: c });
  } else {
    for (const [sq, c] of Object.entries(f.pieces)) map.set(sq, { code: c });
    for (const [sq, c] of Object.entries(f.seen || {})) if (!map.has(sq)) map.set(sq, { code: c, seen: 'old', age: 1 });
  }
  board.setPieceMap(map);
  board.markSquares('sense-window', []);
  // The sense window, the move and the captures marked are the step's own
  // on the true board, and only the viewing side's own in its view.
  const ownStep = s.kind !== 'start' && (!f || s.t.color === view);
  const sense = ownStep && s.kind === 'sense' ? window3(sqName(h.senses[s.t.key][s.t.n])) : [];
  board.markSquares('sense-window-white', s.kind !== 'start' && s.t.color === 'white' ? sense : []);
  board.markSquares('sense-window-black', s.kind !== 'start' && s.t.color === 'black' ? sense : []);
  let last = [];
  let capture = [];
  if (ownStep && s.kind === 'move') {
    const m = uci(h.taken_moves[s.t.key][s.t.n]) || uci(h.requested_moves[s.t.key][s.t.n]);
    if (m) last = [m.slice(0, 2), m.slice(2, 4)];
    const cap = sqName(h.capture_squares[s.t.key][s.t.n]);
    if (cap) capture = [cap];
  }
  if (f && f.opponentCapture) capture.push(f.opponentCapture);
  // The last step shows the move that took the king, on every view.
  if (at === steps.length - 1 && kingCapture) last = [kingCapture.slice(0, 2), kingCapture.slice(2, 4)];
  board.markSquares('last', last);
  board.markSquares('captured-here', capture);
  stepLine.textContent = label(at);
  for (const li of list.children) li.classList.toggle('current', Number(li.dataset.step) === at);
  list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
}

function go(i) {
  at = Math.max(0, Math.min(steps.length - 1, Number.isFinite(i) ? i : 0));
  show();
  // The address keeps the step and the view: a link opens this moment.
  const hash = `#step=${at}${view === 'true' ? '' : `&view=${view}`}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

function drawList() {
  list.replaceChildren();
  steps.forEach((_, i) => {
    const li = document.createElement('li');
    li.dataset.step = String(i);
    li.textContent = label(i);
    li.addEventListener('click', () => go(i));
    list.append(li);
  });
}

// Autoplay steps on at the chosen speed and stops at the end.
const playBtn = document.querySelector('[data-play]');
const speed = document.getElementById('replay-speed');
let timer = 0;
function setPlaying(on) {
  clearInterval(timer);
  timer = 0;
  if (on) {
    if (at >= steps.length - 1) go(0);
    timer = setInterval(() => {
      go(at + 1);
      if (at >= steps.length - 1) setPlaying(false);
    }, Number(speed.value) || 1000);
  }
  playBtn.setAttribute('aria-pressed', on ? 'true' : 'false');
  playBtn.textContent = on ? 'Pause' : 'Play';
  root.dataset.playing = on ? 'true' : 'false';
}
playBtn.addEventListener('click', () => setPlaying(!timer));
speed.addEventListener('change', () => { if (timer) setPlaying(true); });

function setView(v) {
  view = v === 'white' || v === 'black' ? (views ? v : 'true') : 'true';
  for (const r of document.querySelectorAll('input[name="view"]')) r.checked = r.value === view;
  board.setOrientation(view === 'black' ? 'black' : 'white');
  drawList();
}

/** fromHash reads #step=N&view=V. */
function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  setView(p.get('view') || 'true');
  go(p.has('step') ? Number(p.get('step')) : 0);
}
window.addEventListener('hashchange', fromHash);

document.addEventListener('click', (e) => {
  const el = e.target.closest('[data-nav]');
  if (!el) return;
  const to = { first: 0, prev: at - 1, next: at + 1, last: steps.length - 1 }[el.dataset.nav];
  go(to);
});
document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target.closest && e.target.closest('select, input')) return; // the speed choice and the view radios keep their keys
  if (e.key === 'p' || e.key === 'P') {
    setPlaying(!timer);
    return;
  }
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  go(to);
});
for (const r of document.querySelectorAll('input[name="view"]')) {
  // Without the server's views (a record that does not replay), only the
  // true board can be shown.
  if (!views && r.value !== 'true') r.disabled = true;
  r.addEventListener('change', () => {
    setView(r.value);
    go(at);
  });
}
fromHash();
