// home.js remembers the new-game form's last choices, so "the same again"
// is one click (only non-secret preferences go to localStorage), shows the
// fields the chosen game needs, and starts the start-position editor.

import { showPieceSet } from './pieces.js';
import { ask } from './confirm.js';

// The colour choice's kings in the browser's piece set.
showPieceSet();

const form = document.getElementById('new-game');
const KEY = 'kw.newgame';
const FIELDS = ['color', 'level', 'variant', 'clock', 'opponent'];

if (form) {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || '{}');
    for (const name of FIELDS) {
      const el = form.elements.namedItem(name);
      if (!el || typeof saved[name] !== 'string') continue;
      el.value = saved[name];
      // A stale value (a level that no longer exists) leaves nothing
      // checked; fall back to the page's default.
      if (el.value !== saved[name]) form.reset();
    }
  } catch { /* unreadable preferences: keep the defaults */ }
  form.addEventListener('submit', () => {
    const out = {};
    for (const name of FIELDS) out[name] = form.elements.namedItem(name)?.value ?? '';
    try { localStorage.setItem(KEY, JSON.stringify(out)); } catch { /* private mode */ }
  });
}

// The form shows the chess strength or the Reconnaissance opponent,
// whichever the chosen game needs, and the start position (editor and
// FEN) for standard chess only: Chess960 starts from one of its own 960
// positions. Without JavaScript all show; the server reads the fields the
// variant needs and refuses a FEN for any other variant.
function showVariant() {
  if (!form) return;
  const variant = form.elements.namedItem('variant')?.value;
  for (const el of form.querySelectorAll('[data-for]')) {
    const f = el.dataset.for;
    el.hidden = f === 'recon' ? variant !== 'recon' : f === 'standard' ? variant !== 'standard' : variant === 'recon';
  }
  // A hidden start position is not sent (a disabled field is left out).
  const fen = form.elements.namedItem('fen');
  if (fen) fen.disabled = variant !== 'standard';
}
if (form) {
  for (const r of form.querySelectorAll('input[name="variant"]')) {
    r.addEventListener('change', () => {
      // Reconnaissance Chess's own default clock: the reference's 15 min + 5 s.
      const clock = form.elements.namedItem('clock');
      if (r.value === 'recon' && r.checked && clock && clock.value === 'none') clock.value = '15+5';
      showVariant();
    });
  }
  showVariant();
}

// The board editor for the start position (with the FEN box it fills),
// loaded when its section is first opened (or comes back open with a
// refused position), so a home page that never opens it does not
// download the editor, the board and the pieces.
const startSection = document.getElementById('start-position');
let editorLoad = null;
function loadEditor() {
  const root = document.getElementById('editor');
  const input = document.getElementById('fen-input');
  if (editorLoad || !form || !root || !input) return;
  editorLoad = import('./editor.js').then(({ Editor }) => new Editor(root, input, {
    problems: document.getElementById('editor-problems'),
    play: document.getElementById('play-from-position'),
    submit: () => form.requestSubmit(),
    refused: document.getElementById('fen-refused'),
  })).catch(() => { editorLoad = null; }); // offline: the FEN box still works; try again on the next opening
}
if (startSection) {
  startSection.addEventListener('toggle', () => { if (startSection.open) loadEditor(); });
  if (startSection.open) loadEditor();
}

// The list of unfinished games: Resign and Delete ask first, in the row
// (the forms carry the question); Continue is a plain link.
for (const f of document.querySelectorAll('form[data-confirm]')) {
  f.addEventListener('submit', (ev) => {
    if (f.elements.namedItem('confirm')) return; // answered: on its way
    ev.preventDefault();
    const cell = f.closest('td') || f.parentElement;
    ask(cell, { question: f.dataset.confirm, yes: f.dataset.yes || 'Yes', danger: true, inline: true }).then((yes) => {
      if (!yes) return;
      // Answered here: the server need not ask again (without JavaScript
      // it does, on the home page).
      const answer = document.createElement('input');
      answer.type = 'hidden';
      answer.name = 'confirm';
      answer.value = 'yes';
      f.append(answer);
      f.submit();
    });
  });
}

// Last activity: the server writes UTC in the title; show the person's own
// local time there instead.
for (const t of document.querySelectorAll('#unfinished-games time[datetime]')) {
  const d = new Date(t.getAttribute('datetime'));
  if (!Number.isNaN(d.getTime())) t.title = d.toLocaleString();
}

// A refused form comes back with the reason above it: bring the reason
// into sight (and to a screen reader's attention), wherever the form is.
document.getElementById('form-error')?.focus();
