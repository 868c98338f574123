// What this device remembers about how its player likes the table: large cards, a four-colour
// deck, the two-tap confirm, sound. One place for every such choice, so each page and setting
// reads and writes them the same way. They live in localStorage under "mattis.pref.NAME" as
// "1" or "0"; where storage is refused (private mode) a choice lasts for this page only.
// Every change shows on <html> as data-pref-NAME="on" when on, so CSS can follow it.

const PREFIX = "mattis.pref.";
const unsaved = new Map();
const listeners = new Map();

/** Whether the device preference `name` is on (`fallback` when never chosen). */
export function preference(name, fallback = false) {
  try {
    const value = window.localStorage.getItem(PREFIX + name);
    if (value === "1") return true;
    if (value === "0") return false;
  } catch (error) {
    if (unsaved.has(name)) return unsaved.get(name);
  }
  return unsaved.has(name) ? unsaved.get(name) : fallback;
}

/** Turn the preference `name` on or off, remember it on this device and tell its listeners. */
export function setPreference(name, on) {
  unsaved.set(name, on);
  try {
    window.localStorage.setItem(PREFIX + name, on ? "1" : "0");
  } catch (error) { /* kept for this page only */ }
  reflect(name, on);
  for (const listener of listeners.get(name) || []) listener(on);
}

/** Call `listener(on)` whenever the preference `name` changes; returns how to stop. */
export function onPreference(name, listener) {
  if (!listeners.has(name)) listeners.set(name, new Set());
  listeners.get(name).add(listener);
  return () => listeners.get(name).delete(listener);
}

/** Show the preferences `names` on <html> now (call once when a page starts). */
export function reflectPreferences(names, fallbacks = {}) {
  for (const name of names) reflect(name, preference(name, fallbacks[name] || false));
}

function reflect(name, on) {
  const root = document.documentElement;
  if (on) root.setAttribute(`data-pref-${name}`, "on");
  else root.removeAttribute(`data-pref-${name}`);
}
