// recon.js is the Reconnaissance Chess game page: it shows what the server's
// `recon_state` says the person may know (their pieces, what their senses
// showed, their notes) and sends their senses, moves and notes. The board
// is drawn from the person's view only; the true board comes with the end.

import { Board, parseBoard } from './board.js';
import { Promotion } from './promotion.js';
import { GameSocket } from './socket.js';
import { reconMemory, describeSense, describeMove, pieceName, reasonWords } from './recon_words.js';
import { ask } from './confirm.js';

const root = document.querySelector('main.recon-page');
const boardEl = document.getElementById('board');
const promotion = new Promotion(document.getElementById('promotion'));
const dialog = document.getElementById('game-over');
const banner = document.getElementById('conn-banner');
const phaseLine = document.getElementById('phase-line');
const resultEl = document.querySelector('[data-recon-result]');
const logEl = document.getElementById('recon-log');
const announcer = document.getElementById('announcer');
const clockEl = document.querySelector('#player-bottom .clock');
const thinkingEl = document.querySelector('#player-top .thinking');
const gameActions = document.querySelector('.actions[aria-label="Game actions"]');

let state = null;
let flipped = false;
let hover = ''; // square whose sense window is shown
let tapped = ''; // a first touch on a square, waiting for the second
let clockBase = null; // {ms, at} while the person's clock runs
let dialogShownFor = '';
// pendingMarkers holds the notes sent but not yet echoed by the server, so
// that quick repeated clicks cycle on from what the person sees rather than
// from the last state the server sent (which would send the same note twice).
const pendingMarkers = new Map();

const board = new Board(boardEl, { onMove: requestMove });
const socket = new GameSocket(socketURL(), {
  onMessage,
  onStatus: (up) => {
    banner.hidden = up;
    if (!up) {
      freezeClock(); // until the state sent on reconnecting
      pendingMarkers.clear(); // notes in flight may be lost; the state sent on reconnecting is the truth
      say('Connection lost; reconnecting…', true);
    }
  },
});
socket.connect();
window.addEventListener('pagehide', () => socket.stop());
window.addEventListener('pageshow', (e) => { if (e.persisted) { socket.stopped = false; socket.connect(); } });

function socketURL() {
  const given = root.dataset.socket || '';
  if (/^wss?:\/\//.test(given)) return given;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws/game/${encodeURIComponent(root.dataset.gameId)}`;
}

function onMessage(msg) {
  switch (msg.type) {
    case 'recon_state':
      applyState(msg);
      break;
    case 'error':
      pendingMarkers.clear(); // the next state is the server's word on every note
      say(msg.message || msg.code || 'The server refused that.', true);
      break;
    case 'notice':
      say(msg.text || '');
      break;
    case 'redirect':
      if (typeof msg.url === 'string' && msg.url.startsWith('/')) {
        socket.stop();
        location.assign(msg.url);
      }
      break;
    default:
      break;
  }
}

function say(text, isError) {
  resultEl.textContent = text;
  resultEl.classList.toggle('error', !!isError);
  announce(text);
}

let announceSeq = 0;
function announce(text) {
  if (!text) return;
  announcer.textContent = text + (announceSeq++ % 2 ? '\u00a0' : '');
}

function myColor() { return state && state.human === 'black' ? 'b' : 'w'; }

function applyState(next) {
  const prev = state;
  state = next;
  settleMarkers();
  if (!prev && !flipped) board.setOrientation(next.human === 'black' ? 'black' : 'white');
  boardEl.dataset.phase = next.phase;
  boardEl.dataset.status = next.status;
  boardEl.dataset.seq = String(next.seq);
  if (next.status === 'over') boardEl.dataset.fen = next.trueFen || '';
  else delete boardEl.dataset.fen;
  tapped = '';
  promotion.cancel();
  draw();
  words(prev, next);
  drawLog();
  setClock();
  thinkingEl.classList.toggle('on', next.phase === 'waiting');
  const over = next.status === 'over';
  // Rematch and New game would leave this game unfinished: offered once
  // it is over (and in the game-over dialog), not during play.
  for (const b of gameActions.querySelectorAll('[data-action="rematch"], [data-action="new-game"]')) b.hidden = !over;
  setDisabled('skip-sense', next.phase !== 'sense');
  setDisabled('pass', next.phase !== 'move');
  setDisabled('resign', over);
  document.title = `${over ? 'Game over' : next.phase === 'waiting' ? "Opponent's turn" : 'Your turn'} · Reconnaissance Chess · Knightwatch`;
  if (over && dialogShownFor !== next.id) {
    dialogShownFor = next.id;
    openDialog(next);
  }
}

/** draw paints the board for the person: own pieces, seen and remembered enemy pieces, notes, highlights. */
function draw() {
  if (!state) return;
  const map = new Map();
  if (state.status === 'over' && state.trueFen) {
    for (const [sq, code] of parseBoard(state.trueFen)) map.set(sq, { code });
  } else {
    for (const [sq, code] of Object.entries(state.pieces)) map.set(sq, { code });
    for (const [sq, m] of reconMemory(state)) if (!map.has(sq)) map.set(sq, m);
  }
  board.setPieceMap(map);
  board.setMarkers(shownMarkers());
  const cur = state.turns[state.turns.length - 1];
  const inTurn = state.phase === 'sense' || state.phase === 'move';
  board.markSquares('captured-here', inTurn && cur && cur.opponentCapture ? [cur.opponentCapture] : []);
  board.markSquares('sensed', inTurn && cur && cur.sensed ? cur.senseResult.map((s) => s.square) : []);
  const last = lastOwnMove();
  // Once over, the move that took a king is shown, whoever played it.
  const k = state.status === 'over' ? state.kingCapture : '';
  board.markSquares('last', k ? [k.slice(0, 2), k.slice(2, 4)] : last ? [last.from, last.to] : []);
  showWindow(state.phase === 'sense' ? hover : '');
  const dests = new Map();
  if (state.phase === 'move') {
    for (const m of state.moveActions) {
      if (!dests.has(m.from)) dests.set(m.from, new Set());
      dests.get(m.from).add(m.to);
    }
  }
  board.setMovable(myColor(), dests);
}

function lastOwnMove() {
  for (let i = state.turns.length - 1; i >= 0; i--) {
    const t = state.turns[i];
    if (t.moved && t.taken) return { from: t.taken.slice(0, 2), to: t.taken.slice(2, 4) };
    if (t.moved) return null;
  }
  return null;
}

/** showWindow highlights the 3x3 window around sq (none for ''). */
function showWindow(sq) {
  const names = [];
  if (sq) {
    const f = sq.charCodeAt(0) - 97;
    const r = Number(sq[1]);
    for (let dr = 1; dr >= -1; dr--) {
      for (let df = -1; df <= 1; df++) {
        const ff = f + df;
        const rr = r + dr;
        if (ff >= 0 && ff < 8 && rr >= 1 && rr <= 8) names.push(String.fromCharCode(97 + ff) + rr);
      }
    }
  }
  board.markSquares('sense-window', names);
}

/** words tells what just happened, in a sentence. */
function words(prev, next) {
  const cur = next.turns[next.turns.length - 1];
  let phase;
  switch (next.phase) {
    case 'sense': phase = 'Your turn: sense a square (or skip).'; break;
    case 'move': phase = 'Your turn: move (or pass).'; break;
    case 'waiting': phase = `${next.opponentName} is playing…`; break;
    // The result is said once, in the result line below (and the dialog).
    default: phase = 'Game over.';
  }
  phaseLine.textContent = phase;
  if (!prev || prev.seq !== next.seq || prev.status !== next.status) {
    let text = '';
    if (next.status === 'over') {
      text = endSentence(next);
    } else if (next.phase === 'sense' && cur) {
      text = cur.opponentCapture
        ? `The opponent captured your ${pieceName(cur.lost) || 'piece'} on ${cur.opponentCapture}.`
        : 'The opponent did not capture anything.';
    } else if (next.phase === 'move' && cur) {
      text = describeSense(cur);
    } else if (next.phase === 'waiting') {
      const done = [...next.turns].reverse().find((t) => t.moved);
      text = done ? describeMove(done) : '';
    }
    if (text) say(text);
  }
}

function endSentence(s) {
  const winner = s.result === '1-0' ? 'white' : s.result === '0-1' ? 'black' : '';
  const verdict = winner ? (winner === s.human ? 'You won' : `${s.opponentName} won`) : 'Draw';
  const how = s.reason === 'KING_CAPTURE' && s.kingCaptureSan ? ` with ${s.kingCaptureSan}` : '';
  return `${verdict}: ${reasonWords(s.reason, winner === s.human)}${how}.`;
}

function drawLog() {
  logEl.replaceChildren();
  state.turns.forEach((t) => {
    const li = document.createElement('li');
    const parts = [];
    if (t.opponentCapture) parts.push(`lost ${pieceName(t.lost) || 'a piece'} on ${t.opponentCapture}`);
    if (t.sensed) parts.push(t.sense ? `sensed ${t.sense}` : 'no sense');
    if (t.moved) {
      if (t.requested === 'pass') parts.push('passed');
      else if (!t.taken) parts.push(`${t.requested} (nothing happened)`);
      else if (t.taken !== t.requested) parts.push(`${t.requested} → ${t.taken}`);
      else parts.push(t.taken);
      if (t.capture) parts.push(`captured on ${t.capture}`);
    }
    li.textContent = parts.length ? parts.join(', ') : 'this turn…';
    logEl.append(li);
  });
  logEl.parentElement.scrollTop = logEl.parentElement.scrollHeight;
}

// ---- clock (the person's own) ----
function setClock() {
  const c = state.clock;
  clockEl.hidden = !c;
  if (!c) { clockBase = null; return; }
  clockBase = { ms: c.mine, at: performance.now(), running: c.running && state.status === 'playing' };
  tick();
}

// freezeClock stops the countdown while the server is unreachable: the
// state sent on reconnecting sets the clock again.
function freezeClock() {
  if (!clockBase || !clockBase.running || clockBase.frozen) return;
  clockBase = { ms: Math.max(0, clockBase.ms - (performance.now() - clockBase.at)), at: performance.now(), running: true, frozen: true };
  tick();
}

function tick() {
  if (!clockBase) return;
  let ms = clockBase.ms;
  if (clockBase.running && !clockBase.frozen) ms -= performance.now() - clockBase.at;
  ms = Math.max(0, ms);
  const s = Math.ceil(ms / 1000);
  clockEl.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  clockEl.classList.toggle('running', clockBase.running);
  clockEl.classList.toggle('low', ms < 20000);
}
setInterval(tick, 250);

// ---- sensing ----
function squareOf(e) { return board.squareAt(e.clientX, e.clientY); }

boardEl.addEventListener('pointermove', (e) => {
  if (!state || state.phase !== 'sense' || e.pointerType === 'touch') return;
  const sq = squareOf(e);
  if (sq !== hover) {
    hover = sq;
    showWindow(hover);
  }
});
boardEl.addEventListener('pointerleave', () => {
  if (state && state.phase === 'sense' && !tapped) { hover = ''; showWindow(''); }
});
boardEl.addEventListener('pointerup', (e) => {
  if (!state || state.phase !== 'sense' || (e.button !== 0 && e.pointerType === 'mouse')) return;
  if (longPressed) return;
  const sq = squareOf(e);
  if (!sq) return;
  if (e.pointerType === 'touch' && tapped !== sq) {
    // First touch shows the window; a second touch on it senses.
    tapped = sq;
    hover = sq;
    showWindow(sq);
    say(`Tap ${sq} again to sense there.`);
    return;
  }
  sense(sq);
});

function sense(sq) {
  if (!state || state.phase !== 'sense') return;
  tapped = '';
  hover = '';
  showWindow('');
  socket.send({ type: 'sense', square: sq, seq: state.seq });
}

// ---- moving ----
function requestMove(from, to) {
  if (!state || state.phase !== 'move') return;
  const options = state.moveActions.filter((m) => m.from === from && m.to === to);
  if (options.length === 0) return;
  if (options.some((m) => m.promotion)) {
    choosePromotion(options);
    return;
  }
  sendMove(options[0].uci);
}

function sendMove(uci) {
  socket.send({ type: 'move', move: uci, seq: state.seq });
}

/** choosePromotion asks for the piece, then sends the move (cancelled: the board as it was). */
async function choosePromotion(options) {
  const p = await promotion.ask(myColor());
  const m = p && options.find((o) => o.promotion === p);
  if (m) sendMove(m.uci);
  else draw();
}

// ---- notes: right-click or long-press cycles an enemy piece on a square ----
const CYCLE = ['', 'P', 'N', 'B', 'R', 'Q', 'K'];
let pressTimer = 0;
let longPressed = false;

/** shownMarkers is the server's notes with the ones still on their way laid over them. */
function shownMarkers() {
  const m = new Map(Object.entries((state && state.markers) || {}));
  for (const [sq, piece] of pendingMarkers) {
    if (piece) m.set(sq, piece);
    else m.delete(sq);
  }
  return m;
}

/** settleMarkers drops the pending notes the server's state now shows. */
function settleMarkers() {
  const got = (state && state.markers) || {};
  for (const [sq, piece] of pendingMarkers) if ((got[sq] || '') === piece) pendingMarkers.delete(sq);
  if (state && state.status === 'over') pendingMarkers.clear();
}

function cycleMarker(sq) {
  if (!state || !sq) return;
  const enemy = myColor() === 'w' ? 'b' : 'w';
  const now = shownMarkers().get(sq) || '';
  const i = CYCLE.indexOf(now ? now[1] : '');
  const next = CYCLE[(i + 1) % CYCLE.length];
  const piece = next ? enemy + next : '';
  pendingMarkers.set(sq, piece);
  board.setMarkers(shownMarkers());
  socket.send({ type: 'marker', square: sq, piece });
}

boardEl.addEventListener('contextmenu', (e) => {
  e.preventDefault();
  if (e.pointerType === 'touch') return; // a long press is handled below
  cycleMarker(squareOf(e));
});
boardEl.addEventListener('pointerdown', (e) => {
  longPressed = false;
  if (e.pointerType !== 'touch') return;
  const sq = squareOf(e);
  clearTimeout(pressTimer);
  pressTimer = setTimeout(() => { longPressed = true; cycleMarker(sq); }, 550);
});
for (const ev of ['pointerup', 'pointercancel', 'pointermove']) {
  boardEl.addEventListener(ev, (e) => {
    if (ev === 'pointermove' && e.pointerType === 'touch' && e.movementX === 0 && e.movementY === 0) return;
    clearTimeout(pressTimer);
  }, true);
}

// ---- buttons ----
document.addEventListener('click', (e) => {
  const el = e.target.closest('[data-action]');
  if (!el || !state) return;
  switch (el.dataset.action) {
    case 'skip-sense':
      if (state.phase === 'sense') socket.send({ type: 'sense', square: '', seq: state.seq });
      break;
    case 'pass':
      if (state.phase === 'move') sendMove('pass');
      break;
    case 'resign':
      if (state.status === 'playing') {
        ask(gameActions, { question: 'Resign this game? It counts as a loss.', yes: 'Yes, resign', danger: true })
          .then((yes) => { if (yes && state.status === 'playing') socket.send({ type: 'resign', seq: state.seq }); });
      }
      break;
    case 'flip':
      flipped = true;
      board.setOrientation(board.orientation === 'white' ? 'black' : 'white');
      break;
    case 'clear-markers':
      for (const sq of shownMarkers().keys()) {
        pendingMarkers.set(sq, '');
        socket.send({ type: 'marker', square: sq, piece: '' });
      }
      board.setMarkers(shownMarkers());
      break;
    case 'rematch':
      socket.send({ type: 'rematch' });
      say('Starting a rematch…');
      break;
    case 'new-game':
      location.assign('/#new-game-card');
      break;
    default:
      return; // links
  }
});

document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || dialog.open) return;
  if (e.key === 'Escape') { promotion.cancel(); board.select(''); tapped = ''; showWindow(state && state.phase === 'sense' ? hover : ''); }
  if (e.key === 'f') document.querySelector('button[data-action="flip"]').click();
});

function openDialog(s) {
  const res = dialog.querySelector('[data-result]');
  const why = dialog.querySelector('[data-reason]');
  res.dataset.result = s.result;
  res.textContent = s.result;
  why.dataset.reason = s.reason;
  why.textContent = endSentence(s);
  dialog.querySelector('[data-action="replay"]').href = s.replayUrl || '#';
  dialog.querySelector('[data-action="history"]').href = s.historyUrl || '#';
  if (!dialog.open) {
    try { dialog.showModal(); } catch { dialog.setAttribute('open', ''); }
  }
}
dialog.addEventListener('click', (e) => { if (e.target === dialog) dialog.close(); });

function setDisabled(action, off) {
  for (const b of document.querySelectorAll(`button[data-action="${action}"]`)) b.disabled = off;
}
