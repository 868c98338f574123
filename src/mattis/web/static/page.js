// What every page shares: finding an element, putting the words in place, the seat tokens
// this browser keeps, and a table's address. The start page (app.js) and the table page
// (table.js and static/table/) import it; the offline app's worker has no page and does not.
import { langSwitch } from "./i18n.js";
import { TABLE_PAGE } from "./site.js";

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** Put `text` in `node` unless it is there already: a live region hears each sentence once,
 * not again with every redraw. */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** A table's page: TABLE_PAGE, which the server writes into site.js from Python
 * (mattis.table.page), then the table's id. */
export function tablePath(tableId) {
  return `${TABLE_PAGE}${encodeURIComponent(tableId)}`;
}

/** The words of a page: <html lang>, the text of every [data-text] element, the label and
 * tooltip of every [data-label] element, the rules link (with the way back to `back`, when
 * given) and the language switch in #lang, which calls onLang with the code chosen. */
export function fillTexts(texts, lang, { back = null, onLang }) {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = texts[node.dataset.text] ?? "";
  for (const node of document.querySelectorAll("[data-label]")) {
    node.setAttribute("aria-label", texts[node.dataset.label] ?? "");
    node.title = texts[node.dataset.label] ?? "";
  }
  const rules = back === null ? `/rules?lang=${lang}` : `/rules?lang=${lang}&back=${encodeURIComponent(back)}`;
  for (const link of document.querySelectorAll("a.rules-link")) link.href = rules;
  langSwitch($("lang"), lang, onLang, texts._languages);
}

// ------------------------------------------------------------------ seat tokens

// localStorage["mattis.seat.<table>"] holds {seat, token} for each table this browser has a
// seat at (docs/web.md): the start page writes it when it makes a table, the invite page when
// a friend joins, and the table page reads it to connect.

function seatKey(tableId) {
  return `mattis.seat.${tableId}`;
}

/** This browser's seat at the table, {seat, token}, or null. */
export function savedSeat(tableId) {
  try { return JSON.parse(localStorage.getItem(seatKey(tableId))); } catch { return null; }
}

export function saveSeat(tableId, { seat, token }) {
  localStorage.setItem(seatKey(tableId), JSON.stringify({ seat, token }));
}

export function forgetSeat(tableId) {
  localStorage.removeItem(seatKey(tableId));
}

// ------------------------------------------------------------------ other things kept

const NAME_KEY = "mattis.name";
const OFFLINE_NOTE = "mattis.offline_note";

/** The name last typed on any page (localStorage "mattis.name"), or "". */
export function savedName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function saveName(name) {
  localStorage.setItem(NAME_KEY, name);
}

/** The start page dealt on this device because no server answered: the table page says so,
 * once (sessionStorage "mattis.offline_note"). */
export function noteDealtOffline() {
  sessionStorage.setItem(OFFLINE_NOTE, "1");
}

/** Whether the table page should say the game was dealt offline; asking forgets it. */
export function takeOfflineNote() {
  const noted = Boolean(sessionStorage.getItem(OFFLINE_NOTE));
  if (noted) sessionStorage.removeItem(OFFLINE_NOTE);
  return noted;
}
