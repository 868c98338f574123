// The rules page: draws the examples' cards with the table's own pictures (cards.js). The
// server wrote each card as a placeholder naming it (data-show-card="Kd", the label as text),
// so the page reads without this script too.
//
// The way back: "Back to the game" leads to the table in ?back=/t/ID. The server writes it
// into the page, but the offline app's service worker keeps one /rules page per language
// (without ?back=), so the page reads its own address and points every [data-back] link, and
// the language links, at the table it came from.
import { showExampleCards } from "./cards.js";
import { TABLE_PAGE } from "./site.js";

showExampleCards(document);

const escaped = TABLE_PAGE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const back = new URLSearchParams(location.search).get("back");
if (back && new RegExp(`^${escaped}[A-Za-z0-9_-]{1,64}$`).test(back)) {
  for (const link of document.querySelectorAll("a[data-back]")) {
    link.href = back;
    if (link.dataset.backText) link.textContent = link.dataset.backText;
  }
  for (const link of document.querySelectorAll(".lang a[lang]")) {
    const url = new URL(link.href, location.href);
    url.searchParams.set("back", back);
    link.href = url.pathname + url.search;
  }
}
