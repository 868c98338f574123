// Short sounds made in the page with Web Audio (no files): your turn, a war, a trick won and
// Mattis; and a short vibration on your turn where the phone has navigator.vibrate. Nothing
// sounds while the sounds are off (the mute button, kept per device), while the page is
// hidden, or, for the vibration and the longer tunes, when the device asks for reduced
// motion (then only a single soft tone marks your turn).
import { setting } from "./settings.js";
import { store } from "./store.js";

const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

/** The notes of each sound: [frequency Hz, start s, length s]. */
const TUNES = {
  turn: [[660, 0, 0.12], [880, 0.13, 0.16]],
  war: [[330, 0, 0.14], [330, 0.16, 0.14], [247, 0.32, 0.3]],
  trick: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.2]],
  mattis: [[392, 0, 0.22], [330, 0.24, 0.22], [262, 0.48, 0.45]],
};

/** Whether a sound may play now. */
function allowed() {
  return !setting("mute") && document.visibilityState === "visible";
}

/** Browsers start audio only after the person has touched the page: make the context then. */
export function wakeAudio() {
  if (store.get().audio || !window.AudioContext || setting("mute")) return;
  try { store.update({ audio: new AudioContext() }); } catch { /* no sound on this device */ }
}

/** Play one of TUNES (a reduced-motion device hears only the first note, softly). Returns
 * whether it sounded, for the page's test hook. */
export function sound(name) {
  if (!allowed()) return false;
  document.documentElement.dataset.lastSound = name;  // the tests' hook: which sound was asked for
  const { audio } = store.get();
  if (!audio) return false;
  if (audio.state === "suspended") audio.resume().catch(() => {});
  const notes = reducedMotion.matches ? TUNES[name].slice(0, 1) : TUNES[name];
  const start = audio.currentTime + 0.02;
  for (const [frequency, at, length] of notes) {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    const peak = reducedMotion.matches ? 0.05 : 0.12;
    volume.gain.setValueAtTime(0.0001, start + at);
    volume.gain.exponentialRampToValueAtTime(peak, start + at + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    tone.connect(volume).connect(audio.destination);
    tone.start(start + at);
    tone.stop(start + at + length + 0.05);
  }
  return true;
}

/** Your turn: a sound, and a short buzz on a phone (not with reduced motion). */
export function yourTurn() {
  if (!allowed()) return;
  sound("turn");
  if (navigator.vibrate && !reducedMotion.matches) navigator.vibrate(60);
}

document.addEventListener("visibilitychange", () => {
  const { audio } = store.get();
  if (!audio) return;
  if (document.visibilityState === "hidden") audio.suspend().catch(() => {}); else audio.resume().catch(() => {});
});
