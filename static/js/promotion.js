// promotion.js asks which piece a pawn promotes to, on the overlay every
// board page has (layout.html's "promotion" block): four pieces of the
// mover's colour and Cancel. Each page used to carry its own copy; the
// learn and puzzle boards had none and always made a queen, so a puzzle
// whose answer is an underpromotion could not be solved.

import { pieceURL } from './pieces.js';

/**
 * Promotion is one page's chooser over its overlay element.
 */
export class Promotion {
  /** @param {HTMLElement} el the overlay (id "promotion"). */
  constructor(el) {
    this.el = el;
    this.settle = null;
    for (const b of el.querySelectorAll('[data-promotion]')) {
      b.addEventListener('click', () => this.finish(b.dataset.promotion));
    }
    el.querySelector('.promo-cancel').addEventListener('click', () => this.finish(null));
  }

  /** open reports whether the chooser is showing. */
  get open() { return !this.el.hidden; }

  /**
   * ask shows the four pieces of color ('w' or 'b') and resolves with the
   * one chosen ('q', 'r', 'b', 'n'), or null when cancelled (Cancel,
   * Escape through cancel(), or another ask).
   */
  ask(color) {
    this.finish(null);
    for (const b of this.el.querySelectorAll('[data-promotion]')) {
      b.querySelector('img').src = pieceURL(color + b.dataset.promotion.toUpperCase());
    }
    this.el.hidden = false;
    this.el.querySelector('[data-promotion="q"]').focus();
    return new Promise((resolve) => { this.settle = resolve; });
  }

  /** cancel closes the chooser as Cancel does. */
  cancel() { this.finish(null); }

  finish(piece) {
    this.el.hidden = true;
    const settle = this.settle;
    this.settle = null;
    if (settle) settle(piece);
  }
}

/** promotes reports whether a pawn (board code like 'wP') moving to square to promotes. */
export function promotes(piece, to) {
  return (piece || '')[1] === 'P' && (to[1] === '8' || to[1] === '1');
}
