// confirm.js asks a yes-or-no question in the page, where the person just
// clicked, instead of the browser's confirm() box (which looks like an
// error, blocks the page, and on phones comes with the site's address).
// The question takes the place of the buttons it is about: over them
// (a group of game buttons keeps its size, so nothing moves) or, with
// inline, in their place in the flow (a row of a table). Escape, Cancel,
// or pressing anywhere else answers no.
//
// Hooks: `.confirm[role="alertdialog"]` holds the question in `.confirm-q`
// and the answers `button[data-answer="yes|no"]`.

let seq = 0;

/**
 * ask shows question over (or, inline, in place of) host's contents and
 * resolves to true for yes, false for no. yes is the yes-button's words
 * ("Yes, resign"); danger marks a step that cannot be undone (its button is
 * red, and the focus starts on Cancel so that Enter does nothing rash).
 * Asking again in the same host answers the open question no first.
 */
export function ask(host, { question, yes, no = 'Cancel', danger = false, inline = false }) {
  host.querySelector(':scope > .confirm')?.dispatchEvent(new Event('kw-cancel'));
  const back = document.activeElement;
  return new Promise((resolve) => {
    const box = document.createElement('div');
    box.className = `confirm${inline ? ' inline' : ''}`;
    box.setAttribute('role', 'alertdialog');
    const id = `confirm-q-${++seq}`;
    box.setAttribute('aria-labelledby', id);
    const q = document.createElement('p');
    q.className = 'confirm-q';
    q.id = id;
    q.textContent = question;
    const row = document.createElement('div');
    row.className = 'confirm-row';
    const yesB = button(yes, danger ? 'btn danger solid' : 'btn primary', 'yes');
    const noB = button(no, 'btn', 'no');
    row.append(yesB, noB);
    box.append(q, row);

    const done = (answer) => {
      box.remove();
      host.classList.remove('confirming', 'confirming-inline');
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onOutside, true);
      if (back instanceof HTMLElement && back.isConnected && !answer) back.focus({ preventScroll: true });
      resolve(answer);
    };
    const onKey = (e) => {
      if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); done(false); }
    };
    const onOutside = (e) => { if (!box.contains(e.target)) done(false); };
    yesB.addEventListener('click', (e) => { e.stopPropagation(); done(true); });
    noB.addEventListener('click', (e) => { e.stopPropagation(); done(false); });
    box.addEventListener('kw-cancel', () => done(false));
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onOutside, true);

    host.classList.add('confirming');
    if (inline) host.classList.add('confirming-inline');
    host.append(box);
    (danger ? noB : yesB).focus({ preventScroll: true });
  });
}

function button(text, cls, answer) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = cls;
  b.dataset.answer = answer;
  b.textContent = text;
  return b;
}
