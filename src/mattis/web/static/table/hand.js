// The hand and what is under it: the cards in the order the state gives (`sorted_hand`), each
// playable one offering the plays the state lists for it (`card_actions`; a sequence opens
// the chooser), the buttons (chance, pick up, hint), the refusal and hint lines, the advice
// and the reaction buttons. A click or a tap plays a card; with the device's "confirm-card"
// preference a first tap on a touch screen raises it and a second plays it. A card that may
// not be played is sent anyway: the table's refusal says why.
//
// Nothing here changes the page's layout when the turn changes: a button that does not apply
// now is disabled, not removed (only the phase decides between chance and pick-up), and the
// hand keeps its place (a playable card is ringed, not raised).
import { actionLabel, cardImage, cardLabel } from "../cards.js";
import { fmt } from "../i18n.js";
import { $, setText } from "../page.js";
import { preference } from "../prefs.js";
import { moveMessage } from "./coach.js";
import { send } from "./connection.js";
import { finishHold } from "./felt.js";
import { store } from "./store.js";

/** The hand's part of the store after a state message: a raised card stays raised while the
 * player is still to move, a sent move has its answer, a hint stays until the game moves on. */
export function takeHand(hand, message) {
  const hinted = hand.hinted && hand.hinted.events !== message.view?.event_count ? null : hand.hinted;
  return { ...hand, raised: message.legal.length ? hand.raised : null, pending: null, hinted };
}

/** The cards of the hand that `action` plays (none for chance and pick-up), as the state's
 * `card_actions` says. */
function cardsOf(action) {
  const plays = store.get().state?.card_actions ?? {};
  return Object.keys(plays).filter((code) => plays[code].includes(action));
}

// ------------------------------------------------------------------ the cards

export function drawHand(view) {
  const { state, texts, hand: { raised } } = store.get();
  const hand = $("hand");
  const trump = view.trump;
  const cards = state.sorted_hand.map((code) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "card";
    button.dataset.card = code;
    const isTrump = Boolean(trump) && code[1] === trump;
    if (isTrump) button.classList.add("is-trump");
    const face = document.createElement("span");
    face.className = "face";
    face.style.backgroundImage = cardImage(code, { trump: isTrump });  // a picture: the button's name is its label
    button.append(face);
    const options = state.card_actions[code] ?? [];
    button.dataset.playable = String(options.length > 0);
    if (options.length) button.classList.add("legal");
    if (code === raised && options.length) { button.classList.add("raised"); button.dataset.raised = "true"; }
    button.setAttribute("aria-label", cardLabel(code) + (isTrump ? ` (${texts.trump_mark})` : "") + (options.length ? ` \u2014 ${texts.legal}` : ""));
    button.setAttribute("aria-describedby", "refusal");
    button.addEventListener("click", () => cardClicked(code, options));
    return button;
  });
  hand.replaceChildren(...cards);
  hand.classList.toggle("waiting", !state.legal.length);
  layoutHand();
}

/** Remember whether a finger or a mouse pressed the card about to be clicked. */
export function notePointer(event) {
  store.merge("hand", { pointer: event.pointerType || "mouse" });
}

function cardClicked(code, options) {
  const { texts, hand } = store.get();
  const touch = hand.pointer === "touch";
  store.merge("hand", { pointer: "mouse" });
  if (!options.length) {
    acted();
    store.merge("hand", { pending: { action: code, cards: [code] } });
    send(moveMessage(code));
    return;
  }
  if (touch && options.length === 1 && hand.raised !== code && preference("confirm-card")) {
    acted();
    store.merge("hand", { raised: code });
    for (const node of $("hand").querySelectorAll(".raised")) { node.classList.remove("raised"); delete node.dataset.raised; }
    const node = $("hand").querySelector(`[data-card="${code}"]`);
    node?.classList.add("raised");
    if (node) node.dataset.raised = "true";
    $("hint-text").textContent = fmt(texts["table.tap_again"], { card: cardLabel(code) });
    return;
  }
  if (options.length === 1) { play(options[0]); return; }
  openChooser(code, options);
}

/** Send a move. Moving on also ends the pause of a completed trick still on the table. */
export function play(action) {
  acted();
  closeChooser();
  $("hint-text").textContent = "";
  store.merge("hand", { raised: null, pending: { action, cards: cardsOf(action) } });
  if (store.get().felt.holding) finishHold(true);  // a player who moves on has seen enough of the last trick
  send(moveMessage(action));
}

function openChooser(code, options) {
  const { texts } = store.get();
  const chooser = $("chooser");
  chooser.replaceChildren(...options.map((action) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = fmt(texts.play_sequence, { cards: actionLabel(action, texts) });
    button.dataset.action = action;
    button.addEventListener("click", () => play(action));
    return button;
  }));
  $("chooser-box").hidden = false;  // a menu laid over the advice, with its close button
  chooser.hidden = false;
  $("chooser-close").hidden = false;
  chooser.querySelector("button").focus();
  for (const node of document.querySelectorAll(".card.selected")) node.classList.remove("selected");
  $("hand").querySelector(`[data-card="${code}"]`)?.classList.add("selected");
}

export function closeChooser() {
  $("chooser-box").hidden = true;
  $("chooser").hidden = true;
  $("chooser-close").hidden = true;
  for (const node of $("hand").querySelectorAll(".card.selected")) node.classList.remove("selected");
}

/** The chooser's close button: no sequence after all, and the raised card comes down. */
export function dismissChooser() {
  closeChooser();
  store.merge("hand", { raised: null });
  drawHand(store.get().state.view);
}

/** The least of each card a fanned hand shows (its strip's width and, in rows that overlap,
 * its height): a fingertip's size (44 CSS px, the platforms' smallest target). */
const SHOWN_PX = 44;

/** Lay the hand out in as few rows as leave every card at least SHOWN_PX of itself: one row
 * when it fits, else overlapping cards (the corner index showing) in rows that overlap too. */
export function layoutHand() {
  const hand = $("hand");
  const cards = [...hand.children];
  const count = cards.length;
  if (!count) { hand.style.height = "0px"; return; }
  const width = hand.clientWidth;
  const face = cards[0].querySelector(".face");
  const cardWidth = face.offsetWidth;
  const cardHeight = face.offsetHeight;
  const gap = 6;
  const shown = Math.min(SHOWN_PX, cardWidth);
  let rows = 1;
  let perRow = count;
  let step = cardWidth + gap;
  for (;;) {
    perRow = Math.ceil(count / rows);
    step = perRow > 1 ? Math.min(cardWidth + gap, (width - cardWidth) / (perRow - 1)) : cardWidth + gap;
    if (step >= shown || perRow === 1) break;
    rows += 1;
  }
  const rowStep = rows > 1 ? Math.max(SHOWN_PX, Math.round(cardHeight * 0.6)) : cardHeight + gap;
  cards.forEach((card, index) => {
    const row = Math.floor(index / perRow);
    const inRow = row === rows - 1 ? count - perRow * (rows - 1) : perRow;
    const rowWidth = cardWidth + (inRow - 1) * step;
    const left = (width - rowWidth) / 2 + (index % perRow) * step;
    card.style.left = `${Math.round(left)}px`;
    card.style.top = `${row * rowStep}px`;
    card.style.zIndex = String(index + 1);
    // an overlapped card is clickable where it shows: its button is the visible strip
    const lastInRow = index % perRow === perRow - 1 || index === count - 1;
    card.style.width = step < cardWidth && !lastInRow ? `${Math.floor(step)}px` : "";
    card.style.height = row < rows - 1 ? `${rowStep}px` : "";
  });
  hand.style.height = `${(rows - 1) * rowStep + cardHeight}px`;
  hand.dataset.rows = String(rows);
}

// ------------------------------------------------------------------ the buttons and the lines

export function drawControls(view) {
  const { state, texts, hand } = store.get();
  const legal = state.legal;
  const myTurn = legal.length > 0;
  const chance = $("chance");
  const pickup = $("pickup");
  // the phase decides which of chance and pick-up is there; the turn only whether it works
  if (view.phase !== "over") {
    chance.classList.toggle("off", view.phase !== "collect");
    pickup.classList.toggle("off", view.phase !== "shed");
  }
  chance.disabled = !legal.includes("chance");
  pickup.disabled = !legal.includes("pickup");
  const forced = legal.length === 1 && legal[0] === "pickup";
  pickup.classList.toggle("forced", forced);
  pickup.textContent = forced ? texts["table.pickup_forced"] : texts.pickup;
  $("hint").disabled = !myTurn || hand.hintPending;
  showHint();
  closeChooser();
  if (!myTurn) $("hint-text").textContent = "";
  else if (hand.raised && $("hand").querySelector(`[data-card="${hand.raised}"].raised`)) {
    $("hint-text").textContent = fmt(texts["table.tap_again"], { card: cardLabel(hand.raised) });
  }
  drawAdvice();
  drawReactions();
}

/** The advice under the felt. While a completed trick is held on the table, or waits to be,
 * the advice (which is about the next trick already) waits too: it is drawn when the table
 * is cleared (table.js). */
export function drawAdvice() {
  const { state, felt } = store.get();
  if (felt.holding || felt.queue.length || !state?.view) return;
  setText($("advice"), state.view.phase === "over" ? "" : state.advice || "");
}

/** Ask for a hint: the button waits until it comes. */
export function askHint() {
  acted();
  store.merge("hand", { hintPending: true });
  $("hint").disabled = true;
  $("hint-text").textContent = store.get().texts.thinking;
  send({ type: "hint" });
}

export function receiveHint(message) {
  const { state, texts } = store.get();
  store.merge("hand", { hintPending: false, hinted: { action: message.action, events: state?.view?.event_count } });
  $("hint").disabled = false;
  $("hint-text").textContent = `${texts.hint}: ${actionLabel(message.action, texts)} \u2014 ${message.explanation}`;
  showHint();
}

/** The hint lights up what it suggests: its cards, or the button (chance, pick up). It stays
 * lit through redraws until the game moves on. */
function showHint() {
  const { hinted } = store.get().hand;
  for (const node of document.querySelectorAll(".hinted")) node.classList.remove("hinted");
  if (!hinted) return;
  const codes = cardsOf(hinted.action);
  for (const code of codes) $("hand").querySelector(`[data-card="${code}"]`)?.classList.add("hinted");
  if (!codes.length) document.querySelector(`.actions [data-action="${hinted.action}"]`)?.classList.add("hinted");
}

export function receiveError(message) {
  store.merge("hand", { hintPending: false });
  $("hint").disabled = false;
  if (message.code === "hint_busy" || message.code === "hint_cooldown") $("hint-text").textContent = message.message;
  else if (message.code === "damaged") $("status").textContent = message.message;
  else showRefusal(message.message);
  store.merge("hand", { pending: null });
}

function showRefusal(text) {
  const { pending } = store.get().hand;
  $("refusal").textContent = text;
  for (const node of $("hand").querySelectorAll(".refused")) node.classList.remove("refused");
  if (pending) for (const code of pending.cards) $("hand").querySelector(`[data-card="${code}"]`)?.classList.add("refused");
}

/** Anything the player does clears the last refusal (it stays until then, however many
 * states arrive meanwhile). */
export function acted() {
  $("refusal").textContent = "";
  for (const node of $("hand").querySelectorAll(".refused")) node.classList.remove("refused");
}

function drawReactions() {
  const { state, texts, lang } = store.get();
  const box = $("reactions");
  const names = state.table.reactions || [];
  if (box.dataset.names === names.join() && box.dataset.lang === lang) return;
  box.dataset.names = names.join();
  box.dataset.lang = lang;
  box.replaceChildren(...names.map((name) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "reaction";
    button.dataset.reaction = name;
    button.textContent = texts[`table.reaction.${name}`] ?? name;
    const label = texts[`table.reaction_label.${name}`] ?? name;
    button.setAttribute("aria-label", label);
    button.title = label;
    button.addEventListener("click", () => { acted(); store.merge("hand", { pending: null }); send({ type: "react", reaction: name }); });
    return button;
  }));
}
