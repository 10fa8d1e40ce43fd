// theme.js applies the board colour scheme chosen on this browser (kept in
// localStorage) before the page is first painted: it is a small classic
// script in <head> (the CSP forbids inline ones), setting
// <html data-board-theme>. It also wires any select#board-theme control.
(function () {
  'use strict';
  var KEY = 'knightwatch.boardTheme';
  var THEMES = ['brown', 'green', 'blue', 'contrast'];
  var root = document.documentElement;

  function stored() {
    try {
      var t = localStorage.getItem(KEY);
      return THEMES.indexOf(t) >= 0 ? t : 'brown';
    } catch (e) {
      return 'brown'; // storage off: the default colours
    }
  }

  function apply(t) {
    if (t === 'brown') root.removeAttribute('data-board-theme');
    else root.setAttribute('data-board-theme', t);
  }

  apply(stored());

  function wire() {
    var sel = document.getElementById('board-theme');
    if (!sel) return;
    sel.value = stored();
    sel.addEventListener('change', function () {
      var t = THEMES.indexOf(sel.value) >= 0 ? sel.value : 'brown';
      try { localStorage.setItem(KEY, t); } catch (e) { /* kept for this page only */ }
      apply(t);
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', wire);
  else wire();
})();
