// sound.js makes the move sounds with WebAudio, so there is nothing to
// download. Off by default; the choice is remembered in localStorage.

const KEY = 'kw.sound';
let ctx = null;

/** enabled reports whether the person turned sounds on. */
export function enabled() {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

/** setEnabled remembers the choice; turning on also unlocks audio, which browsers allow only in a click. */
export function setEnabled(on) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch { /* private mode: the choice lasts for this page only */ }
  if (on) audio();
}

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === 'suspended') ctx.resume();
  return ctx;
}

// A short filtered noise burst sounds like wood on wood more than a beep does.
function knock(at, freq, gain, length) {
  const a = audio();
  if (!a) return;
  const n = Math.floor(a.sampleRate * length);
  const buf = a.createBuffer(1, n, a.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 3;
  const src = a.createBufferSource();
  src.buffer = buf;
  const filter = a.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = freq;
  filter.Q.value = 3;
  const g = a.createGain();
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(a.destination);
  src.start(a.currentTime + at);
}

/** play sounds a move: kind is 'move', 'capture', 'check' or 'end'. */
export function play(kind) {
  if (!enabled()) return;
  switch (kind) {
    case 'capture':
      knock(0, 900, 2.2, 0.09);
      knock(0.05, 600, 1.6, 0.08);
      break;
    case 'check':
      knock(0, 1400, 2, 0.08);
      break;
    case 'end':
      knock(0, 500, 2, 0.12);
      knock(0.12, 400, 2, 0.16);
      break;
    default:
      knock(0, 1100, 2, 0.07);
  }
}

/** unlock resumes audio inside a user gesture when sounds are on. */
export function unlock() {
  if (enabled()) audio();
}
