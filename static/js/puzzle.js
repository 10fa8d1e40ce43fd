// puzzle.js plays a puzzle (web/puzzles.go): the board shows the position
// before the game's move that allowed the puzzle, plays that move, and the
// solver finds the rest; the server checks each move, answers the
// opponent's reply, and at the end says the result and the rating change.
// The board is board.js's widget.

import { Board } from './board.js';
import { Promotion, promotes } from './promotion.js';

const main = document.getElementById('main');
const boardEl = document.getElementById('board');
const verdictEl = document.getElementById('puzzle-verdict');
const resultEl = document.getElementById('puzzle-result');
const turnEl = document.getElementById('puzzle-turn');
const nextEl = document.getElementById('next-puzzle');
const solutionBtn = main?.querySelector('[data-puzzle="solution"]');
const replayBtn = main?.querySelector('[data-puzzle="replay"]');

const solver = main?.dataset.solver || 'white';
const moves = []; // the line so far
let busy = false;
let over = false;

const promoEl = document.getElementById('promotion');
const promotion = promoEl && new Promotion(promoEl);
const board = boardEl && new Board(boardEl, { onMove: (from, to) => tryMove(from, to), annotations: true });

/** tryMove plays a board move in UCI, asking first for a pawn's promotion piece. */
async function tryMove(from, to) {
  const piece = board.pieces.get(from);
  let promo = '';
  if (promotes(piece, to)) {
    promo = await promotion.ask(piece[0]);
    if (!promo) { board.setPosition(boardEl.dataset.fen); return; }
  }
  play(from + to + promo);
}

function destsMap(d) {
  const m = new Map();
  for (const [from, tos] of Object.entries(d || {})) m.set(from, new Set(tos));
  return m;
}

/** apply plays a UCI move on the board (the board only draws: the FEN is the server's). */
function apply(fen, uci) {
  boardEl.dataset.fen = fen;
  board.setPosition(fen, { from: uci.slice(0, 2), to: uci.slice(2, 4) });
  board.setHighlights({ from: uci.slice(0, 2), to: uci.slice(2, 4) }, '');
}

/** afterMove is the FEN after uci from fen, by the board's own pieces (castling and en passant included). */
function afterMove(fen, uci) {
  const pieces = new Map(board.pieces);
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  let p = pieces.get(from);
  if (!p) return fen;
  pieces.delete(from);
  if (p[1] === 'P' && from[0] !== to[0] && !pieces.get(to)) pieces.delete(to[0] + from[1]); // en passant
  if (p[1] === 'K' && pieces.get(to)?.[0] === p[0]) { // Chess960-style king takes rook
    const rook = pieces.get(to);
    pieces.delete(to);
    const r = from[1];
    const kingside = to[0] > from[0];
    pieces.set((kingside ? 'g' : 'c') + r, p);
    pieces.set((kingside ? 'f' : 'd') + r, rook);
  } else {
    if (p[1] === 'K' && Math.abs(to.charCodeAt(0) - from.charCodeAt(0)) === 2) {
      const r = from[1];
      const kingside = to[0] > from[0];
      const rf = (kingside ? 'h' : 'a') + r;
      const rook = pieces.get(rf);
      pieces.delete(rf);
      if (rook) pieces.set((kingside ? 'f' : 'd') + r, rook);
    }
    if (uci.length === 5) p = p[0] + uci[4].toUpperCase();
    pieces.set(to, p);
  }
  let out = '';
  for (let r = 8; r >= 1; r--) {
    let empty = 0;
    for (const f of 'abcdefgh') {
      const q = pieces.get(f + r);
      if (!q) { empty++; continue; }
      if (empty) { out += empty; empty = 0; }
      out += q[0] === 'w' ? q[1] : q[1].toLowerCase();
    }
    if (empty) out += empty;
    if (r > 1) out += '/';
  }
  return out;
}

function step(uci) {
  apply(afterMove(boardEl.dataset.fen, uci), uci);
}

async function send(body) {
  busy = true;
  main.dataset.busy = 'true';
  try {
    const r = await fetch(main.dataset.moveUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const v = await r.json();
    if (!r.ok) {
      verdictEl.textContent = v.error || 'That did not work.';
      verdictEl.dataset.verdict = 'error';
      return null;
    }
    return v;
  } catch {
    verdictEl.textContent = 'The server could not be reached; try again.';
    verdictEl.dataset.verdict = 'error';
    return null;
  } finally {
    busy = false;
    main.dataset.busy = 'false';
  }
}

async function play(uci) {
  if (busy || over) return;
  board.setMovable('', new Map());
  step(uci);
  const v = await send({ moves: [...moves, uci] });
  if (!v) { board.setMovable(solver[0], lastDests); return; }
  if (v.correct) {
    moves.push(uci);
    verdictEl.textContent = 'Correct!';
    verdictEl.dataset.verdict = 'good';
    if (v.reply) {
      moves.push(v.reply);
      setTimeout(() => {
        step(v.reply);
        lastDests = destsMap(v.dests);
        board.setMovable(solver[0], lastDests);
        turnEl.textContent = `Correct! Now the next move for ${solver}.`;
      }, 300);
      return;
    }
  } else {
    verdictEl.textContent = 'That is not the move.';
    verdictEl.dataset.verdict = 'bad';
  }
  finish(v, v.correct);
}

/** finish ends the puzzle: the result, the rating change and the solution. */
function finish(v, won) {
  over = true;
  main.dataset.state = won ? 'solved' : 'failed';
  board.setMovable('', new Map());
  solutionBtn.hidden = true;
  nextEl.hidden = false;
  turnEl.textContent = won ? 'Solved.' : 'The solution is on the board: its first move as an arrow.';
  if (v.puzzleRating) document.getElementById('puzzle-rating').textContent = String(v.puzzleRating);
  if (v.plays) document.getElementById('puzzle-plays').textContent = playsText(v.plays);
  let words = won ? 'Puzzle solved.' : 'Puzzle failed.';
  if (v.counted) {
    const d = v.after - v.before;
    words += ` Your rating: ${v.before} → ${v.after} (${d >= 0 ? '+' : '−'}${Math.abs(d)}).`;
    document.getElementById('player-rating').textContent = String(v.after);
    resultEl.dataset.change = String(d);
  } else {
    words += ' Ratings unchanged: only a first try counts.';
  }
  const line = v.solutionSan && v.solutionSan.length ? v.solutionSan : v.solution;
  resultEl.textContent = words + (line ? ` Solution: ${line.join(' ')}.` : '');
  resultEl.dataset.solution = (v.solution || []).join(' ');
  resultEl.hidden = false;
  if (!won && v.solution?.length) {
    solution = v.solution;
    showStart();
    replayBtn.hidden = false;
  }
  nextEl.focus();
}

/** playsText is a puzzle's rated attempts in words, as the page's template says them. */
function playsText(n) {
  return n === 1 ? '1 time' : `${n} times`;
}

let solution = [];
let replaying = 0; // the replay running now (a newer one stops an older)

/** showStart shows the puzzle's start, the move that allowed it, and the solution's first move as an arrow. */
function showStart() {
  apply(start, main.dataset.lastMove);
  board.annotations?.setHint(solution[0]);
}

/** replay plays the solution from the puzzle's start, a move at a time (main's data-replayed counts the replays done). */
function replay() {
  const run = ++replaying;
  board.annotations?.setHint('');
  apply(start, main.dataset.lastMove);
  let i = 0;
  const tick = () => {
    if (run !== replaying) return;
    if (i < solution.length) {
      step(solution[i++]);
      setTimeout(tick, 600);
      return;
    }
    main.dataset.replayed = String(run);
  };
  setTimeout(tick, 400);
}

let start = '';
let lastDests = new Map();

async function init() {
  if (!main || !boardEl || !main.dataset.puzzleId) return;
  board.setOrientation(solver);
  const fen = main.dataset.fen;
  boardEl.dataset.fen = fen.split(' ')[0];
  board.setPosition(fen);
  const r = await fetch(main.dataset.destsUrl, { headers: { Accept: 'application/json' } });
  const d = await r.json();
  start = d.fen.split(' ')[0];
  setTimeout(() => {
    apply(start, main.dataset.lastMove);
    lastDests = destsMap(d.dests);
    board.setMovable(solver[0], lastDests);
    main.dataset.state = 'playing';
  }, 400);
  replayBtn.addEventListener('click', replay);
  solutionBtn.addEventListener('click', async () => {
    if (busy || over) return;
    const v = await send({ moves, giveUp: true });
    if (v) finish(v, false);
  });
}
// The page without a puzzle looks again every few seconds and moves on
// to the next puzzle once the generator has found one.
if (document.getElementById('no-puzzle')) {
  setInterval(async () => {
    try {
      const r = await fetch('/puzzles', { redirect: 'manual' });
      if (r.type === 'opaqueredirect') location.href = '/puzzles';
    } catch { /* the server is away: look again later */ }
  }, 3000);
}
init();
