// Sound and touch (issue 24, item 13): short tones made in the page with Web Audio (no sound
// files to fetch, so the offline app has them too) for your turn, a war, a trick won and
// Mattis, and a short vibration on your turn where the phone has one (navigator.vibrate).
// One mute button in the header ([data-action="mute"]) turns both off; the choice is kept on
// this device (prefs.js, "sound"). Nothing sounds while the tab is hidden or when the
// device asks for reduced motion.
//
// Each sound gets its own AudioContext, closed when its notes end, so the page keeps no audio
// object between events (the store holds everything the page remembers).
import { $ } from "../page.js";
import { onPreference, preference, setPreference } from "../prefs.js";

/** The notes of each sound: [frequency in Hz, start in s, length in s]. */
export const SOUNDS = Object.freeze({
  turn: [[660, 0, 0.09], [880, 0.1, 0.12]],
  war: [[220, 0, 0.1], [196, 0.12, 0.1], [262, 0.24, 0.16]],
  trick: [[523, 0, 0.07], [784, 0.06, 0.1]],
  mattis: [[392, 0, 0.16], [330, 0.18, 0.16], [262, 0.36, 0.3]],
});
const GAP = 0.45;  // seconds between two sounds of one event (a trick won, then your turn)
const VOLUME = 0.12;
const BUZZ_MS = 60;

/** Whether the page may make a sound now: not muted, shown, no reduced motion asked for. */
function allowed() {
  return preference("sound", true) && document.visibilityState === "visible"
    && !matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Play the sounds named in `kinds`, one after the other (nothing when not allowed). */
export function playSounds(kinds) {
  if (!kinds.length || !allowed()) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (Context) {
    let context;
    try { context = new Context(); } catch { context = null; }  // no audio device: stay quiet
    if (context) {
      context.resume?.();
      const start = context.currentTime + 0.02;
      let end = start;
      kinds.forEach((kind, index) => {
        for (const [frequency, at, length] of SOUNDS[kind]) {
          const when = start + index * GAP + at;
          end = Math.max(end, when + length);
          const tone = context.createOscillator();
          const gain = context.createGain();
          tone.type = "sine";
          tone.frequency.setValueAtTime(frequency, when);
          gain.gain.setValueAtTime(VOLUME, when);
          gain.gain.exponentialRampToValueAtTime(0.001, when + length);
          tone.connect(gain);
          gain.connect(context.destination);
          tone.start(when);
          tone.stop(when + length);
        }
      });
      setTimeout(() => context.close?.(), (end - context.currentTime + 0.2) * 1000);
    }
  }
  if (kinds.includes("turn")) navigator.vibrate?.(BUZZ_MS);
}

/** What a new state sounds like against the one before: Mattis at the end, a war starting, a
 * trick won, your turn coming round. The first state of a page, a reconnect and a new game
 * are silent (they are not news). */
export function soundsFor(before, now) {
  if (!before?.view || !now?.view || before.table.game !== now.table.game) return [];
  const kinds = [];
  if (now.view.phase === "over" && before.view.phase !== "over") kinds.push("mattis");
  if (now.view.tie.length && !before.view.tie.length) kinds.push("war");
  const trick = now.last_trick;
  if (trick && trick.reason === "won" && trick.number !== before.last_trick?.number) kinds.push("trick");
  if (now.legal.length && !before.legal.length) kinds.push("turn");
  return kinds;
}

/** The mute button: pressed when muted, kept per device. */
export function wireMute() {
  const button = $("mute");
  const show = (on) => button.setAttribute("aria-pressed", String(!on));
  show(preference("sound", true));
  onPreference("sound", show);
  button.addEventListener("click", () => setPreference("sound", !preference("sound", true)));
}
