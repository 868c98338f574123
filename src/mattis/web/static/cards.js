// Playing cards drawn as SVG by the project: rank and suit in two corners (the top-left one
// stays readable when cards overlap in a fanned hand), a large suit or a framed letter in the
// middle, red or black by suit, and a gold frame with a "T" badge for trumps (drawn, not
// written: the only text of a card is its rank and suit, which its label names). Colours are
// presentation attributes with class names, so a page's stylesheet may restyle them and a
// page without one still draws them. With the device's "four-colour" preference (prefs.js)
// diamonds are blue and clubs green, on every page.
import { preference } from "./prefs.js";

const RANKS = "23456789TJQKA";
const RANK_LABELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = "cdhs";
const SYMBOLS = ["\u2663", "\u2666", "\u2665", "\u2660"];
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
/** The ink of each suit (clubs, diamonds, hearts, spades), in two colours and in four. */
const INKS = ["#1b1b1b", "#c0262d", "#c0262d", "#1b1b1b"];
const FOUR_INKS = ["#1b7a34", "#1556c2", "#c0262d", "#1b1b1b"];

export function parseCard(code) {
  return { rank: RANKS.indexOf(code[0]), suit: SUITS.indexOf(code[1]) };
}

export function cardLabel(code) {
  const { rank, suit } = parseCard(code);
  return RANK_LABELS[rank] + SYMBOLS[suit];
}

export function suitSymbol(letter) {
  return SYMBOLS[SUITS.indexOf(letter)] ?? "";
}

/** "7h" -> "7♥", "6h-8h" -> "6♥–8♥"; chance and pickup come from the texts. */
export function actionLabel(action, texts) {
  if (action === "chance") return texts.chance;
  if (action === "pickup") return texts.pickup;
  const [low, high] = action.split("-");
  return high ? `${cardLabel(low)}\u2013${cardLabel(high)}` : cardLabel(low);
}

export function isRed(code) {
  const suit = SUITS.indexOf(code[1]);
  return suit === 1 || suit === 2;
}

const NS = "http://www.w3.org/2000/svg";

function face(svgClass) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 60 84");
  svg.setAttribute("class", svgClass);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  return svg;
}

function middle(rank, symbol, colour) {
  if (rank >= 9 && rank <= 11) {  // J, Q, K: a framed letter with its suit
    const letter = RANK_LABELS[rank];
    return `<rect class="court" x="14" y="22" width="32" height="40" rx="4" fill="none" stroke="${colour}" stroke-width="1.4"/>
      <text x="30" y="47" font-size="22" font-weight="700" text-anchor="middle" fill="${colour}" font-family="${FONT}">${letter}</text>
      <text x="30" y="59" font-size="11" text-anchor="middle" fill="${colour}" font-family="${FONT}">${symbol}</text>`;
  }
  const size = rank === 12 ? 40 : 30;
  return `<text x="30" y="${rank === 12 ? 57 : 54}" font-size="${size}" text-anchor="middle" fill="${colour}" font-family="${FONT}">${symbol}</text>`;
}

/** An <svg> of the card's face. */
export function cardSvg(code, { trump = false } = {}) {
  const { rank, suit } = parseCard(code);
  const red = isRed(code);
  const colour = (preference("four-colour") ? FOUR_INKS : INKS)[suit];
  const label = RANK_LABELS[rank];
  const symbol = SYMBOLS[suit];
  const svg = face(`card-face ${red ? "red" : "black"}${trump ? " trump" : ""}`);
  const frame = trump ? "#d4a017" : "#9aa0a6";
  const corner = (transform) => `<g${transform}>
      <text x="${label.length > 1 ? 3 : 5}" y="17" font-size="16" font-weight="700" letter-spacing="-1" fill="${colour}" font-family="${FONT}">${label}</text>
      <text x="5" y="31" font-size="13" fill="${colour}" font-family="${FONT}">${symbol}</text></g>`;
  svg.innerHTML = `
    <rect class="paper" x="1" y="1" width="58" height="82" rx="6" fill="#fffdf8" stroke="${frame}" stroke-width="${trump ? 3 : 1.2}"/>
    ${corner("")}
    ${middle(rank, symbol, colour)}
    ${corner(' transform="rotate(180 30 42)"')}
    ${trump ? '<circle cx="48" cy="12" r="8" fill="#d4a017"/><path class="trump-t" d="M44 7.5h8v2.2h-2.9v7.3h-2.2v-7.3h-2.9z" fill="#1b1b1b"/>' : ""}`;
  return svg;
}

/** The card's face as a CSS image (`url(data:…)`): a picture with no text in the page, for a
 * control whose name is its label (a card in the hand: its drawn rank and suit are not words
 * to read out twice). */
export function cardImage(code, options = {}) {
  const svg = cardSvg(code, options);
  svg.setAttribute("xmlns", NS);
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.outerHTML)}")`;
}

/** The back of a card (the stock, other players' hands). */
export function cardBack() {
  const svg = face("card-face card-back");
  svg.innerHTML = `
    <rect class="back" x="1" y="1" width="58" height="82" rx="6" fill="#1f4e8c" stroke="#fff" stroke-width="3"/>
    <path d="M8 8h44v68h-44z" fill="none" stroke="#6f9bd6" stroke-width="1.5"/>
    <path d="M8 20l22-12 22 12M8 36l22-12 22 12M8 52l22-12 22 12M8 68l22-12 22 12M8 76l22-12 22 12" fill="none" stroke="#6f9bd6" stroke-width="1.2"/>`;
  return svg;
}
