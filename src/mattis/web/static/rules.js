// The rules page: draws the examples' cards with the table's own pictures (cards.js). The
// server wrote each card as a placeholder naming it (data-show-card="Kd", the label as text),
// so the page reads without this script too.
import { cardBack, cardSvg } from "./cards.js";

function picture(code, trump) {
  const drawn = code === "back" ? cardBack() : cardSvg(code, { trump });
  if (typeof drawn === "string") {
    const holder = document.createElement("span");
    holder.innerHTML = drawn;
    return holder.firstElementChild;
  }
  return drawn;
}

for (const figure of document.querySelectorAll("figure.example")) {
  const trumpSuit = figure.dataset.trump || "";
  for (const slot of figure.querySelectorAll("[data-show-card]")) {
    const code = slot.dataset.showCard;
    const drawn = picture(code, trumpSuit !== "" && code[1] === trumpSuit);
    if (drawn) slot.replaceChildren(drawn);
  }
}
