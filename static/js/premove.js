// premove.js: what the person may queue during the engine's turn. Like
// lichess, a premove is any move a piece could make geometrically (sliders
// ignore what stands in between, pawns may aim at both diagonals, targets
// may hold one's own pieces, which may be gone by then); whether it is
// really legal is asked of the server's list only once the engine has
// moved (see game.js).

const FILES = 'abcdefgh';

const ROOK = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const BISHOP = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];

function name(f, r) {
  return f >= 0 && f < 8 && r >= 1 && r <= 8 ? FILES[f] + r : '';
}

/** targets lists the squares a piece of code (wP, bN...) on sq could aim at. */
export function targets(code, sq) {
  const f = FILES.indexOf(sq[0]);
  const r = Number(sq[1]);
  const out = [];
  const add = (ff, rr) => { const n = name(ff, rr); if (n) out.push(n); };
  const slide = (dirs) => {
    for (const [df, dr] of dirs) for (let i = 1; i < 8; i++) add(f + df * i, r + dr * i);
  };
  const white = code[0] === 'w';
  switch (code[1]) {
    case 'P': {
      const up = white ? 1 : -1;
      add(f, r + up);
      if (r === (white ? 2 : 7)) add(f, r + 2 * up);
      add(f - 1, r + up);
      add(f + 1, r + up);
      break;
    }
    case 'N':
      for (const [df, dr] of KNIGHT) add(f + df, r + dr);
      break;
    case 'B': slide(BISHOP); break;
    case 'R': slide(ROOK); break;
    case 'Q': slide(ROOK); slide(BISHOP); break;
    case 'K':
      for (const [df, dr] of [...ROOK, ...BISHOP]) add(f + df, r + dr);
      // Castling from the home square: the king's two destinations and the
      // rooks' corners (where the server offers king-takes-rook too).
      if (sq === (white ? 'e1' : 'e8')) for (const t of ['a', 'c', 'g', 'h']) add(FILES.indexOf(t), r);
      break;
    default:
      break;
  }
  return out;
}

/** premoveDests maps each of color's pieces to the squares it may premove to. */
export function premoveDests(pieces, color) {
  const out = new Map();
  for (const [sq, code] of pieces) {
    if (code[0] !== color) continue;
    const t = targets(code, sq);
    if (t.length) out.set(sq, new Set(t));
  }
  return out;
}

/**
 * premoveMove is the server's legal move matching a premove in the new
 * position (a promotion premove becomes a queen), or null when it is not
 * legal there.
 */
export function premoveMove(legal, pm) {
  const options = (legal || []).filter((m) => m.from === pm.from && m.to === pm.to);
  if (!options.length) return null;
  return options.find((m) => m.promotion === 'q') || options[0];
}
