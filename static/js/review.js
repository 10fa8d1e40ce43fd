// review.js shows the engine's review of a finished game, from the
// server's analysis messages (web/PROTOCOL.md): while it is queued or
// running, where it stands in words; once done, an evaluation graph over
// the moves (hand-written SVG; a click or tap on it goes to that move),
// each move's verdict in the move list (?! ? ??), the best move where a
// move lost a lot (in words, and as an arrow on the board) and each side's
// accuracy with its counts. The game and watch pages share it.

const SVG = 'http://www.w3.org/2000/svg';

/** JUDGEMENTS are the verdicts as lichess shows them. */
export const JUDGEMENTS = {
  inaccuracy: { glyph: '?!', word: 'Inaccuracy', plural: 'Inaccuracies' },
  mistake: { glyph: '?', word: 'Mistake', plural: 'Mistakes' },
  blunder: { glyph: '??', word: 'Blunder', plural: 'Blunders' },
};

/** statusWords says where a review that is not done stands. */
export function statusWords(msg) {
  if (!msg) return '';
  switch (msg.status) {
    case 'queued': return msg.queue > 0 ? `Analysis: queued (position ${msg.queue} in line)` : 'Analysis: queued';
    case 'running': return `Analysing… ${Math.max(0, Math.min(100, msg.progress | 0))}%`;
    case 'failed': return 'Analysis: this game could not be analysed.';
    default: return '';
  }
}

/** evalWords writes an evaluation from White's point of view: +0.35, −1.20, #3, #-2, or Checkmate. */
export function evalWords(p) {
  if (!p) return '';
  if (p.mated) return 'Checkmate';
  if (p.mate) return `#${p.mate}`;
  const v = (p.cp || 0) / 100;
  return (v > 0 ? '+' : v < 0 ? '−' : '') + Math.abs(v).toFixed(2);
}

/** Review renders the review box, the move list's marks and the board's hint arrow. */
export class Review {
  /**
   * @param root the page's main element
   * @param opts onPick(ply) goes to a move; board is the Board (its
   *   annotations draw the hint arrow); names(color) names a side.
   */
  constructor(root, { onPick, board, names }) {
    this.box = root.querySelector('#review');
    this.statusEl = root.querySelector('#review-status');
    this.graphEl = root.querySelector('#eval-graph');
    this.tableEl = root.querySelector('#review-summary');
    this.adviceEl = root.querySelector('#review-advice');
    this.moves = root.querySelector('#moves');
    this.learnEl = root.querySelector('#learn-link'); // the game page's, once reviewed
    this.onPick = onPick;
    this.board = board;
    this.names = names;
    this.msg = null; // the latest analysis message
    this.state = null;
    this.shown = 0;
    this.drawn = ''; // what the graph shows: width, plies
    this.marked = ''; // what the move list's marks show
    this.summed = null; // the message the summary was made from
    if (this.graphEl) {
      let pressed = false;
      const pick = (e) => {
        const svg = this.graphEl.querySelector('svg');
        const n = this.done() ? this.msg.plies.length : 0;
        if (!svg || n === 0) return;
        const r = svg.getBoundingClientRect();
        const g = this.geometry(r.width, r.height, n);
        const i = Math.round((e.clientX - r.left - g.pad) / g.step);
        this.onPick(Math.max(0, Math.min(n - 1, i)));
      };
      this.graphEl.addEventListener('pointerdown', (e) => {
        if (e.button !== 0) return;
        pressed = true;
        this.graphEl.setPointerCapture?.(e.pointerId);
        pick(e);
      });
      this.graphEl.addEventListener('pointermove', (e) => { if (pressed) pick(e); });
      const up = () => { pressed = false; };
      this.graphEl.addEventListener('pointerup', up);
      this.graphEl.addEventListener('pointercancel', up);
      if (typeof ResizeObserver === 'function') {
        new ResizeObserver(() => { if (this.state) this.render(this.state, this.shown); }).observe(this.graphEl);
      }
    }
  }

  /** update keeps an analysis message; render shows it. */
  update(msg) {
    if (msg && typeof msg.status === 'string') this.msg = msg;
  }

  /** done says whether the review is complete for the game as it stands. */
  done() {
    const m = this.msg;
    return !!(m && m.status === 'done' && Array.isArray(m.plies) && this.state &&
      m.plies.length === this.state.moves.length + 1);
  }

  /** render shows the review for the game state with ply shown on the board. */
  render(state, shown) {
    this.state = state;
    this.shown = shown;
    if (!this.box) return;
    const m = state && state.status === 'over' ? this.msg : null;
    const done = this.done() && !!m;
    this.box.hidden = !m;
    this.box.dataset.status = m ? m.status : '';
    this.statusEl.textContent = m && !done ? statusWords(m) : '';
    this.statusEl.hidden = !m || done;
    this.graphEl.hidden = !done;
    this.tableEl.hidden = !done;
    this.adviceEl.hidden = !done;
    this.mark(done);
    if (this.learnEl) this.learnEl.hidden = !(done && this.playerErred());
    if (!done) {
      this.drawn = '';
      this.summed = null;
      this.graphEl.textContent = '';
      this.board.annotations?.setHint('');
      return;
    }
    this.graph(shown);
    this.summary();
    this.advice(shown);
  }

  /** playerErred says whether the review judged a move of the page's player a mistake or a blunder. */
  playerErred() {
    const human = this.state.human === 'black' ? 'b' : 'w';
    return this.state.moves.some((m, i) => {
      const j = this.msg.plies[i + 1]?.judgement;
      // The side to move after a move is not its mover.
      const mover = (m.fen || '').split(' ')[1] === 'w' ? 'b' : 'w';
      return mover === human && (j === 'mistake' || j === 'blunder');
    });
  }

  /** geometry places n points across a graph of w x h pixels. */
  geometry(w, h, n) {
    const pad = 5;
    return { pad, step: (w - 2 * pad) / Math.max(1, n - 1), w, h };
  }

  /** graph draws (or updates the cursor of) the evaluation graph. */
  graph(shown) {
    const plies = this.msg.plies;
    const w = Math.round(this.graphEl.clientWidth) || 300;
    const h = Math.round(this.graphEl.clientHeight) || 72;
    const key = `${w}x${h}|${plies.map((p) => `${p.win}${p.judgement || ''}`).join(',')}`;
    const g = this.geometry(w, h, plies.length);
    const x = (i) => (g.pad + i * g.step).toFixed(1);
    const y = (win) => (2 + (h - 4) * (1 - Math.max(0, Math.min(100, win)) / 100)).toFixed(1);
    if (key !== this.drawn) {
      this.drawn = key;
      const line = plies.map((p, i) => `${x(i)},${y(p.win)}`).join(' ');
      let html = `<rect class="graph-black" x="0" y="0" width="${w}" height="${h}"></rect>` +
        `<polygon class="graph-white" points="${x(0)},${h} ${line} ${x(plies.length - 1)},${h}"></polygon>` +
        `<line class="graph-mid" x1="0" y1="${h / 2}" x2="${w}" y2="${h / 2}"></line>` +
        `<polyline class="graph-line" points="${line}"></polyline>` +
        `<line class="graph-cursor" x1="0" y1="0" x2="0" y2="${h}"></line>`;
      plies.forEach((p, i) => {
        const j = JUDGEMENTS[p.judgement] ? p.judgement : '';
        html += `<circle class="graph-point${j ? ' j-' + j : ''}" data-ply="${i}"${j ? ` data-judgement="${j}"` : ''} cx="${x(i)}" cy="${y(p.win)}" r="${j ? 4 : 2}"></circle>`;
      });
      let svg = this.graphEl.querySelector('svg');
      if (!svg) {
        svg = document.createElementNS(SVG, 'svg');
        svg.setAttribute('role', 'img');
        svg.setAttribute('aria-label', "Evaluation graph: White's winning chances after each move (up: White better); click or tap to go to a move");
        this.graphEl.append(svg);
      }
      svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
      svg.setAttribute('width', String(w));
      svg.setAttribute('height', String(h));
      svg.dataset.points = String(plies.length);
      svg.innerHTML = html;
    }
    const cur = this.graphEl.querySelector('.graph-cursor');
    const i = Math.max(0, Math.min(plies.length - 1, shown));
    cur.setAttribute('x1', x(i));
    cur.setAttribute('x2', x(i));
    for (const c of this.graphEl.querySelectorAll('circle.current')) c.classList.remove('current');
    this.graphEl.querySelector(`circle[data-ply="${i}"]`)?.classList.add('current');
    this.graphEl.dataset.ply = String(i);
  }

  /** summary fills the accuracy table, once per review. */
  summary() {
    if (this.summed === this.msg) return;
    this.summed = this.msg;
    const body = this.tableEl.querySelector('tbody');
    body.textContent = '';
    for (const color of ['white', 'black']) {
      const s = this.msg[color] || {};
      const tr = document.createElement('tr');
      tr.dataset.side = color;
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = this.names(color);
      th.title = color === 'white' ? 'White' : 'Black';
      const acc = document.createElement('td');
      acc.className = 'accuracy';
      if (typeof s.accuracy === 'number') {
        acc.dataset.accuracy = String(s.accuracy);
        acc.textContent = `${s.accuracy.toFixed(1)}%`;
      } else {
        acc.textContent = '–';
        acc.title = 'No moves';
      }
      tr.append(th, acc);
      for (const [key, j] of [['inaccuracies', 'inaccuracy'], ['mistakes', 'mistake'], ['blunders', 'blunder']]) {
        const td = document.createElement('td');
        td.className = `count j-${j}`;
        td.dataset.count = key;
        const n = Number(s[key]) || 0;
        td.textContent = String(n);
        td.title = `${n} ${n === 1 ? JUDGEMENTS[j].word.toLowerCase() : JUDGEMENTS[j].plural.toLowerCase()}`;
        tr.append(td);
      }
      body.append(tr);
    }
  }

  /** advice says the shown position's evaluation, and for a judged move what was best. */
  advice(shown) {
    const plies = this.msg.plies;
    const i = Math.max(0, Math.min(plies.length - 1, shown));
    const p = plies[i];
    const el = this.adviceEl;
    el.textContent = '';
    el.dataset.ply = String(i);
    const ev = document.createElement('span');
    ev.className = 'eval';
    ev.textContent = evalWords(p);
    ev.title = "The engine's evaluation, from White's point of view (in pawns; #N: mate in N moves)";
    el.append(ev);
    const j = i > 0 ? JUDGEMENTS[p.judgement] : null;
    const before = i > 0 ? plies[i - 1] : null;
    delete el.dataset.best;
    delete el.dataset.judgement;
    if (j) {
      el.dataset.judgement = p.judgement;
      const v = document.createElement('span');
      v.className = `verdict j-${p.judgement}`;
      v.textContent = `${j.word} (${j.glyph})`;
      el.append(' · ', v);
      if (before && before.bestSan) {
        el.dataset.best = before.bestSan;
        const b = document.createElement('b');
        b.textContent = before.bestSan;
        el.append(' · Best was ', b);
      }
    }
    this.board.annotations?.setHint(j && before && before.best ? before.best : '');
  }

  /** mark puts each move's verdict in the move list (or takes them off). */
  mark(done) {
    const plies = done ? this.msg.plies : null;
    const key = done ? plies.map((p) => p.judgement || '').join(',') + '|' + this.state.moves.length : '';
    const buttons = this.moves ? this.moves.querySelectorAll('button[data-ply]') : [];
    // The list is rebuilt when its moves change: marks go with it.
    if (key === this.marked && [...buttons].every((b) => (b.dataset.marked === key))) return;
    this.marked = key;
    for (const b of buttons) {
      b.dataset.marked = key;
      b.querySelector('.glyph')?.remove();
      b.classList.remove('j-inaccuracy', 'j-mistake', 'j-blunder');
      delete b.dataset.judgement;
      if (b.dataset.baseLabel) b.setAttribute('aria-label', b.dataset.baseLabel);
      // A move chosen from experience keeps its sentence as the tooltip.
      const base = b.dataset.experience || '';
      if (base) b.title = base; else b.removeAttribute('title');
      const i = Number(b.dataset.ply);
      const p = plies && plies[i];
      const j = p && JUDGEMENTS[p.judgement];
      if (!j) continue;
      const best = plies[i - 1] && plies[i - 1].bestSan;
      b.dataset.judgement = p.judgement;
      b.classList.add(`j-${p.judgement}`);
      const s = document.createElement('span');
      s.className = 'glyph';
      s.textContent = j.glyph;
      s.setAttribute('aria-hidden', 'true');
      b.append(s);
      const words = `${j.word}.${best ? ` Best was ${best}.` : ''}`;
      b.title = base ? `${words} ${base}` : words;
      if (!b.dataset.baseLabel) b.dataset.baseLabel = b.getAttribute('aria-label') || b.textContent;
      b.setAttribute('aria-label', `${b.dataset.baseLabel}. ${words}`);
    }
  }
}
