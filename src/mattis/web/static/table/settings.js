// The table's settings for this device, behind the ⚙ button in the header: large cards, a
// four-colour deck (♦ blue, ♣ green) and the two-tap confirm on touch screens, each kept by
// prefs.js (which shows it on <html> as data-pref-NAME="on" for table.css), and the language,
// which has no room in a phone's header. Every [data-setting] checkbox is named after its
// preference.
import { $ } from "../page.js";
import { onPreference, preference, reflectPreferences, setPreference } from "../prefs.js";

/** The preferences this panel sets, by their [data-setting] names. */
export const SETTINGS = ["large-cards", "four-colour", "confirm-card"];

export function settingsOpen() {
  return !$("settings-panel").hidden;
}

/** Open or close the panel; an open panel takes the focus to its first setting. */
export function setSettingsOpen(open) {
  $("settings-panel").hidden = !open;
  $("settings-toggle").setAttribute("aria-expanded", String(open));
  if (open) $("settings-panel").querySelector("[data-setting]").focus({ preventScroll: true });
}

/** Wire the panel; `onCardSize` runs when the cards change size (to lay the hand out again). */
export function startSettings(onCardSize) {
  reflectPreferences(SETTINGS);
  for (const box of document.querySelectorAll("[data-setting]")) {
    const name = box.dataset.setting;
    box.checked = preference(name);
    box.addEventListener("change", () => setPreference(name, box.checked));
    onPreference(name, (on) => { box.checked = on; });
  }
  onPreference("large-cards", () => requestAnimationFrame(onCardSize));
  $("settings-toggle").addEventListener("click", () => setSettingsOpen(!settingsOpen()));
  $("settings-close").addEventListener("click", () => { setSettingsOpen(false); $("settings-toggle").focus(); });
  document.addEventListener("keydown", (event) => {  // wherever the focus is (a language switch redraws its buttons)
    if (event.key !== "Escape" || !settingsOpen()) return;
    setSettingsOpen(false);
    $("settings-toggle").focus();
  });
  // a tap or click anywhere else closes it
  document.addEventListener("pointerdown", (event) => {
    if (settingsOpen() && !event.target.closest("#settings-panel, #settings-toggle")) setSettingsOpen(false);
  });
}
