// learn.js is "learn from your mistakes" (web/learn.go): the board goes to
// each position of a reviewed game where the player made a mistake or a
// blunder, says what happened, and asks for a better move; the server
// judges each try (one search) and keeps the session, so a reload shows
// where the player was. The board is board.js's widget.

import { Board } from './board.js';
import { Promotion, promotes } from './promotion.js';

const main = document.getElementById('main');
const boardEl = document.getElementById('board');
const progressEl = document.getElementById('learn-progress');
const saidEl = document.getElementById('learn-said');
const askEl = document.getElementById('learn-ask');
const verdictEl = document.getElementById('learn-verdict');
const btn = (name) => main.querySelector(`[data-learn="${name}"]`);

let view = null; // the server's latest state
let pending = null; // the next state, held while an answer shows
let busy = false;

const promotion = new Promotion(document.getElementById('promotion'));
const board = new Board(boardEl, { onMove: (from, to) => tryMove(from, to), annotations: true });

/** tryMove posts a board move in UCI, asking first for a pawn's promotion piece. */
async function tryMove(from, to) {
  const piece = board.pieces.get(from);
  let promo = '';
  if (promotes(piece, to)) {
    promo = await promotion.ask(piece[0]);
    if (!promo) { board.setPosition(view.position.fen); return; }
  }
  post({ index: view.position.index, move: from + to + promo });
}

function destsMap(d) {
  const m = new Map();
  for (const [from, tos] of Object.entries(d || {})) m.set(from, new Set(tos));
  return m;
}

function results(v) {
  const r = v.results || '';
  const n = (c) => [...r].filter((x) => x === c).length;
  return { solved: n('s'), shown: n('r'), skipped: n('k') };
}

/** show draws state v (its current position, or the end of the session). */
function show(v) {
  view = v;
  pending = null;
  main.dataset.current = String(v.current);
  main.dataset.total = String(v.total);
  main.dataset.results = v.results || '';
  btn('next').hidden = true;
  if (!v.ready) {
    progressEl.textContent = 'The review of this game is not complete yet: come back once it is.';
    saidEl.textContent = askEl.textContent = '';
    main.dataset.state = 'waiting';
    for (const b of ['solution', 'skip', 'restart']) btn(b).hidden = true;
    return;
  }
  const done = !v.position;
  main.dataset.state = done ? 'done' : 'playing';
  btn('solution').hidden = done;
  btn('skip').hidden = done;
  btn('restart').hidden = !done || v.total === 0;
  board.setOrientation(v.human);
  boardEl.dataset.orientation = v.human;
  if (done) {
    const r = results(v);
    progressEl.textContent = v.total === 0
      ? 'No mistakes to learn from in this game: the review judged none of your moves a mistake or a blunder.'
      : `Done: ${v.total} of ${v.total}. Found ${r.solved}, solution shown ${r.shown}, skipped ${r.skipped}.`;
    saidEl.textContent = '';
    askEl.textContent = '';
    board.setMovable('', new Map());
    return;
  }
  const p = v.position;
  progressEl.textContent = `Mistake ${v.current + 1} of ${v.total}`;
  saidEl.textContent = p.said;
  askEl.textContent = `Find a better move for ${v.human}.`;
  boardEl.dataset.fen = p.fen;
  boardEl.dataset.ply = String(p.ply);
  board.setPosition(p.fen);
  board.setHighlights(null, '');
  board.annotations?.setHint('');
  board.setMovable(v.human === 'white' ? 'w' : 'b', destsMap(p.dests));
}

async function post(body) {
  if (busy) return;
  busy = true;
  main.dataset.busy = 'true';
  if (body.move) verdictEl.textContent = 'Checking…';
  try {
    const r = await fetch(main.dataset.postUrl, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    const v = await r.json();
    if (!r.ok) {
      verdictEl.textContent = v.error || 'That did not work.';
      verdictEl.dataset.verdict = 'error';
      if (r.status === 409) await load();
      return;
    }
    answer(body, v);
  } catch {
    verdictEl.textContent = 'The server could not be reached; try again.';
    verdictEl.dataset.verdict = 'error';
  } finally {
    busy = false;
    main.dataset.busy = 'false';
  }
}

/** answer shows a post's answer: the verdict, the solution, then the next position. */
function answer(body, v) {
  const a = v.answer;
  if (v.verdict) {
    verdictEl.textContent = v.verdict.words;
    verdictEl.dataset.verdict = v.verdict.good ? 'good' : 'bad';
    if (!v.verdict.good) { show(v); return; }
  } else if (a && a.result === 'shown') {
    verdictEl.textContent = a.bestSan ? `The best move was ${a.bestSan}.` : 'The review named no best move here.';
    verdictEl.dataset.verdict = 'shown';
  } else {
    verdictEl.textContent = '';
    delete verdictEl.dataset.verdict;
  }
  if (a && a.best && (a.result === 'shown' || a.result === 'solved')) {
    // The move on the board a moment, then on with Next.
    board.setMovable('', new Map());
    board.annotations?.setHint(a.best);
    if (a.result === 'shown' || body.move) {
      pending = v;
      btn('next').hidden = false;
      btn('solution').hidden = true;
      btn('skip').hidden = true;
      main.dataset.state = 'answered';
      btn('next').focus();
      return;
    }
  }
  show(v);
}

async function load() {
  const r = await fetch(main.dataset.stateUrl, { headers: { Accept: 'application/json' } });
  if (r.ok) show(await r.json());
}

btn('solution').addEventListener('click', () => post({ index: view.position.index, action: 'solution' }));
btn('skip').addEventListener('click', () => post({ index: view.position.index, action: 'skip' }));
btn('restart').addEventListener('click', () => post({ index: 0, action: 'restart' }));
btn('next').addEventListener('click', () => {
  verdictEl.textContent = '';
  delete verdictEl.dataset.verdict;
  if (pending) show(pending);
});
load();
