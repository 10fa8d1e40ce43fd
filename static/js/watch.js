// watch.js is the spectator page's entry (/watch/{token}): the board, the
// players, clocks, moves and result of someone's game, live and read-only.
// It never sends anything but the socket's own sync: the server closes a
// spectator's socket that sends a command.

import { Board } from './board.js';
import { GameSocket } from './socket.js';
import { Panel, sanWords, endWords } from './panel.js';
import { Review } from './review.js';

const root = document.querySelector('main.watch-page');
const boardEl = document.getElementById('board');
const banner = document.getElementById('conn-banner');
const announcer = document.getElementById('announcer');

let state = null;
let shown = 0;
let flipped = false;

// No onMove: nothing on this board is movable (setMovable with no side).
// Annotations: the review's best-move arrow (and the spectator's own marks).
const board = new Board(boardEl, { onMove: () => {}, annotations: true });
const panel = new Panel(root, { onPick: (ply) => showPly(ply) });
const review = new Review(root, {
  onPick: (ply) => showPly(ply),
  board,
  names: (color) => (state && color === state.human ? 'Player' : 'Knightwatch'),
});
const socket = new GameSocket(root.dataset.socket || '', {
  onMessage: (msg) => {
    if (!msg) return;
    if (msg.type === 'state') { applyState(msg); showHashPly(); }
    else if (msg.type === 'analysis') {
      review.update(msg);
      if (state) review.render(state, shown);
    }
  },
  onStatus: (up) => {
    banner.hidden = up;
    if (!up) panel.freezeClocks();
  },
});
socket.connect();
window.addEventListener('pagehide', () => socket.stop());
window.addEventListener('pageshow', (e) => { if (e.persisted) { socket.stopped = false; socket.connect(); } });

// hashPly is the ply a link asks for (#ply=N, a puzzle's "From this
// game"), shown once on the first state; then the link has been followed.
let hashPly = /^#ply=(\d+)$/.exec(location.hash) ? Number(location.hash.slice(5)) : -1;
function showHashPly() {
  if (hashPly < 0 || !state) return;
  const n = hashPly;
  hashPly = -1;
  showPly(n);
}

function applyState(next) {
  const prev = state;
  state = next;
  if (!prev && !flipped) board.setOrientation(next.human === 'black' ? 'black' : 'white');
  boardEl.dataset.ply = String(next.ply);
  boardEl.dataset.status = next.status;
  boardEl.dataset.thinking = String(!!next.thinking);
  const wasLive = !prev || shown === prev.ply;
  if (wasLive || shown > next.ply) {
    const anim = prev && next.ply === prev.ply + 1 ? next.lastMove : null;
    shown = next.ply;
    redraw(anim);
  } else {
    redraw(null, true);
  }
  if (prev && next.ply > prev.ply) {
    const m = next.moves[next.ply - 1];
    if (m) announce(sanWords(m.san));
  }
  if (next.status === 'over' && prev && prev.status === 'playing') announce(endWords(next));
  chrome();
}

function redraw(anim, keepBoard) {
  if (!state) return;
  if (!keepBoard) {
    if (shown === state.ply) {
      board.setPosition(state.fen, anim);
      board.setHighlights(state.lastMove, state.check);
    } else {
      const fen = shown === 0 ? state.startFen : state.moves[shown - 1].fen;
      const uci = shown === 0 ? '' : state.moves[shown - 1].uci;
      board.setPosition(fen, anim);
      board.setHighlights(uci ? { from: uci.slice(0, 2), to: uci.slice(2, 4) } : null, '');
    }
  }
  board.setMovable('', new Map());
  panel.players(state, board.orientation);
  playerNames();
  panel.setClock(state.clock, state.status === 'over');
  panel.list(state, shown);
  review.render(state, shown);
}

// playerNames names the players for a spectator: the Panel says "You"
// for the game's owner.
function playerNames() {
  for (const el of root.querySelectorAll('.player')) {
    const color = el.dataset.color;
    if (color === state.human) el.querySelector('.name').textContent = `Player (${color})`;
  }
}

function chrome() {
  let words;
  if (state.status === 'over') words = endWords(state);
  else {
    const side = state.turn === 'black' ? 'Black' : 'White';
    words = `${state.check ? 'Check · ' : ''}${side} to move`;
  }
  panel.turnWords(words);
  document.title = `Watching: ${words} · Knightwatch`;
}

function showPly(n) {
  if (!state) return;
  const target = Math.max(0, Math.min(state.ply, n));
  if (target === shown) return;
  shown = target;
  redraw(null);
}

let seq = 0;
function announce(text) {
  if (text) announcer.textContent = text + (seq++ % 2 ? '\u00a0' : '');
}

document.addEventListener('click', (e) => {
  const el = e.target.closest('[data-action], [data-nav], #back-live');
  if (!el || !state) return;
  if (el.id === 'back-live') showPly(state.ply);
  else if (el.dataset.nav) nav(el.dataset.nav);
  else if (el.dataset.action === 'flip') flip();
});

function nav(where) {
  if (where === 'first') showPly(0);
  else if (where === 'prev') showPly(shown - 1);
  else if (where === 'next') showPly(shown + 1);
  else {
    showPly(state.ply);
    panel.toEnd(); // the end of the list too, and follow the game again
  }
}

function flip() {
  flipped = true;
  board.setOrientation(board.orientation === 'white' ? 'black' : 'white');
  if (state) { panel.players(state, board.orientation); playerNames(); panel.drawClocks(); }
}

document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || !state) return;
  const keys = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' };
  if (keys[e.key]) { e.preventDefault(); nav(keys[e.key]); } else if (e.key === 'f') flip();
});
