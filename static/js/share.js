// share.js copies the game's read-only spectator link (the game page's
// "Share a read-only link" box).

const input = document.getElementById('watch-link');
const button = document.getElementById('copy-watch');

if (input && button) {
  input.addEventListener('focus', () => input.select());
  button.addEventListener('click', async () => {
    let ok = false;
    try {
      await navigator.clipboard.writeText(input.value);
      ok = true;
    } catch {
      input.focus();
      input.select();
      try { ok = document.execCommand('copy'); } catch { ok = false; }
    }
    button.textContent = ok ? 'Copied' : 'Select and copy';
    setTimeout(() => { button.textContent = 'Copy link'; }, 2000);
  });
}
