// panel.js fills the side panel: players, captured pieces, clocks and the
// move list, plus the words used for announcements and the game-over dialog.

import { pieceURL } from './board.js';
import { MoveScroll } from './move_scroll.js';

const NAMES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };
const VALUES = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };

/** REASONS turns the server's reason codes into words. */
export const REASONS = {
  checkmate: 'Checkmate',
  stalemate: 'Stalemate',
  'insufficient material': 'Insufficient material',
  'seventy-five-move rule': 'Seventy-five moves without a capture or pawn move',
  'fivefold repetition': 'Fivefold repetition',
  'fifty-move rule': 'Fifty moves without a capture or pawn move',
  'threefold repetition': 'Threefold repetition',
  resignation: 'Resignation',
  'time forfeit': 'Time forfeit',
  'draw by agreement': 'Draw agreed',
};

/** resultWords says who won: "White wins", "Draw". */
export function resultWords(result) {
  if (result === '1-0') return 'White wins';
  if (result === '0-1') return 'Black wins';
  if (result === '1/2-1/2') return 'Draw';
  return 'Game over';
}

/** reasonWords describes how the game ended, for people. */
export function reasonWords(state) {
  if (state.reason === 'resignation') return `${state.result === '1-0' ? 'Black' : 'White'} resigned`;
  if (state.reason === 'time forfeit') {
    const flagged = state.turn === 'white' ? 'White' : 'Black';
    return state.result === '1/2-1/2' ? `${flagged} ran out of time, but the other side cannot mate` : `${flagged} ran out of time`;
  }
  return REASONS[state.reason] || state.reason || '';
}

/**
 * sanWords says a SAN move in words for the screen reader:
 * "Nxf3+" -> "knight takes f3, check".
 */
export function sanWords(san) {
  if (!san) return '';
  let s = san.replace(/[!?]+$/, '');
  let suffix = '';
  if (s.endsWith('#')) { suffix = ', checkmate'; s = s.slice(0, -1); } else if (s.endsWith('+')) { suffix = ', check'; s = s.slice(0, -1); }
  if (s === 'O-O' || s === '0-0') return 'castles kingside' + suffix;
  if (s === 'O-O-O' || s === '0-0-0') return 'castles queenside' + suffix;
  let promo = '';
  const pm = s.match(/=?([QRBN])$/);
  if (pm && /[1-8]=?[QRBN]$/.test(s)) { promo = `, promotes to ${NAMES[pm[1].toLowerCase()]}`; s = s.replace(/=?[QRBN]$/, ''); }
  const piece = /^[KQRBN]/.test(s) ? NAMES[s[0].toLowerCase()] : 'pawn';
  const body = /^[KQRBN]/.test(s) ? s.slice(1) : s;
  const to = body.slice(-2);
  const capture = body.includes('x');
  return `${piece} ${capture ? 'takes' : 'to'} ${to}${promo}${suffix}`;
}

/** Panel renders everything beside the board from the state. */
export class Panel {
  constructor(root, { onPick }) {
    this.moves = root.querySelector('#moves');
    this.top = root.querySelector('#player-top');
    this.bottom = root.querySelector('#player-bottom');
    this.status = root.querySelector('#status-line');
    this.turn = this.status.querySelector('[data-turn-words]'); // whose move, check, the result
    this.msg = this.status.querySelector('[data-status-msg]'); // notices and refusals
    this.backLive = root.querySelector('#back-live');
    this.opening = root.querySelector('#opening-line'); // the opening at the shown ply
    this.clockBase = null; // {white, black, running, at}
    this.tick = 0;
    this.moves.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-ply]');
      if (!b) return;
      onPick(Number(b.dataset.ply));
      // A tap says what the tooltip says: phones have no hover.
      if (b.dataset.experience) this.say(b.dataset.experience);
    });
    this.scroll = new MoveScroll(this.moves);
    this.shownPly = null; // the ply the list last marked
    this.livePly = null; // the game's ply then
  }

  /** players fills names, captures and material for the given orientation. */
  players(state, orientation) {
    const bottomColor = orientation;
    const topColor = orientation === 'white' ? 'black' : 'white';
    for (const [el, color] of [[this.top, topColor], [this.bottom, bottomColor]]) {
      el.dataset.color = color;
      const you = color === state.human;
      el.querySelector('.name').textContent = you ? `You (${color})` : `Knightwatch level ${state.level}${state.levelName ? ' · ' + state.levelName : ''}`;
      el.querySelector('.thinking').classList.toggle('on', !!(state.thinking && !you));
      const caps = el.querySelector('.captures');
      caps.textContent = '';
      const taken = [...((state.captured || {})[color] || [])];
      taken.sort((a, b) => VALUES[a.toLowerCase()] - VALUES[b.toLowerCase()]);
      let prev = '';
      for (const p of taken) {
        const img = document.createElement('img');
        const lower = p.toLowerCase();
        img.src = pieceURL((p === lower ? 'b' : 'w') + p.toUpperCase());
        img.alt = NAMES[lower] || p;
        if (lower === prev) img.className = 'same'; // drawn overlapping the one before
        prev = lower;
        caps.append(img);
      }
      const adv = color === 'white' ? state.material : -state.material;
      if (adv > 0) {
        const s = document.createElement('span');
        s.className = 'adv';
        s.textContent = `+${adv}`;
        s.title = `${color} is ${adv} ahead in material`;
        caps.append(s);
      }
      const clock = el.querySelector('.clock');
      clock.hidden = !state.clock;
      clock.dataset.clock = color;
      if (state.clock) clock.setAttribute('aria-label', `${color} clock`);
    }
  }

  /** setClock starts counting down locally from the server's figures. */
  setClock(clock, over) {
    clearInterval(this.tick);
    if (!clock) { this.clockBase = null; return; }
    this.clockBase = { white: clock.white, black: clock.black, running: over ? '' : clock.running, at: performance.now() };
    this.drawClocks();
    if (this.clockBase.running) this.tick = setInterval(() => this.drawClocks(), 100);
  }

  /**
   * freezeClocks stops the local countdown where it is, while the server
   * cannot be reached: its clock is the truth, and the next state (sent on
   * reconnecting) sets the clocks again. Counting on would show time the
   * server may not charge, and the figure would jump back later.
   */
  freezeClocks() {
    clearInterval(this.tick);
    const c = this.clockBase;
    if (!c || c.frozen) return;
    const spent = performance.now() - c.at;
    if (c.running) c[c.running] = Math.max(0, c[c.running] - spent);
    c.at = performance.now();
    c.frozen = true;
    this.drawClocks();
  }

  drawClocks() {
    const c = this.clockBase;
    if (!c) return;
    const spent = c.frozen ? 0 : performance.now() - c.at;
    for (const color of ['white', 'black']) {
      const el = document.querySelector(`.clock[data-clock="${color}"]`);
      if (!el) continue;
      const ms = Math.max(0, c[color] - (c.running === color ? spent : 0));
      el.textContent = formatClock(ms);
      el.classList.toggle('running', c.running === color);
      el.classList.toggle('low', ms < 20000);
    }
  }

  /** list redraws the move list, marking the shown ply. */
  list(state, shownPly) {
    const key = state.moves.map((m) => m.san + (m.experience ? '*' : '')).join(' ') + '|' + state.startFen;
    if (key !== this.renderKey) {
      this.renderKey = key;
      // Drawn afresh: keep where the person had scrolled.
      const kept = [this.moves.scrollTop, this.moves.scrollLeft];
      this.moves.textContent = '';
      const [, side, , , , full] = (state.startFen || '').split(' ');
      let number = Number(full) || 1;
      const blackFirst = side === 'b';
      let li = null;
      state.moves.forEach((m, i) => {
        const ply = i + 1;
        const isBlackMove = blackFirst ? (i % 2 === 0) : (i % 2 === 1);
        if (!isBlackMove || i === 0) {
          li = document.createElement('li');
          const n = document.createElement('span');
          n.className = 'num';
          n.textContent = `${number}.`;
          li.append(n);
          if (isBlackMove) {
            const e = document.createElement('span');
            e.className = 'empty';
            e.textContent = '…';
            li.append(e);
          }
          this.moves.append(li);
        }
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.ply = String(ply);
        b.textContent = m.san;
        let label = `${number}${isBlackMove ? '…' : '.'} ${isBlackMove ? 'Black' : 'White'}: ${sanWords(m.san)}`;
        if (m.experience) {
          // The engine chose this move from experience: a mark, and the
          // server's sentence as the tooltip and in the spoken label.
          const x = document.createElement('span');
          x.className = 'xp-mark';
          x.setAttribute('aria-hidden', 'true');
          x.textContent = '↺';
          b.append(x);
          b.title = m.experience;
          b.dataset.experience = m.experience;
          label += `. ${m.experience}`;
        }
        b.setAttribute('aria-label', label);
        li.append(b);
        if (isBlackMove) number++;
      });
      [this.moves.scrollTop, this.moves.scrollLeft] = kept;
    }
    for (const b of this.moves.querySelectorAll('button[data-ply]')) {
      const cur = Number(b.dataset.ply) === shownPly;
      b.classList.toggle('current', cur);
      if (cur) b.setAttribute('aria-current', 'step'); else b.removeAttribute('aria-current');
    }
    const live = shownPly === state.ply;
    const wentLive = live && this.shownPly !== null && this.shownPly !== this.livePly;
    this.shownPly = shownPly;
    this.livePly = state.ply;
    this.scroll.show(this.moves.querySelector('button.current'), live, wentLive);
    this.backLive.hidden = shownPly === state.ply;
    // A finished game has no live play to go back to: its end.
    const back = state.status === 'over' ? 'Reviewing an earlier position · back to the end' : 'Reviewing an earlier position · back to live';
    if (this.backLive.textContent !== back) this.backLive.textContent = back;
    this.showOpening(state, shownPly);
  }

  /**
   * showOpening names the opening at the shown ply ("B20 Sicilian Defense"),
   * the latest named position at or before it; hidden in Chess960, whose
   * positions have no names.
   */
  showOpening(state, shownPly) {
    const el = this.opening;
    if (!el) return;
    el.hidden = state.variant === 'chess960';
    const o = openingAt(state.openings, shownPly);
    const key = o ? `${o.eco} ${o.name}` : '';
    if (el.dataset.opening === key) return;
    el.dataset.opening = key;
    el.textContent = '';
    el.title = o ? `Opening: ${key}` : 'Opening (ECO code and name)';
    if (!o) return;
    const eco = document.createElement('span');
    eco.className = 'eco';
    eco.textContent = o.eco;
    el.append(eco, ' ' + o.name);
  }

  /** toEnd shows the list's last move and has it follow the game again. */
  toEnd() {
    this.scroll.toEnd();
  }

  /** say shows a short message in the status line; error messages are red. */
  say(text, isError) {
    this.msg.textContent = text;
    this.msg.classList.toggle('error', !!isError);
    this.sayTitle();
  }

  /** message is the status line's current message (not the turn words). */
  message() {
    return this.msg.textContent;
  }

  /** isError says whether the current message is a refusal. */
  isError() {
    return this.msg.classList.contains('error');
  }

  /** turnWords sets the status line's standing words: whose move, check, the result. */
  turnWords(text) {
    if (this.turn.textContent !== text) this.turn.textContent = text;
    this.sayTitle();
  }

  // sayTitle puts the status line's whole text in its tooltip: the line
  // keeps a fixed height (two lines), so a long message may be cut.
  sayTitle() {
    this.status.title = this.status.textContent;
  }
}

/**
 * openingAt is the opening at ply from the state's openings list (sorted by
 * ply): the last entry at or before it, or null before the first.
 */
export function openingAt(openings, ply) {
  let found = null;
  for (const o of openings || []) {
    if (o.ply > ply) break;
    found = o;
  }
  return found;
}

/** formatClock: 5:03 normally, 0:09.4 in the last ten seconds. */
export function formatClock(ms) {
  const t = Math.max(0, ms);
  const s = Math.floor(t / 1000);
  const m = Math.floor(s / 60);
  const sec = String(s % 60).padStart(2, '0');
  if (t < 10000) return `${m}:${sec}.${Math.floor((t % 1000) / 100)}`;
  if (m >= 60) return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${sec}`;
  return `${m}:${sec}`;
}

/**
 * turnWords says where the live game stands, for the status line: "Your
 * move", "Knightwatch is thinking", "Check · Your move", or the result
 * ("White wins · Checkmate") once it is over.
 */
export function turnWords(state) {
  if (state.status === 'over') return endWords(state);
  const check = state.check ? 'Check · ' : '';
  if (state.turn === state.human) return `${check}Your move`;
  return check + (state.thinking ? 'Knightwatch is thinking' : "Knightwatch's move");
}

/** endWords is the one-line verdict: "Black wins · White resigned", "Draw by agreement". */
export function endWords(state) {
  const reason = reasonWords(state);
  if (state.reason === 'draw by agreement') return 'Draw by agreement';
  return reason ? `${resultWords(state.result)} · ${reason}` : resultWords(state.result);
}

/**
 * tablebaseWords says a tablebase entry in White/Black words. Its Syzygy
 * part ({wdl, dtz} from the side to move's point of view, dtz in plies)
 * reads "Tablebase: White wins · 12 plies to a capture or pawn move",
 * "Tablebase: draw", "Tablebase: Black wins (drawn by the fifty-move rule)
 * · …"; its Gaviota part (mate: the server's words for the distance to
 * mate, "White mates in 15") follows it, or stands alone when the Syzygy
 * tables do not hold the position ("Tablebase: White mates in 15").
 * toMove is 'white' or 'black'; mated says the side to move is
 * checkmated (no distance then: "… wins · checkmate").
 */
export function tablebaseWords(entry, toMove, mated) {
  const mover = toMove === 'black' ? 'Black' : 'White';
  const other = mover === 'White' ? 'Black' : 'White';
  const syzygy = Number.isInteger(entry.wdl) && Number.isInteger(entry.dtz);
  const mate = typeof entry.mate === 'string' && Number.isInteger(entry.dtm) && entry.dtm !== 0 ? entry.mate : '';
  if (mated) return `Tablebase: ${other} wins · checkmate`;
  if (!syzygy) return mate ? `Tablebase: ${mate}` : 'Tablebase: draw';
  if (entry.wdl === 0) return 'Tablebase: draw';
  let s = `Tablebase: ${entry.wdl > 0 ? mover : other} wins`;
  if (Math.abs(entry.wdl) === 1) s += ' (drawn by the fifty-move rule)';
  const n = Math.abs(entry.dtz);
  if (n > 0) s += ` · ${n} ${n === 1 ? 'ply' : 'plies'} to a capture or pawn move`;
  if (mate) s += ` · ${mate}`;
  return s;
}
