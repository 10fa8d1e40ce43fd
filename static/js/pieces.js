// pieces.js names the piece images of each set. theme.js (a classic
// script in <head>) puts the browser's chosen set on <html data-piece-set>
// before anything is drawn; pieceURL reads it, so every board draws the
// chosen set from its first paint and only that set is downloaded. When
// the choice changes on the page, every piece image already shown is
// swapped for the same piece of the new set.

// One image per set and code, spelled out so the server rewrites each to
// its content-hashed (long-cached) name when it starts.
const SETS = {
  cburnett: {
    wK: '/static/pieces/wK.svg', wQ: '/static/pieces/wQ.svg', wR: '/static/pieces/wR.svg', wB: '/static/pieces/wB.svg', wN: '/static/pieces/wN.svg', wP: '/static/pieces/wP.svg',
    bK: '/static/pieces/bK.svg', bQ: '/static/pieces/bQ.svg', bR: '/static/pieces/bR.svg', bB: '/static/pieces/bB.svg', bN: '/static/pieces/bN.svg', bP: '/static/pieces/bP.svg',
  },
  celtic: {
    wK: '/static/pieces/celtic/wK.svg', wQ: '/static/pieces/celtic/wQ.svg', wR: '/static/pieces/celtic/wR.svg', wB: '/static/pieces/celtic/wB.svg', wN: '/static/pieces/celtic/wN.svg', wP: '/static/pieces/celtic/wP.svg',
    bK: '/static/pieces/celtic/bK.svg', bQ: '/static/pieces/celtic/bQ.svg', bR: '/static/pieces/celtic/bR.svg', bB: '/static/pieces/celtic/bB.svg', bN: '/static/pieces/celtic/bN.svg', bP: '/static/pieces/celtic/bP.svg',
  },
  spatial: {
    wK: '/static/pieces/spatial/wK.svg', wQ: '/static/pieces/spatial/wQ.svg', wR: '/static/pieces/spatial/wR.svg', wB: '/static/pieces/spatial/wB.svg', wN: '/static/pieces/spatial/wN.svg', wP: '/static/pieces/spatial/wP.svg',
    bK: '/static/pieces/spatial/bK.svg', bQ: '/static/pieces/spatial/bQ.svg', bR: '/static/pieces/spatial/bR.svg', bB: '/static/pieces/spatial/bB.svg', bN: '/static/pieces/spatial/bN.svg', bP: '/static/pieces/spatial/bP.svg',
  },
};

/** pieceSet is the set chosen on this browser (cburnett unless another). */
export function pieceSet() {
  const s = document.documentElement.dataset.pieceSet;
  return s && Object.hasOwn(SETS, s) ? s : 'cburnett';
}

/** pieceURL is the image of a piece code (wP, bK...) in the chosen set. */
export function pieceURL(code) {
  return SETS[pieceSet()][code] || SETS.cburnett[code] || `/static/pieces/${code}.svg`;
}

// codeOf maps every set's image address back to its piece code.
const codeOf = new Map();
for (const set of Object.values(SETS)) {
  for (const [code, url] of Object.entries(set)) codeOf.set(url, code);
}

/** showPieceSet redraws every piece image on the page in the chosen set. */
export function showPieceSet(root = document) {
  for (const img of root.querySelectorAll('img[src]')) {
    const code = codeOf.get(img.getAttribute('src'));
    if (code) {
      const want = pieceURL(code);
      if (img.getAttribute('src') !== want) img.src = want;
    }
  }
}

new MutationObserver(() => showPieceSet()).observe(document.documentElement, { attributes: true, attributeFilter: ['data-piece-set'] });
