// game.js is the game page's entry: it wires the board, the side panel and
// the WebSocket together. The server's `state` message is the only truth;
// this file shows it and sends the person's requests.

import { Board, parseBoard } from './board.js';
import { Promotion } from './promotion.js';
import { premoveDests, premoveMove } from './premove.js';
import { GameSocket } from './socket.js';
import { Panel, sanWords, resultWords, endWords, turnWords, tablebaseWords } from './panel.js';
import { Review } from './review.js';
import * as sound from './sound.js';
import { ask } from './confirm.js';

const root = document.querySelector('main.game-page');
const boardEl = document.getElementById('board');
const promotion = new Promotion(document.getElementById('promotion'));
const announcer = document.getElementById('announcer');
const dialog = document.getElementById('game-over');
const banner = document.getElementById('conn-banner');
const moveForm = document.getElementById('move-form');
const moveInput = document.getElementById('move-input');
const tbLine = document.getElementById('tablebase-line');
const actions = document.querySelector('.actions[aria-label="Game actions"]');

let state = null; // last state from the server
let shown = 0; // ply on the board; equals state.ply unless reviewing
let flipped = false; // the person turned the board round
let pending = null; // {from, to} of a move sent and drawn early, until the server answers
let dialogShownFor = ''; // the game whose end we already announced
let typed = null; // {text, ply} of a move sent from the move box, until the server answers
let tablebase = null; // Map ply -> {wdl, dtz, dtm, mate} of the finished game's positions in the server's tables
let tablebaseAsked = ''; // the game whose values were asked for (once, when it is over)

const board = new Board(boardEl, { onMove: requestMove, annotations: true });
const panel = new Panel(root, { onPick: (ply) => showPly(ply) });
const review = new Review(root, {
  onPick: (ply) => showPly(ply),
  board,
  names: (color) => (state && color === state.human ? 'You' : 'Knightwatch'),
});
const socket = new GameSocket(socketURL(), {
  onMessage,
  onStatus: (up) => {
    banner.hidden = up;
    if (!up) {
      panel.freezeClocks(); // until the state sent on reconnecting
      panel.say('Connection lost; reconnecting…', true);
    }
    else if (panel.message().startsWith('Connection lost')) panel.say('');
  },
});
socket.connect();

// socketURL is the server's absolute ws(s):// address for this game (in
// data-socket: an attribute name without "url", which html/template would
// filter as an unsafe link), or one built from the page's own address.
function socketURL() {
  const given = root.dataset.socket || '';
  if (/^wss?:\/\//.test(given)) return given;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws/game/${encodeURIComponent(root.dataset.gameId)}`;
}
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

function onMessage(msg) {
  switch (msg.type) {
    case 'state':
      applyState(msg);
      showHashPly();
      break;
    case 'error':
      panel.say(msg.message || msg.code || 'The server refused that.', true);
      if (typed) {
        // Keep the refused text in the box, selected, ready to correct.
        typed = null;
        moveInput.focus();
        moveInput.select();
      }
      if (pending && state) {
        pending = null;
        redraw(); // snap the early-drawn move back
      }
      break;
    case 'notice':
      panel.say(msg.text || '');
      announce(msg.text || '');
      break;
    case 'analysis': {
      const was = review.done();
      review.update(msg);
      if (state) {
        review.render(state, shown);
  for (const a of document.querySelectorAll('[data-action="analyse"]')) {
    a.href = `/analysis?game=${encodeURIComponent(root.dataset.gameId)}&ply=${shown}`;
  }
        if (!was && review.done()) announce(reviewReadyWords());
      }
      break;
    }
    case 'redirect':
      if (typeof msg.url === 'string' && msg.url.startsWith('/')) {
        socket.stop();
        location.assign(msg.url);
      }
      break;
    default:
      break; // newer server messages this page does not know
  }
}

function applyState(next) {
  const prev = state;
  state = next;
  // The person's own move is already on its square: no slide for it.
  const lm = next.lastMove;
  const mine = pending && lm && pending.from === lm.from && pending.to === lm.to;
  pending = null;
  if (typed && next.ply !== typed.ply) {
    // The typed move was played (or the game moved on): empty the box
    // unless the person has started typing something else.
    if (moveInput.value.trim() === typed.text) moveInput.value = '';
    typed = null;
  }
  if (!prev && !flipped) board.setOrientation(next.human === 'black' ? 'black' : 'white');
  boardEl.dataset.ply = String(next.ply);
  boardEl.dataset.status = next.status;
  boardEl.dataset.thinking = String(!!next.thinking);

  const wasLive = !prev || shown === prev.ply;
  if (wasLive || shown > next.ply || (prev && next.ply < prev.ply)) {
    const anim = prev && next.ply === prev.ply + 1 && !mine ? next.lastMove : null;
    shown = next.ply;
    redraw(anim);
  } else {
    redraw(null, true); // reviewing: keep the shown position
  }

  if (prev && next.ply > prev.ply) {
    const said = [];
    for (let i = prev.ply; i < next.ply; i++) {
      const m = next.moves[i];
      if (m) said.push(`${i % 2 === sideOffset(next) ? 'White' : 'Black'}: ${sanWords(m.san)}`);
    }
    announce(said.join('. '));
    const last = next.moves[next.ply - 1];
    if (next.status === 'over') sound.play('end');
    else if (last && /[+#]$/.test(last.san)) sound.play('check');
    else if (last && last.san.includes('x')) sound.play('capture');
    else sound.play('move');
    if (!panel.isError() || next.moves.length) panel.say('');
    if (last && last.experience) panel.say(last.experience); // the engine's move came from experience
  } else if (prev && next.ply < prev.ply) {
    announce(`Moves taken back. ${next.turn === next.human ? 'Your move.' : ''}`);
    panel.say('Moves taken back.');
  }

  // The dialog opens only when the person sees the game end here, live;
  // opening a finished game later shows the result in the status line
  // (turn words) without the dialog.
  if (next.status === 'over' && prev && prev.status === 'playing' && dialogShownFor !== next.id) {
    dialogShownFor = next.id;
    openDialog(next);
    announce(endWords(next));
  }
  if (prev && next.ply < prev.ply) board.setPremove(null); // taken back: the plan is moot
  playPremove();
  loadTablebase();
  updateChrome();
}

// playPremove sends the held premove as soon as it is the person's turn on
// the live board, if it is legal in the new position (a promotion becomes
// a queen); otherwise it is dropped without a word. Never earlier: the
// client holds it, whatever the server would say to an early move.
function playPremove() {
  const pm = board.premove;
  if (!pm || !state) return;
  if (state.status !== 'playing') { board.setPremove(null); return; }
  if (state.turn !== state.human || shown !== state.ply || pending) return;
  board.setPremove(null);
  const m = premoveMove(state.legal, pm);
  if (m) sendMove(m.uci, m.from, m.to);
}

// loadTablebase asks the server once for the tablebase values (Syzygy's
// wdl and dtz, Gaviota's dtm and its words) of the finished game's
// positions (never during the game: the server refuses then too).
// A server without tables answers [], and the line stays hidden.
async function loadTablebase() {
  if (!state || state.status !== 'over' || tablebaseAsked === state.id) return;
  tablebaseAsked = state.id;
  try {
    const r = await fetch(`/game/${encodeURIComponent(state.id)}/tablebase`, { headers: { Accept: 'application/json' } });
    if (!r.ok) return;
    const list = await r.json();
    const m = new Map();
    for (const e of Array.isArray(list) ? list : []) {
      if (e && Number.isInteger(e.ply) && ((Number.isInteger(e.wdl) && Number.isInteger(e.dtz)) || (Number.isInteger(e.dtm) && typeof e.mate === 'string'))) m.set(e.ply, e);
    }
    tablebase = m;
  } catch {
    return; // offline or an old server: nothing to show
  }
  showTablebase();
}

/** showTablebase fills #tablebase-line for the shown ply, or hides it. */
function showTablebase() {
  const e = state && state.status === 'over' && tablebase ? tablebase.get(shown) : null;
  if (!e) {
    tbLine.hidden = true;
    tbLine.textContent = '';
    for (const k of ['ply', 'wdl', 'dtz', 'dtm']) delete tbLine.dataset[k];
    return;
  }
  const fen = shown === state.ply ? state.fen : shown === 0 ? state.startFen : state.moves[shown - 1].fen;
  const toMove = (fen || '').split(' ')[1] === 'b' ? 'black' : 'white';
  const mated = shown > 0 && /#$/.test(state.moves[shown - 1]?.san || '');
  tbLine.textContent = tablebaseWords(e, toMove, mated);
  tbLine.dataset.ply = String(e.ply);
  for (const k of ['wdl', 'dtz', 'dtm']) {
    if (Number.isInteger(e[k])) tbLine.dataset[k] = String(e[k]);
    else delete tbLine.dataset[k];
  }
  tbLine.hidden = false;
}

// sideOffset is 0 when White made the game's first move, 1 when Black did
// (a start position with Black to move), so ply parity names the mover.
function sideOffset(s) {
  return (s.startFen || '').split(' ')[1] === 'b' ? 1 : 0;
}

/** redraw shows ply `shown` with its highlights and what may move. */
function redraw(anim, keepBoard) {
  if (!state) return;
  const live = shown === state.ply;
  if (!keepBoard) {
    if (live) {
      board.setPosition(state.fen, anim);
      board.setHighlights(state.lastMove, state.check);
    } else {
      const fen = shown === 0 ? state.startFen : state.moves[shown - 1].fen;
      const last = shown === 0 ? null : squaresOf(state.moves[shown - 1].uci);
      board.setPosition(fen, anim);
      board.setHighlights(last, shown === 0 ? '' : checkedKing(fen, state.moves[shown - 1].san));
    }
  }
  const dests = new Map();
  const color = state.human === 'black' ? 'b' : 'w';
  let premoves = new Map();
  if (live && state.status === 'playing' && !pending) {
    for (const m of state.legal || []) {
      if (!dests.has(m.from)) dests.set(m.from, new Set());
      dests.get(m.from).add(m.to);
    }
    // The engine's turn: the person may queue one premove.
    if (state.turn !== state.human) premoves = premoveDests(parseBoard(state.fen), color);
  }
  board.setMovable(color, dests, premoves);
  panel.players(state, board.orientation);
  panel.setClock(state.clock, state.status === 'over');
  panel.list(state, shown);
  showTablebase();
  review.render(state, shown);
}

// reviewReadyWords announces a finished review: the person's accuracy.
function reviewReadyWords() {
  const mine = review.msg && review.msg[state.human];
  return mine && typeof mine.accuracy === 'number'
    ? `Analysis ready: your accuracy ${Math.round(mine.accuracy)}%, ${mine.blunders} blunders, ${mine.mistakes} mistakes.`
    : 'Analysis ready.';
}

function squaresOf(uci) {
  return uci && uci.length >= 4 ? { from: uci.slice(0, 2), to: uci.slice(2, 4) } : null;
}

// checkedKing finds the king of the side to move when the move gave check,
// so a reviewed position shows its check like the live one does.
function checkedKing(fen, san) {
  if (!/[+#]$/.test(san || '')) return '';
  const code = (fen.split(' ')[1] === 'b' ? 'b' : 'w') + 'K';
  for (const [sq, p] of parseBoard(fen)) if (p === code) return sq;
  return '';
}

/** showPly moves the review cursor; moving is only possible on the live ply. */
function showPly(n) {
  if (!state) return;
  const target = Math.max(0, Math.min(state.ply, n));
  if (target === shown) return;
  const anim = target === shown + 1 ? squaresOf(state.moves[target - 1]?.uci) : null;
  shown = target;
  promotion.cancel();
  board.select('');
  board.setPremove(null);
  redraw(anim);
  updateChrome();
  if (shown !== state.ply) {
    const m = state.moves[shown - 1];
    const advice = document.getElementById('review-advice');
    let words = shown === 0 ? 'Start position' : `Reviewing move ${Math.ceil(shown / 2)}: ${sanWords(m.san)}`;
    if (advice && !advice.hidden && advice.dataset.judgement) words += `. ${advice.textContent}`;
    announce(tbLine.hidden ? words : `${words}. ${tbLine.textContent}`);
  }
}

function requestMove(from, to) {
  if (!state || shown !== state.ply || state.status !== 'playing') return;
  const options = (state.legal || []).filter((m) => m.from === from && m.to === to);
  if (options.length === 0) return;
  if (options.some((m) => m.promotion)) {
    choosePromotion(from, to, options);
    return;
  }
  sendMove(options[0].uci, from, to);
}

function sendMove(uci, from, to) {
  socket.send({ type: 'move', move: uci, ply: state.ply });
  if (from && to) {
    pending = { from, to };
    board.showPending(from, to);
  }
}

/** choosePromotion asks for the piece, then sends the move (cancelled: the board as it was). */
async function choosePromotion(from, to, options) {
  const p = await promotion.ask(state.human === 'black' ? 'b' : 'w');
  const m = p && options.find((o) => o.promotion === p);
  if (m) sendMove(m.uci, from, to);
  else redraw();
}

function openDialog(s) {
  const res = dialog.querySelector('[data-result]');
  const why = dialog.querySelector('[data-reason]');
  res.dataset.result = s.result;
  const winner = s.result === '1-0' ? 'white' : s.result === '0-1' ? 'black' : '';
  const verdict = winner ? (winner === s.human ? 'You won' : 'Knightwatch won') : 'Draw';
  res.textContent = `${s.result} · ${verdict}`;
  why.dataset.reason = s.reason;
  why.textContent = endWords(s);
  if (!dialog.open) {
    try { dialog.showModal(); } catch { dialog.setAttribute('open', ''); }
  }
}
dialog.addEventListener('click', (e) => { if (e.target === dialog) dialog.close(); });

/** updateChrome sets buttons, title and the back-to-live control. */
function updateChrome() {
  if (!state) return;
  const over = state.status === 'over';
  const humanPlies = state.moves.filter((_, i) => (i + sideOffset(state)) % 2 === (state.human === 'white' ? 0 : 1)).length;
  setDisabled('resign', over);
  setDisabled('draw', over);
  setDisabled('takeback', over || humanPlies === 0);
  // Rematch and New game would leave this game unfinished: offered once it
  // is over (and in the game-over dialog), not during play.
  for (const b of actions.querySelectorAll('[data-action="rematch"], [data-action="new-game"]')) b.hidden = !over;
  // A finished game opens on the analysis board at the move shown.
  const analyse = actions.querySelector('[data-action="analyse"]');
  if (analyse) analyse.hidden = !over;
  moveInput.disabled = over;
  // A finished game has no use for the move box: its room goes to the review.
  moveForm.hidden = over;
  let title;
  if (over) title = `${resultWords(state.result)}`;
  else if (state.turn === state.human) title = 'Your turn';
  else title = state.thinking ? 'Knightwatch is thinking' : "Knightwatch's turn";
  document.title = `${title} · Knightwatch`;
  panel.turnWords(turnWords(state));
  boardEl.setAttribute('aria-label', `Chess board, ${shown === state.ply ? 'current position' : 'reviewing an earlier position'}. ${title}.`);
}

function setDisabled(action, off) {
  for (const b of document.querySelectorAll(`button[data-action="${action}"]`)) b.disabled = off;
}

let announceSeq = 0;
function announce(text) {
  if (!text) return;
  // Re-setting the same words would not be read again; a trailing
  // invisible change makes repeats audible.
  announcer.textContent = text + (announceSeq++ % 2 ? '\u00a0' : '');
}

// ---- actions ----
document.addEventListener('click', (e) => {
  const el = e.target.closest('[data-action], [data-nav], #back-live');
  if (!el) return;
  if (el.id === 'back-live') { showPly(state ? state.ply : 0); return; }
  if (el.dataset.nav) { nav(el.dataset.nav); return; }
  const ply = state ? state.ply : 0;
  switch (el.dataset.action) {
    case 'resign':
      if (state && state.status === 'playing') {
        ask(actions, { question: 'Resign this game? It counts as a loss.', yes: 'Yes, resign', danger: true })
          .then((yes) => { if (yes && state.status === 'playing') socket.send({ type: 'resign', ply: state.ply }); });
      }
      break;
    case 'draw':
      // Confirmed first, like resigning: an accepted draw ends the game.
      if (state && state.status === 'playing') {
        ask(actions, { question: 'Offer Knightwatch a draw? If it accepts, the game ends.', yes: 'Offer a draw' })
          .then((yes) => { if (yes && state.status === 'playing') socket.send({ type: 'draw', ply: state.ply }); });
      }
      break;
    case 'takeback':
      socket.send({ type: 'takeback', ply });
      break;
    case 'flip':
      flipped = true;
      board.setOrientation(board.orientation === 'white' ? 'black' : 'white');
      if (state) panel.players(state, board.orientation), panel.drawClocks();
      break;
    case 'rematch':
      socket.send({ type: 'rematch' });
      panel.say('Starting a rematch…');
      break;
    case 'new-game':
      location.assign('/#new-game-card');
      break;
    case 'copy-fen':
      copy(boardEl.dataset.fen);
      break;
    case 'sound':
      sound.setEnabled(!sound.enabled());
      soundButton();
      break;
    default:
      return; // the PGN link downloads by itself
  }
});

function nav(where) {
  if (!state) return;
  if (where === 'first') showPly(0);
  else if (where === 'prev') showPly(shown - 1);
  else if (where === 'next') showPly(shown + 1);
  else {
    showPly(state.ply);
    panel.toEnd(); // the end of the list too, and follow the game again
  }
}

function soundButton() {
  const on = sound.enabled();
  for (const b of document.querySelectorAll('button[data-action="sound"]')) {
    b.setAttribute('aria-pressed', String(on));
    b.textContent = on ? '♪ Sound on' : '♪ Sound off';
  }
}
soundButton();
document.addEventListener('pointerdown', () => sound.unlock(), { once: true });

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    panel.say('FEN copied to the clipboard.');
  } catch {
    // Without clipboard permission (plain http on another host) fall back
    // to a selected text field the person can copy by hand.
    const t = document.createElement('textarea');
    t.value = text;
    t.setAttribute('readonly', '');
    t.style.position = 'fixed';
    t.style.opacity = '0';
    document.body.append(t);
    t.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    t.remove();
    panel.say(ok ? 'FEN copied to the clipboard.' : `FEN: ${text}`);
  }
}

// ---- keyboard ----
document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === 'Escape' && promotion.open) { promotion.cancel(); return; }
  const t = e.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || dialog.open) return;
  const keys = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last', ArrowUp: 'first', ArrowDown: 'last' };
  if (keys[e.key]) {
    e.preventDefault();
    nav(keys[e.key]);
  } else if (e.key === 'f') {
    document.querySelector('button[data-action="flip"]').click();
  } else if (e.key === 'Escape') {
    board.select('');
    board.setPremove(null);
  }
});

moveForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = moveInput.value.trim();
  if (!text || !state) return;
  if (state.status !== 'playing') { panel.say('The game is over.', true); return; }
  if (shown !== state.ply) showPly(state.ply);
  board.annotations?.clear(); // as a move by hand does: the marks were for this move
  if (!socket.send({ type: 'move', move: text, ply: state.ply })) panel.say('Offline: the move will be sent when the connection is back.', true);
  // The text stays until the server plays the move (then the box empties)
  // or refuses it (then it stays, to be corrected).
  typed = { text, ply: state.ply };
});
