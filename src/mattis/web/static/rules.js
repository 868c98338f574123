// The rules page's script, and the rules' card pictures wherever the rules are shown (the page,
// and the sheet over the table: table/rules_sheet.js).
//
// Pictures: the server wrote each example card as a placeholder naming it
// (data-show-card="Kd", the label as text), so the rules read without this script too; here
// each gets the table's own picture (cards.js).
//
// The way back: the rules page returns to the table it was opened from (?back=/t/ID). The
// server writes that into the page, but the offline app's service worker keeps one copy of
// the page per language, written without it; so the page takes ?back= from its own address
// here, checks it is a table page as the server does (rules_page.back_target), and points
// "back to the game", its button and the language links at it.
import { cardBack, cardSvg } from "./cards.js";
import { TABLE_PAGE } from "./site.js";

function picture(code, trump) {
  const drawn = code === "back" ? cardBack() : cardSvg(code, { trump });
  if (typeof drawn === "string") {
    const holder = document.createElement("span");
    holder.innerHTML = drawn;
    return holder.firstElementChild;
  }
  return drawn;
}

/** Put the card pictures into every example under `root`. */
export function drawExampleCards(root) {
  for (const figure of root.querySelectorAll("figure.example")) {
    const trumpSuit = figure.dataset.trump || "";
    for (const slot of figure.querySelectorAll("[data-show-card]")) {
      const code = slot.dataset.showCard;
      const drawn = picture(code, trumpSuit !== "" && code[1] === trumpSuit);
      if (drawn) slot.replaceChildren(drawn);
    }
  }
}

const TABLE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The table page `back` names, or null: nothing else may be led back to. */
export function tableBack(back) {
  if (typeof back !== "string" || !back.startsWith(TABLE_PAGE)) return null;
  return TABLE_ID.test(back.slice(TABLE_PAGE.length)) ? back : null;
}

/** Lead every rules link under `root` (another language, another chapter) back to `back` too. */
export function keepBackOnRulesLinks(root, back) {
  for (const link of root.querySelectorAll('a[href^="/rules"]')) {
    const url = new URL(link.getAttribute("href"), location.origin);
    url.searchParams.set("back", back);
    link.setAttribute("href", url.pathname + url.search);
  }
}

function keepWayBack() {
  const back = tableBack(new URLSearchParams(location.search).get("back"));
  if (!back) return;
  const words = document.querySelector("a[data-back]")?.lastChild?.textContent ?? "";
  for (const link of document.querySelectorAll("a[data-back], a[data-back-cta]")) link.setAttribute("href", back);
  for (const link of document.querySelectorAll("a[data-back-cta]")) if (words) link.textContent = words;
  keepBackOnRulesLinks(document, back);
}

if (document.querySelector("main.rules-page")) {
  drawExampleCards(document);
  keepWayBack();
}
