// analysis.js runs the analysis board (/analysis): the board (board.js),
// the tree of moves (analysis_tree.js) shown as lichess shows it, the
// engine's lines and evaluation bar from the server's analysis socket
// (web/PROTOCOL.md, "The analysis socket"), the opening, the tablebase and
// the FEN of the position shown, import and export, saving. The server
// judges every move: the page sends the path to a position and shows what
// comes back.

import { Board } from './board.js';
import { Promotion } from './promotion.js';
import { GameSocket } from './socket.js';
import { Tree, moveLabel, moveNumber } from './analysis_tree.js';
import { tablebaseWords } from './panel.js';
import { ask as askPerson } from './confirm.js';

const main = document.getElementById('main');
const boardEl = document.getElementById('board');
const promotion = new Promotion(document.getElementById('promotion'));
const treeEl = document.getElementById('tree');
const rowEl = document.getElementById('tree-row');
const linesEl = document.getElementById('engine-lines');
const stateEl = document.getElementById('engine-state');
const depthEl = document.getElementById('engine-depth');
const engineOn = document.getElementById('engine-on');
const multipvEl = document.getElementById('multipv');
const evalBar = document.getElementById('eval-bar');
const openingEl = document.getElementById('opening-line');
const fenEl = document.getElementById('fen');
const tbLine = document.getElementById('tablebase-line');
const tbMoves = document.getElementById('tablebase-moves');
const commentEl = document.getElementById('comment');
const STORE_KEY = 'kw-analysis';
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** The tree: the page's own, the server's import, or what this browser kept. */
function initialTree() {
  if (main.dataset.study) {
    try { return new Tree(JSON.parse(main.dataset.study)); } catch { /* fall through */ }
  }
  try {
    const kept = localStorage.getItem(STORE_KEY);
    if (kept) return new Tree(JSON.parse(kept));
  } catch { /* storage off or a bad copy: start afresh */ }
  return new Tree({ fen: START, moves: [] });
}

let tree = initialTree();
let current = tree.at(main.dataset.path || '');
let info = null; // the server's answer for the position shown
let reqId = 0;
let shownId = 0; // the id of the request for the position shown
const pendingMoves = new Map(); // request id -> parent node of a move asked for
let savedId = Number(main.dataset.savedId) || 0;
// Timing only (bench/analysis_page reads it; nothing else depends on it):
// when each position was asked for, by request id, and, once the first
// engine line for it is in #engine-lines, a performance measure
// 'kw-first-line' from the one to the other (its detail: the id).
const askedAt = new Map();

const board = new Board(boardEl, { onMove: requestMove, annotations: true });
const socket = new GameSocket(main.dataset.socket, {
  onMessage,
  onStatus: (up) => {
    document.getElementById('conn-banner').hidden = up;
    if (up) ask(current);
  },
});

/** keep puts the tree in this browser's storage (anonymous use too). */
function keep() {
  try { localStorage.setItem(STORE_KEY, JSON.stringify(tree.study())); } catch { /* full or off */ }
}

// PATH_WINDOW is the most moves a request carries (Node.from): the server
// reads at most analysisboard.MaxPathMoves (500), so deeper positions are
// named from a later FEN.
const PATH_WINDOW = 400;

/** ask sends the path to node; move, when set, is a new move played from node. */
function ask(node, move) {
  clearTimeout(askTimer);
  const id = ++reqId;
  const { fen, moves } = node.from(PATH_WINDOW - 1);
  if (move) {
    moves.push(move);
    pendingMoves.set(id, node);
  } else {
    shownId = id;
  }
  const on = engineOn.checked && document.visibilityState === 'visible';
  askedAt.set(id, performance.now());
  if (askedAt.size > 16) askedAt.delete(askedAt.keys().next().value);
  socket.send({ type: 'position', id, fen, chess960: tree.chess960, moves, engine: on, multipv: Number(multipvEl.value) });
  return id;
}

// Stepping through the tree sends the position once the steps pause
// (askSoon): a held arrow key would otherwise send a position per repeat,
// past the socket's message rate.
let askTimer = 0;
function askSoon(node) {
  clearTimeout(askTimer);
  askTimer = setTimeout(() => ask(node), 80);
}

/** show makes node the position shown and asks the server about it. */
function show(node, { send = true } = {}) {
  current = node;
  info = null;
  board.setPosition(node.fen);
  board.setMovable('', new Map());
  const last = node.uci ? { from: node.uci.slice(0, 2), to: node.uci.slice(2, 4) } : null;
  board.setHighlights(last, '');
  boardEl.dataset.fen = node.fen;
  boardEl.dataset.path = node.path();
  delete boardEl.dataset.ready; // until the server's answer about it
  fenEl.value = node.fen;
  commentEl.value = node.comment;
  linesEl.replaceChildren();
  depthEl.textContent = '';
  board.annotations?.setHint('');
  renderTree();
  if (send) {
    // Until the ask, what comes about the position left (its lines, its
    // legal moves) is not about this one.
    shownId = 0;
    askSoon(node);
  }
}

function onMessage(msg) {
  switch (msg.type) {
    case 'position': {
      const parent = pendingMoves.get(msg.id);
      if (parent) {
        pendingMoves.delete(msg.id);
        const node = tree.add(parent, { uci: msg.uci, san: msg.san, fen: msg.fen });
        keep();
        shownId = msg.id;
        show(node, { send: false });
      }
      if (msg.id !== shownId) return;
      applyInfo(msg);
      break;
    }
    case 'lines':
      if (msg.id === shownId) renderLines(msg);
      break;
    case 'engine':
      if (msg.id === shownId) renderEngineState(msg);
      break;
    case 'error':
      pendingMoves.delete(msg.id);
      // The session's errors say text; the transport's (too large, too
      // fast) say message.
      stateEl.textContent = msg.text || msg.message || '';
      break;
    default:
  }
}

/** applyInfo shows the server's answer about the position shown. */
function applyInfo(msg) {
  info = msg;
  const dests = new Map();
  for (const m of msg.legal || []) {
    if (!dests.has(m.from)) dests.set(m.from, new Set());
    dests.get(m.from).add(m.to);
  }
  board.setMovable(msg.turn, dests);
  const last = current.uci ? { from: current.uci.slice(0, 2), to: current.uci.slice(2, 4) } : null;
  board.setHighlights(last, msg.check || '');
  openingEl.textContent = msg.opening ? `${msg.opening.eco} ${msg.opening.name}` : '';
  boardEl.dataset.ready = String(msg.id);
  renderTablebase(msg);
  if (msg.over) {
    stateEl.textContent = msg.over === 'checkmate' ? 'Checkmate.' : 'Stalemate.';
    setEval(msg.over === 'checkmate' ? (msg.turn === 'w' ? -100000 : 100000) : 0, 0);
  }
}

/** renderTablebase shows the tables' verdict and each move's value. */
function renderTablebase(msg) {
  const tb = msg.tablebase;
  const mate = msg.mate;
  tbLine.hidden = !tb && !mate;
  tbMoves.hidden = !tb;
  tbMoves.replaceChildren();
  if (!tb && !mate) return;
  // The tablebase line of the game page, in the same words: Syzygy's
  // verdict, and Gaviota's distance to mate beside it (or alone).
  const entry = tb ? { wdl: tb.wdl, dtz: tb.dtz } : {};
  if (mate) Object.assign(entry, { dtm: mate.dtm, mate: mate.words });
  tbLine.textContent = tablebaseWords(entry, msg.turn === 'w' ? 'white' : 'black', !!msg.over);
  if (!tb) return;
  const word = { 2: 'Win', 1: 'Win (50-move draw)', 0: 'Draw', '-1': 'Loss (50-move draw)', '-2': 'Loss' };
  for (const m of tb.moves) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `tb-move wdl${m.wdl}`;
    b.textContent = m.san;
    b.addEventListener('click', () => playUCI(m.uci));
    li.append(b, ` ${word[m.wdl]}${m.dtz ? `, DTZ ${Math.abs(m.dtz)}` : ''}`);
    tbMoves.append(li);
  }
}

/** score words: +0.35, −1.20, #3, #-2, from White's point of view. */
function scoreText(l) {
  if (l.mate) return `#${l.mate}`;
  const v = (l.cp / 100).toFixed(1);
  return l.cp > 0 ? `+${v}` : v.replace('-', '−');
}

/** setEval fills the evaluation bar: White's share by lichess's winning chances. */
function setEval(cp, mate) {
  const v = mate ? (mate > 0 ? 100000 : -100000) : cp;
  const share = 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * v)) - 1);
  evalBar.querySelector('.eval-white').style.height = `${share.toFixed(1)}%`;
  evalBar.setAttribute('aria-valuenow', share.toFixed(0));
  const text = mate ? `#${mate}` : (cp / 100).toFixed(1);
  evalBar.querySelector('.eval-text').textContent = text;
  evalBar.title = `Evaluation ${text}`;
}

/** renderLines shows one depth's lines: score and moves in SAN, numbered. */
function renderLines(msg) {
  depthEl.textContent = `depth ${msg.depth}`;
  linesEl.dataset.depth = String(msg.depth);
  const [fenFirst, turn] = [current.fen, current.fen.split(' ')[1]];
  const full = Number(fenFirst.split(' ')[5]) || 1;
  const items = msg.lines.map((l) => {
    const li = document.createElement('li');
    li.className = 'engine-line';
    const score = document.createElement('strong');
    score.className = 'line-score';
    score.textContent = scoreText(l);
    const moves = document.createElement('span');
    moves.className = 'line-moves';
    let words = '';
    l.san.forEach((san, i) => {
      const white = (turn === 'w') === (i % 2 === 0);
      const num = full + Math.floor((i + (turn === 'w' ? 0 : 1)) / 2);
      if (white) words += `${num}. `;
      else if (i === 0) words += `${num}… `;
      words += `${san} `;
    });
    moves.textContent = words.trim();
    li.append(score, ' ', moves);
    li.title = 'Play this line\'s first move';
    li.addEventListener('click', () => { if (l.uci[0]) playUCI(l.uci[0]); });
    return li;
  });
  linesEl.replaceChildren(...items);
  const askedTime = askedAt.get(msg.id);
  if (askedTime !== undefined && items.length > 0) {
    askedAt.delete(msg.id);
    performance.measure('kw-first-line', { start: askedTime, detail: { id: msg.id } });
  }
  if (msg.lines[0]) setEval(msg.lines[0].cp, msg.lines[0].mate);
  // The best line's first move as the board's hint arrow, as lichess shows it.
  board.annotations?.setHint(msg.lines[0]?.uci[0] || '');
}

function renderEngineState(msg) {
  const words = { running: '', done: 'Done.', stopped: '', refused: '', off: '' };
  stateEl.textContent = msg.text || words[msg.state] || '';
  stateEl.dataset.state = msg.state;
}

/** playUCI plays a move from the position shown: its child if there is one. */
function playUCI(uci) {
  const same = current.children.find((c) => c.uci === uci);
  if (same) {
    show(same);
    return;
  }
  ask(current, uci);
}

function requestMove(from, to) {
  if (!info) return;
  const options = (info.legal || []).filter((m) => m.from === from && m.to === to);
  if (options.length === 0) return;
  if (options.some((m) => m.promotion)) {
    choosePromotion(options);
    return;
  }
  playUCI(options[0].uci);
}

/** choosePromotion asks for the piece, then plays the move (cancelled: the board as it was). */
async function choosePromotion(options) {
  const p = await promotion.ask(info.turn);
  const m = p && options.find((o) => o.promotion === p);
  if (m) playUCI(m.uci);
  else board.setPosition(current.fen); // the pawn back; the legal moves stand
}

/** moveButton is one move of the tree as a button. */
function moveButton(n, withNumber) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'move';
  if (n === current) {
    b.classList.add('current');
    b.setAttribute('aria-current', 'true');
  }
  b.dataset.path = n.path();
  const white = (n.parent.fen.split(' ')[1] || 'w') === 'w';
  const label = moveLabel(n);
  b.textContent = white || withNumber ? `${moveNumber(n, n.parent.fen)} ${label}` : label;
  return b;
}

function commentSpan(text) {
  const s = document.createElement('span');
  s.className = 'comment';
  s.textContent = text;
  return s;
}

/**
 * renderLine writes the line that follows node into el: each move, its
 * comment, and the variations branching off it (indented blocks off the
 * main line, parentheses inside a variation), as lichess shows a tree.
 */
function renderLine(node, el, depth, first) {
  let withNumber = first;
  for (let n = node; n.children.length > 0; n = n.children[0]) {
    const next = n.children[0];
    if (next.startComment) el.append(commentSpan(next.startComment));
    el.append(moveButton(next, withNumber));
    withNumber = false;
    if (next.comment) {
      el.append(commentSpan(next.comment));
      withNumber = true;
    }
    if (n.children.length > 1) {
      const box = document.createElement(depth === 0 ? 'div' : 'span');
      box.className = depth === 0 ? 'variations' : 'variations inline';
      for (const alt of n.children.slice(1)) {
        const v = document.createElement(depth === 0 ? 'div' : 'span');
        v.className = 'variation';
        if (alt.startComment) v.append(commentSpan(alt.startComment));
        v.append(moveButton(alt, true));
        if (alt.comment) v.append(commentSpan(alt.comment));
        renderLine(alt, v, depth + 1, !!alt.comment);
        box.append(v);
      }
      el.append(box);
      withNumber = true;
    }
  }
}

function renderTree() {
  treeEl.replaceChildren();
  if (tree.root.comment) treeEl.append(commentSpan(tree.root.comment));
  renderLine(tree.root, treeEl, 0, true);
  if (tree.root.children.length === 0) {
    const p = document.createElement('p');
    p.className = 'muted empty';
    p.textContent = 'Move a piece to start a line.';
    treeEl.append(p);
  }
  // The phone's row: the line through the position shown, to its end.
  rowEl.replaceChildren();
  const line = [];
  for (let x = current; x.parent; x = x.parent) line.unshift(x);
  for (let x = current; x.children.length > 0; x = x.children[0]) line.push(x.children[0]);
  line.forEach((n, i) => rowEl.append(moveButton(n, i === 0)));
  treeEl.dataset.size = String(tree.size());
  keepInView(treeEl, treeEl.querySelector('.current'));
  keepInView(rowEl, rowEl.querySelector('.current'));
}

/**
 * keepInView scrolls box, and only box (scrollIntoView would scroll the
 * page too, under a finger or a drag), so that el is inside it.
 */
function keepInView(box, el) {
  if (!el || box.clientHeight === 0) return;
  const b = box.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
  if (r.left < b.left) box.scrollLeft -= b.left - r.left + b.width / 3;
  else if (r.right > b.right) box.scrollLeft += r.right - b.right + b.width / 3;
}

for (const el of [treeEl, rowEl]) {
  el.addEventListener('click', (e) => {
    const b = e.target.closest('button.move');
    if (b) show(tree.at(b.dataset.path));
  });
}

function step(where) {
  const to = {
    first: tree.root,
    prev: current.parent || current,
    next: current.children[0] || current,
    last: current.lineEnd(),
  }[where];
  if (to && to !== current) show(to);
}
for (const b of document.querySelectorAll('[data-nav]')) b.addEventListener('click', () => step(b.dataset.nav));
document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
  const keys = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last', ArrowUp: 'first', ArrowDown: 'last' };
  if (keys[e.key]) {
    e.preventDefault();
    step(keys[e.key]);
  } else if (e.key === 'f') {
    flip();
  }
});

function flip() {
  board.setOrientation(board.orientation === 'white' ? 'black' : 'white');
}

document.querySelector('[data-action="flip"]').addEventListener('click', flip);
document.querySelector('[data-action="promote"]').addEventListener('click', () => {
  if (tree.promote(current)) {
    keep();
    renderTree();
  }
});
document.querySelector('[data-action="delete"]').addEventListener('click', () => {
  if (!current.parent) return;
  const parent = tree.remove(current);
  keep();
  show(parent);
});
document.querySelector('[data-action="clear"]').addEventListener('click', async (e) => {
  if (tree.size() > 0) {
    const host = e.currentTarget.closest('.actions');
    const yes = await askPerson(host, { question: 'Start again? This tree is lost unless saved or exported.', yes: 'Yes, start again', danger: true });
    if (!yes) return;
  }
  tree = new Tree({ fen: START, moves: [] });
  savedId = 0;
  keep();
  show(tree.root);
});
commentEl.addEventListener('input', () => {
  current.comment = commentEl.value.replace(/\s+/g, ' ').trim();
  keep();
  renderTree();
});

document.getElementById('move-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = document.getElementById('move-input');
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  ask(current, text);
});

engineOn.addEventListener('change', () => {
  if (engineOn.checked) ask(current);
  else {
    socket.send({ type: 'stop' });
    board.annotations?.setHint('');
    linesEl.replaceChildren();
    stateEl.textContent = 'Engine off.';
  }
});
function roomForLines() {
  linesEl.style.setProperty('--pv', multipvEl.value);
}
roomForLines();
multipvEl.addEventListener('change', () => { roomForLines(); ask(current); });
// The engine stops while the page is hidden and resumes when it is back.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') socket.send({ type: 'stop' });
  else ask(current);
});

/** post sends fields as a form and returns {ok, status, body}. */
async function post(url, fields) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const r = await fetch(url, { method: 'POST', body: form, credentials: 'same-origin' });
  return { ok: r.ok, status: r.status, body: await r.text() };
}

document.getElementById('import-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const errEl = document.getElementById('import-error');
  const noteEl = document.getElementById('import-note');
  errEl.hidden = true;
  noteEl.hidden = true;
  const r = await post('/analysis/import', { text: document.getElementById('import-text').value });
  let body;
  try { body = JSON.parse(r.body); } catch { body = { error: r.body }; }
  if (!r.ok) {
    errEl.textContent = body.line ? `Line ${body.line}, column ${body.col}: ${body.error}` : body.error;
    errEl.hidden = false;
    return;
  }
  tree = new Tree(body);
  savedId = 0;
  keep();
  show(tree.root);
  document.getElementById('import-box').open = false;
  if (body.games > 1) {
    noteEl.textContent = `The PGN holds ${body.games} games: the first is on the board. Import the others one at a time.`;
    noteEl.hidden = false;
  }
});

document.getElementById('export-btn').addEventListener('click', async () => {
  const out = document.getElementById('export-text');
  const r = await post('/analysis/export', { study: JSON.stringify(tree.study()) });
  if (!r.ok) {
    let body;
    try { body = JSON.parse(r.body); } catch { body = { error: r.body }; }
    out.value = body.error;
    return;
  }
  out.value = r.body;
  const a = document.getElementById('export-download');
  a.href = URL.createObjectURL(new Blob([r.body], { type: 'application/x-chess-pgn' }));
  a.hidden = false;
});

document.getElementById('save-form')?.addEventListener('submit', async (e) => {
  e.preventDefault();
  const st = document.getElementById('save-state');
  st.textContent = 'Saving…';
  const r = await post('/analysis/saved', { study: JSON.stringify(tree.study()), name: document.getElementById('save-name').value, id: String(savedId) });
  let body;
  try { body = JSON.parse(r.body); } catch { body = { error: r.body }; }
  if (!r.ok) {
    st.textContent = body.error;
    return;
  }
  savedId = body.id;
  history.replaceState(null, '', body.url);
  st.textContent = 'Saved.';
});

show(current, { send: false });
socket.connect();
