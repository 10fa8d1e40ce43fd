// position.js reads, writes and checks the start positions the board
// editor makes: FEN in, FEN out, and in words what keeps a position from
// being played. It has no DOM. The server (game.ParseFEN) stays the judge;
// these checks are the same rules, said before the form is sent, so a
// person sees at once why a position cannot start. Checkmate and
// stalemate need the move generator and are left to the server.

const FILES = 'abcdefgh';
const COLOR = { w: 'White', b: 'Black' };
const NAMES = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };

/** START is the normal start position's FEN. */
export const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/**
 * CASTLING lists the four rights with the squares their king and rook
 * stand on in standard chess, and words for them.
 */
export const CASTLING = [
  { right: 'K', king: 'e1', rook: 'h1', color: 'w', words: 'White O-O' },
  { right: 'Q', king: 'e1', rook: 'a1', color: 'w', words: 'White O-O-O' },
  { right: 'k', king: 'e8', rook: 'h8', color: 'b', words: 'Black O-O' },
  { right: 'q', king: 'e8', rook: 'a8', color: 'b', words: 'Black O-O-O' },
];

/** pieceName is "white knight" for wN. */
export function pieceName(code) {
  return `${COLOR[code[0]].toLowerCase()} ${NAMES[code[1]]}`;
}

/**
 * A position: board (Map square -> code such as wK), turn ('w' | 'b'),
 * castling (a string of the rights among KQkq, in that order), ep ('-' or
 * a square), halfmove and fullmove counters.
 *
 * parseFEN returns {pos} or {error} naming the field at fault; it checks
 * only the form of the FEN (problems() checks the position).
 */
export function parseFEN(text) {
  const fields = (text || '').trim().split(/\s+/);
  if (fields.length < 4 || fields.length > 6) {
    return { error: `A FEN has 6 fields separated by spaces (4 at least); this has ${fields[0] === '' ? 0 : fields.length}.` };
  }
  const ranks = fields[0].split('/');
  if (ranks.length !== 8) return { error: `Piece placement: want 8 ranks separated by "/", got ${ranks.length}.` };
  const board = new Map();
  for (let i = 0; i < 8; i++) {
    const rank = 8 - i;
    let file = 0;
    for (const c of ranks[i]) {
      if (c >= '1' && c <= '8') {
        file += Number(c);
      } else if ('KQRBNPkqrbnp'.includes(c)) {
        if (file < 8) board.set(FILES[file] + rank, (c === c.toUpperCase() ? 'w' : 'b') + c.toUpperCase());
        file++;
      } else {
        return { error: `Piece placement: "${c}" on rank ${rank} is not a piece letter (KQRBNP, kqrbnp) or a count of empty squares.` };
      }
      if (file > 8) return { error: `Piece placement: rank ${rank} has more than 8 squares.` };
    }
    if (file !== 8) return { error: `Piece placement: rank ${rank} has ${file} squares, want 8.` };
  }
  const turn = fields[1];
  if (turn !== 'w' && turn !== 'b') return { error: `Side to move: want "w" or "b", got "${turn}".` };
  let castling = '';
  if (fields[2] !== '-') {
    for (const c of fields[2]) {
      if (!'KQkq'.includes(c)) return { error: `Castling: "${c}" is not one of K, Q, k, q (Chess960 castling is for Chess960 games).` };
      if (castling.includes(c)) return { error: `Castling: "${c}" is given twice.` };
      castling += c;
    }
  }
  const ep = fields[3];
  if (ep !== '-' && !/^[a-h][36]$/.test(ep)) return { error: `En passant: "${ep}" is not "-" or a square on the 3rd or 6th rank.` };
  const count = (s, min, what) => (/^\d+$/.test(s) && Number(s) >= min ? Number(s) : new Error(`${what}: want a whole number from ${min}, got "${s}".`));
  const halfmove = fields.length > 4 ? count(fields[4], 0, 'Halfmove clock') : 0;
  if (halfmove instanceof Error) return { error: halfmove.message };
  const fullmove = fields.length > 5 ? count(fields[5], 1, 'Move number') : 1;
  if (fullmove instanceof Error) return { error: fullmove.message };
  return { pos: { board, turn, castling: ordered(castling), ep, halfmove, fullmove } };
}

function ordered(rights) {
  return [...'KQkq'].filter((c) => rights.includes(c)).join('');
}

/** toFEN writes a position as FEN. */
export function toFEN(pos) {
  const rows = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (const f of FILES) {
      const code = pos.board.get(f + rank);
      if (!code) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += code[0] === 'w' ? code[1] : code[1].toLowerCase();
    }
    rows.push(row + (empty ? empty : ''));
  }
  return `${rows.join('/')} ${pos.turn} ${pos.castling || '-'} ${pos.ep} ${pos.halfmove} ${pos.fullmove}`;
}

/** castlingPossible tells whether king and rook stand where right needs them. */
export function castlingPossible(board, right) {
  const c = CASTLING.find((x) => x.right === right);
  return !!c && board.get(c.king) === c.color + 'K' && board.get(c.rook) === c.color + 'R';
}

/**
 * epSquares lists the squares the side to move could capture en passant
 * on, were the pawn in front of each one just pushed two squares: an
 * enemy pawn on the 5th (4th) rank with both squares behind it empty.
 */
export function epSquares(board, turn) {
  const them = turn === 'w' ? 'b' : 'w';
  const [pawnRank, epRank, fromRank] = turn === 'w' ? [5, 6, 7] : [4, 3, 2];
  const out = [];
  for (const f of FILES) {
    if (board.get(f + pawnRank) === them + 'P' && !board.has(f + epRank) && !board.has(f + fromRank)) out.push(f + epRank);
  }
  return out;
}

/** attackers counts the pieces of color by that attack square sq. */
export function attackers(board, sq, by) {
  const f = FILES.indexOf(sq[0]);
  const r = Number(sq[1]);
  const at = (df, dr) => {
    const ff = f + df;
    const rr = r + dr;
    return ff >= 0 && ff < 8 && rr >= 1 && rr <= 8 ? board.get(FILES[ff] + rr) || '' : null;
  };
  let n = 0;
  const pawnDir = by === 'w' ? -1 : 1; // a white pawn attacks from the rank below
  for (const df of [-1, 1]) if (at(df, pawnDir) === by + 'P') n++;
  for (const [df, dr] of [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]]) if (at(df, dr) === by + 'N') n++;
  for (let df = -1; df <= 1; df++) for (let dr = -1; dr <= 1; dr++) if ((df || dr) && at(df, dr) === by + 'K') n++;
  const slide = (dirs, kinds) => {
    for (const [df, dr] of dirs) {
      for (let k = 1; ; k++) {
        const p = at(df * k, dr * k);
        if (p === null) break;
        if (p === '') continue;
        if (p[0] === by && kinds.includes(p[1])) n++;
        break;
      }
    }
  };
  slide([[1, 0], [-1, 0], [0, 1], [0, -1]], 'RQ');
  slide([[1, 1], [1, -1], [-1, 1], [-1, -1]], 'BQ');
  return n;
}

/**
 * problems lists, in words, what keeps pos from being a position a game
 * can start from (the rules game.ParseFEN applies); empty when none does.
 */
export function problems(pos) {
  const out = [];
  const kings = {};
  for (const c of ['w', 'b']) {
    const mine = [...pos.board].filter(([, code]) => code[0] === c);
    const k = mine.filter(([, code]) => code[1] === 'K');
    kings[c] = k.length === 1 ? k[0][0] : '';
    if (k.length === 0) out.push(`${COLOR[c]} has no king: each side needs exactly one.`);
    if (k.length > 1) out.push(`${COLOR[c]} has ${k.length} kings: each side has exactly one.`);
    if (mine.length > 16) out.push(`${COLOR[c]} has ${mine.length} pieces: at most 16.`);
    const pawns = mine.filter(([, code]) => code[1] === 'P').length;
    if (pawns > 8) out.push(`${COLOR[c]} has ${pawns} pawns: at most 8.`);
  }
  const stuck = [...pos.board].filter(([sq, code]) => code[1] === 'P' && (sq[1] === '1' || sq[1] === '8')).map(([sq]) => sq);
  if (stuck.length) out.push(`A pawn stands on ${stuck.join(', ')}: pawns never stand on the first or last rank.`);
  for (const ch of pos.castling) {
    const c = CASTLING.find((x) => x.right === ch);
    if (!castlingPossible(pos.board, ch)) out.push(`${c.words} castling needs the ${COLOR[c.color].toLowerCase()} king on ${c.king} and a rook on ${c.rook}.`);
  }
  if (pos.ep !== '-' && !epSquares(pos.board, pos.turn).includes(pos.ep)) {
    const them = pos.turn === 'w' ? 'black' : 'white';
    out.push(`En passant on ${pos.ep} is impossible: no ${them} pawn can just have moved two squares past it${pos.ep[1] === (pos.turn === 'w' ? '6' : '3') ? '' : ` (with ${COLOR[pos.turn]} to move it is on the ${pos.turn === 'w' ? '6th' : '3rd'} rank)`}.`);
  }
  const other = pos.turn === 'w' ? 'b' : 'w';
  if (kings.w && kings.b) {
    if (attackers(pos.board, kings[other], pos.turn) > 0) {
      out.push(`The ${COLOR[other].toLowerCase()} king is in check with ${COLOR[pos.turn]} to move: the side that has just moved cannot be in check.`);
    }
    const checks = attackers(pos.board, kings[pos.turn], other);
    if (checks > 2) out.push(`The ${COLOR[pos.turn].toLowerCase()} king is attacked ${checks} times: no move gives more than a double check.`);
  }
  return out;
}
