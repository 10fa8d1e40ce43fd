// move_scroll.js keeps a move list scrolled as lichess does: it follows the
// game, the newest move in sight as it is played, unless the person has
// scrolled the list back to read earlier moves; then it stays where they
// left it until they scroll back to the end or go to the last move. While
// they review an earlier move, that move is kept in sight. The list scrolls
// down (a column) or sideways (the one-line list of the upright and short
// layouts); the page itself is never scrolled for it.

// SLACK is how close to the end still counts as the end (sub-pixel rounding).
const SLACK = 4;

/** atEnd says whether box shows its last row and its last column. */
function atEnd(box) {
  return box.scrollHeight - box.clientHeight - box.scrollTop <= SLACK &&
    box.scrollWidth - box.clientWidth - box.scrollLeft <= SLACK;
}

/** MoveScroll follows the game in one scrolling move list. */
export class MoveScroll {
  constructor(box) {
    this.box = box;
    this.following = true;
    // Every scroll, the person's or ours, decides: at the end means follow.
    // Ours never leave it early, because each of them is made after the
    // list was drawn, and a scroll event comes after its scroll.
    box.addEventListener('scroll', () => { this.following = atEnd(box); }, { passive: true });
    // A list that changes size (a rotated phone, the review appearing)
    // stays at its end while it follows.
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => { if (this.following) this.toEnd(); }).observe(box);
    }
  }

  /** toEnd shows the last move and follows the game from now on. */
  toEnd() {
    this.box.scrollTop = this.box.scrollHeight;
    this.box.scrollLeft = this.box.scrollWidth;
    this.following = true;
  }

  /**
   * show scrolls for the move the board shows: current is its element (null
   * at the start), live says the board shows the game's last move, and
   * wentLive that the person just came back to it from an earlier move.
   */
  show(current, live, wentLive) {
    if (live) {
      if (this.following || wentLive) this.toEnd();
      return;
    }
    if (current) this.reveal(current);
    else { this.box.scrollTop = 0; this.box.scrollLeft = 0; }
  }

  /** reveal centres el in the list when it is not wholly in sight. */
  reveal(el) {
    const b = this.box.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    if (r.top < b.top || r.bottom > b.bottom) this.box.scrollTop += r.top - b.top - (this.box.clientHeight - r.height) / 2;
    if (r.left < b.left || r.right > b.right) this.box.scrollLeft += r.left - b.left - (this.box.clientWidth - r.width) / 2;
  }
}
