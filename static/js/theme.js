// theme.js applies the board colour scheme and the piece set chosen on this
// browser (kept in localStorage) before the page is first painted: it is a
// small classic script in <head> (the CSP forbids inline ones), setting
// <html data-board-theme> and <html data-piece-set>, which pieces.js reads
// before any piece is drawn. It also wires any select#board-theme and
// select#piece-set control.
(function () {
  'use strict';
  var root = document.documentElement;
  // The first of each list is the default, shown with no attribute.
  var THEMES = ['brown', 'green', 'blue', 'contrast'];
  var SETS = ['cburnett', 'celtic', 'spatial'];
  var CHOICES = [
    { key: 'knightwatch.boardTheme', attr: 'data-board-theme', control: 'board-theme', values: THEMES },
    { key: 'knightwatch.pieceSet', attr: 'data-piece-set', control: 'piece-set', values: SETS },
  ];

  function stored(c) {
    try {
      var v = localStorage.getItem(c.key);
      return c.values.indexOf(v) >= 0 ? v : c.values[0];
    } catch (e) {
      return c.values[0]; // storage off: the defaults
    }
  }

  function apply(c, v) {
    if (v === c.values[0]) root.removeAttribute(c.attr);
    else root.setAttribute(c.attr, v);
  }

  CHOICES.forEach(function (c) { apply(c, stored(c)); });

  function wire() {
    CHOICES.forEach(function (c) {
      var sel = document.getElementById(c.control);
      if (!sel) return;
      sel.value = stored(c);
      sel.addEventListener('change', function () {
        var v = c.values.indexOf(sel.value) >= 0 ? sel.value : c.values[0];
        try { localStorage.setItem(c.key, v); } catch (e) { /* kept for this page only */ }
        apply(c, v);
      });
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', wire);
  else wire();
})();
