// analysis_tree.js is the analysis board's tree of moves, without the DOM:
// nodes with their move (UCI and SAN), the position after it, a comment
// and the moves that may follow (the first continues the line); paths of
// child indexes ("0.1.0"); promote and delete; the JSON the server reads
// and writes (analysisboard.Study). The server is the judge of every
// move: a node is added only with what it answered.

/** Node is one move of the tree (the root has no move). */
export class Node {
  constructor(parent, data = {}) {
    this.parent = parent;
    this.uci = data.uci || '';
    this.san = data.san || '';
    this.fen = data.fen || '';
    this.comment = data.comment || '';
    this.startComment = data.startComment || '';
    this.nags = data.nags || [];
    this.children = [];
  }

  /** ply counts the moves from the root to this node. */
  get ply() {
    let n = 0;
    for (let x = this; x.parent; x = x.parent) n++;
    return n;
  }

  /**
   * from is what a request names this node by: the root's FEN and the
   * moves from it, or, past max moves, the FEN of the node max moves back
   * (the server's reply, kept on each node) and the moves since. Nothing
   * the engine needs is lost while max is at least 150: the draw rules look
   * back only to the last capture or pawn move, which that FEN's halfmove
   * clock holds unless the game is already drawn by the 75-move rule.
   */
  from(max) {
    const moves = [];
    let x = this;
    for (; x.parent && (moves.length < max || !x.fen); x = x.parent) moves.push(x.uci);
    return { fen: x.fen, moves: moves.reverse() };
  }

  /** path is this node's path of child indexes, "" for the root. */
  path() {
    const out = [];
    for (let x = this; x.parent; x = x.parent) out.push(x.parent.children.indexOf(x));
    return out.reverse().join('.');
  }

  /** lineEnd is the last node of this node's line (first children on). */
  lineEnd() {
    let x = this;
    while (x.children.length > 0) x = x.children[0];
    return x;
  }
}

/** Tree is a start position and its moves. */
export class Tree {
  /** @param {{fen: string, chess960?: boolean, comment?: string, tags?: string[][], moves?: object[]}} study */
  constructor(study) {
    this.chess960 = !!study.chess960;
    this.tags = study.tags || [];
    this.root = new Node(null, { fen: study.fen, comment: study.comment });
    const add = (parent, list) => {
      for (const d of list || []) {
        const n = new Node(parent, d);
        parent.children.push(n);
        add(n, d.children);
      }
    };
    add(this.root, study.moves);
  }

  /** at returns the node at path, or the nearest one that exists. */
  at(path) {
    let n = this.root;
    for (const part of (path || '').split('.').filter((p) => p !== '')) {
      const c = n.children[Number(part)];
      if (!c) break;
      n = c;
    }
    return n;
  }

  /**
   * add puts the move {uci, san, fen} after node, as its last variation,
   * or returns the child that already plays it.
   */
  add(node, move) {
    const same = node.children.find((c) => c.uci === move.uci);
    if (same) return same;
    const n = new Node(node, move);
    node.children.push(n);
    return n;
  }

  /**
   * promote makes node's variation the main line at the move where it
   * branches off the line above it; it returns whether anything changed.
   */
  promote(node) {
    for (let x = node; x.parent; x = x.parent) {
      const sibs = x.parent.children;
      const i = sibs.indexOf(x);
      if (i > 0) {
        sibs.splice(i, 1);
        sibs.unshift(x);
        return true;
      }
    }
    return false;
  }

  /** remove deletes node and what follows it; it returns its parent. */
  remove(node) {
    if (!node.parent) return node;
    const sibs = node.parent.children;
    sibs.splice(sibs.indexOf(node), 1);
    return node.parent;
  }

  /** study is the tree as the server reads it (analysisboard.Study). */
  study() {
    const out = (n) => {
      const d = { uci: n.uci, san: n.san, fen: n.fen };
      if (n.comment) d.comment = n.comment;
      if (n.startComment) d.startComment = n.startComment;
      if (n.nags.length) d.nags = n.nags;
      if (n.children.length) d.children = n.children.map(out);
      return d;
    };
    const s = { fen: this.root.fen, moves: this.root.children.map(out) };
    if (this.chess960) s.chess960 = true;
    if (this.root.comment) s.comment = this.root.comment;
    if (this.tags.length) s.tags = this.tags;
    return s;
  }

  /** size counts the moves of the tree. */
  size() {
    let n = 0;
    const walk = (x) => { for (const c of x.children) { n++; walk(c); } };
    walk(this.root);
    return n;
  }
}

/** NAG_TEXT shows the common move NAGs as lichess does. */
export const NAG_TEXT = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };

/** moveLabel is a move's SAN with its NAG glyphs. */
export function moveLabel(n) {
  return n.san + n.nags.map((g) => NAG_TEXT[g] || '').join('');
}

/** moveNumber is "12." before White's 12th move, "12…" before Black's. */
export function moveNumber(n, fenBefore) {
  const fields = (fenBefore || '').split(' ');
  const full = Number(fields[5]) || 1;
  return fields[1] === 'b' ? `${full}…` : `${full}.`;
}
