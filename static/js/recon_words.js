// recon_words.js holds what the Reconnaissance Chess game page and the
// replay viewer share: a player's memory of enemy pieces from their own
// senses, and the sentences that describe senses, moves and endings.

const NAMES = { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen', K: 'king' };

/** pieceName turns a code such as "bN" into "knight" ("" for none). */
export function pieceName(code) {
  return code && code.length === 2 ? NAMES[code[1]] || '' : '';
}

function colorWord(code) { return code[0] === 'w' ? 'white' : 'black'; }

/**
 * reconMemory returns the enemy pieces a player has seen, as a Map of
 * square -> {code, seen, age}: "now" for those the current turn's sense
 * showed, "old" for those remembered from earlier turns (age in turns).
 * A later look at a square (empty, or the player's own piece, or the
 * player's capture there) replaces what was remembered.
 * state needs human, phase, pieces and turns (as in recon_state).
 */
export function reconMemory(state) {
  const mine = state.human === 'black' ? 'b' : 'w';
  const known = new Map(); // square -> {code, turn}
  const turns = state.turns || [];
  turns.forEach((t, i) => {
    for (const sp of t.senseResult || []) known.set(sp.square, { code: sp.piece, turn: i });
    if (t.moved && t.taken) {
      known.set(t.taken.slice(2, 4), { code: '', turn: i });
      if (t.capture) known.set(t.capture, { code: '', turn: i });
    }
  });
  const cur = turns.length - 1;
  const live = state.phase === 'sense' || state.phase === 'move';
  const out = new Map();
  for (const [sq, k] of known) {
    if (!k.code || k.code[0] === mine || (state.pieces && state.pieces[sq])) continue;
    const now = live && k.turn === cur;
    out.set(sq, { code: k.code, seen: now ? 'now' : 'old', age: cur - k.turn });
  }
  return out;
}

/** describeSense says what a turn's sense showed. */
export function describeSense(t) {
  if (!t.sensed) return '';
  if (!t.sense) return 'You did not sense this turn.';
  const seen = t.senseResult.filter((s) => s.piece);
  const empty = t.senseResult.length - seen.length;
  const parts = seen.map((s) => `${colorWord(s.piece)} ${pieceName(s.piece)} on ${s.square}`);
  let text = `You sensed around ${t.sense}: `;
  text += parts.length ? parts.join(', ') : 'nothing';
  if (empty) text += `; ${empty} square${empty === 1 ? '' : 's'} empty`;
  return text + '.';
}

/** describeMove says what became of a turn's move. */
export function describeMove(t) {
  if (!t.moved) return '';
  let text;
  if (t.requested === 'pass') text = 'You passed.';
  else if (!t.taken) text = `You asked for ${t.requested}; it was not possible, so nothing moved.`;
  else if (t.taken !== t.requested) text = `You asked for ${t.requested}; the move taken was ${t.taken}.`;
  else text = `You played ${t.taken}.`;
  if (t.capture) text += ` You captured a piece on ${t.capture}.`;
  return text;
}

/** reasonWords explains a win reason (the reference's names). */
export function reasonWords(reason, won) {
  switch (reason) {
    case 'KING_CAPTURE': return won ? 'you captured the king' : 'your king was captured';
    case 'TIMEOUT': return won ? "the opponent's time ran out" : 'your time ran out';
    case 'RESIGN': return won ? 'the opponent resigned' : 'you resigned';
    case 'TURN_LIMIT': return 'the turn limit was reached';
    case 'MOVE_LIMIT': return '50 moves each passed without a capture or a pawn move';
    default: return 'the game ended';
  }
}
