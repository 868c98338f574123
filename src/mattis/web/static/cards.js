// Playing cards drawn as SVG by the project: rank and suit in two corners, a large suit in
// the middle, red or black by suit, and a gold frame with a "T" badge for trumps.
const RANKS = "23456789TJQKA";
const RANK_LABELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = "cdhs";
const SYMBOLS = ["\u2663", "\u2666", "\u2665", "\u2660"];

export function parseCard(code) {
  return { rank: RANKS.indexOf(code[0]), suit: SUITS.indexOf(code[1]) };
}

export function cardLabel(code) {
  const { rank, suit } = parseCard(code);
  return RANK_LABELS[rank] + SYMBOLS[suit];
}

/** "7h" -> "7♥", "6h-8h" -> "6♥–8♥"; chance and pickup come from the texts. */
export function actionLabel(action, texts) {
  if (action === "chance") return texts.chance;
  if (action === "pickup") return texts.pickup;
  const [low, high] = action.split("-");
  return high ? `${cardLabel(low)}\u2013${cardLabel(high)}` : cardLabel(low);
}

/** The cards of an action: "6h-8h" -> ["6h", "7h", "8h"]. */
export function actionCards(action) {
  if (action === "chance" || action === "pickup") return [];
  const [low, high] = action.split("-");
  if (!high) return [low];
  const cards = [];
  for (let r = RANKS.indexOf(low[0]); r <= RANKS.indexOf(high[0]); r++) cards.push(RANKS[r] + low[1]);
  return cards;
}

export function isRed(code) {
  const suit = SUITS.indexOf(code[1]);
  return suit === 1 || suit === 2;
}

const NS = "http://www.w3.org/2000/svg";

/** An <svg> of the card's face. */
export function cardSvg(code, { trump = false } = {}) {
  const { rank, suit } = parseCard(code);
  const colour = isRed(code) ? "#c0262d" : "#1b1b1b";
  const label = RANK_LABELS[rank];
  const symbol = SYMBOLS[suit];
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 60 84");
  svg.setAttribute("class", "card-face");
  svg.setAttribute("aria-hidden", "true");
  const frame = trump ? "#d4a017" : "#9aa0a6";
  svg.innerHTML = `
    <rect x="1" y="1" width="58" height="82" rx="6" fill="#fffdf8" stroke="${frame}" stroke-width="${trump ? 3 : 1.2}"/>
    <text x="6" y="17" font-size="15" font-weight="700" fill="${colour}" font-family="system-ui, sans-serif">${label}</text>
    <text x="6" y="31" font-size="13" fill="${colour}" font-family="system-ui, sans-serif">${symbol}</text>
    <text x="30" y="58" font-size="30" text-anchor="middle" fill="${colour}" font-family="system-ui, sans-serif">${symbol}</text>
    <g transform="rotate(180 30 42)">
      <text x="6" y="17" font-size="15" font-weight="700" fill="${colour}" font-family="system-ui, sans-serif">${label}</text>
    </g>
    ${trump ? `<circle cx="48" cy="12" r="8" fill="#d4a017"/><text x="48" y="16" font-size="11" font-weight="700" text-anchor="middle" fill="#fff" font-family="system-ui, sans-serif">T</text>` : ""}`;
  return svg;
}

/** The back of a card (the stock, other players' hands). */
export function cardBack() {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 60 84");
  svg.setAttribute("class", "card-face");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = `
    <defs><pattern id="grid" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="8" height="8" fill="#1f4e8c"/><path d="M0 4h8" stroke="#6f9bd6" stroke-width="1.5"/></pattern></defs>
    <rect x="1" y="1" width="58" height="82" rx="6" fill="url(#grid)" stroke="#fff" stroke-width="3"/>`;
  return svg;
}
