// home.js remembers the new-game form's last choices, so "the same again"
// is one click. Only non-secret preferences go to localStorage.

const form = document.getElementById('new-game');
const KEY = 'kw.newgame';
const FIELDS = ['color', 'level', 'variant', 'clock'];

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
