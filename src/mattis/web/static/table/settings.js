// The table's settings, kept per device (localStorage "mattis.settings"): large cards, the
// four-colour deck (♦ blue, ♣ green), a second tap to confirm a card on a touch screen, and
// sound off. They show as attributes on <html> (data-large-cards, data-four-colour), which
// the stylesheet reads, and as the checkboxes [data-setting="…"] and the mute button
// [data-action="mute"], whose aria-pressed is true while the sounds are off.
import { $ } from "../page.js";

const KEY = "mattis.settings";
const NAMES = ["large-cards", "four-colour", "confirm-card", "mute"];

/** The settings kept on this device: {"large-cards": bool, "four-colour": bool, …}. */
export function settings() {
  let kept = {};
  try { kept = JSON.parse(localStorage.getItem(KEY)) || {}; } catch { kept = {}; }
  return Object.fromEntries(NAMES.map((name) => [name, kept[name] === true]));
}

export function setting(name) {
  return settings()[name];
}

function keep(name, on) {
  localStorage.setItem(KEY, JSON.stringify({ ...settings(), [name]: on }));
  show();
}

/** Put the settings on the page: <html>'s attributes, the checkboxes, the mute button. */
export function show() {
  const now = settings();
  const root = document.documentElement;
  root.toggleAttribute("data-large-cards", now["large-cards"]);
  root.toggleAttribute("data-four-colour", now["four-colour"]);
  for (const box of document.querySelectorAll("input[data-setting]")) box.checked = now[box.dataset.setting];
  $("mute").setAttribute("aria-pressed", String(now.mute));
}

/** Wire the checkboxes and the mute button; `changed(name)` runs after each change. */
export function wireSettings(changed) {
  for (const box of document.querySelectorAll("input[data-setting]")) {
    box.addEventListener("change", () => { keep(box.dataset.setting, box.checked); changed(box.dataset.setting); });
  }
  $("mute").addEventListener("click", () => { keep("mute", !setting("mute")); changed("mute"); });
  addEventListener("storage", (event) => { if (event.key === KEY) { show(); changed(null); } });  // another tab of this device
  show();
}
