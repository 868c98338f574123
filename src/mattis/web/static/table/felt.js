// The felt: the cards on the table (each flying in from whoever played it), every completed
// trick held a moment with its winning card marked before it goes to the winner, a war's
// banner and its tied cards lit up, picked-up cards flying to their taker, and the stock and
// the trump. Which cards tied and which took a trick come with the state (`tied`,
// `last_trick.winning`): the felt only shows them. Nothing moves under
// prefers-reduced-motion.
import { cardBack, cardLabel, cardSvg, suitSymbol } from "../cards.js";
import { fmt } from "../i18n.js";
import { $ } from "../page.js";
import { isYou, joinNames, person, seatElement, seatInfo } from "./seats.js";
import { store } from "./store.js";

/** How long a completed trick stays on the table before it goes to the winner. Tests shorten
 * it with ?pause=MS or localStorage "mattis.trickPause". */
const TRICK_PAUSE_MS = pauseSetting(1500);
const MOVE_MS = 300;
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

function pauseSetting(fallback) {
  const asked = new URLSearchParams(location.search).get("pause") ?? localStorage.getItem("mattis.trickPause");
  const value = Number(asked);
  return asked !== null && asked !== "" && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** The felt's part of the store after a state message: a fresh start (the first state, a
 * new game, a reconnect) shows the table as it is; otherwise a newly completed trick waits to
 * be held and picked-up cards wait to fly. */
export function takeFelt(felt, message, newGame) {
  const trick = message.last_trick;
  if (!felt.ready || newGame || !message.view) {
    return { ...felt, shownTrick: trick ? trick.number : -1, queue: [], pickups: [], ready: Boolean(message.view) };
  }
  const completed = Boolean(trick) && trick.number > felt.shownTrick;
  const pickups = message.view.history.filter((event) => event.event === "pickup");
  return {
    ...felt,
    shownTrick: completed ? trick.number : felt.shownTrick,
    queue: completed ? [...felt.queue, trick] : felt.queue,
    pickups: [...felt.pickups, ...pickups],
  };
}

/** Where every card and seat is now, so what changes can move from there. */
export function positions() {
  const cards = new Map();
  for (const node of document.querySelectorAll("#hand [data-card], #area [data-card]")) cards.set(node.dataset.card, node.getBoundingClientRect());
  return cards;
}

// ------------------------------------------------------------------ the cards on the table

export function drawArea(before) {
  const { state, texts, felt } = store.get();
  const view = state.view;
  if (felt.holding) return;  // the held trick stays until its time is up; the state is drawn then
  if (felt.queue.length) {
    const [trick, ...rest] = felt.queue;
    store.merge("felt", { queue: rest });
    startHold(trick, before);
    return;
  }
  const pickedUp = felt.pickups;
  store.merge("felt", { pickups: [] });
  const oldCards = new Map([...document.querySelectorAll("#area [data-card]")].map((node) => [node.dataset.card, node]));
  renderPlays(view.table, { tied: new Set(state.tied) }, before);
  showNote(view.phase === "shed" && view.table.length
    ? fmt(texts["table.trick_size"], { played: view.table.length, size: view.trick_size }) : "");
  drawWar(view);
  for (const event of pickedUp) {
    for (const code of event.cards) {
      const node = oldCards.get(code);
      const from = before.get(code);
      if (node && from && !$("area").querySelector(`[data-card="${code}"]`)) flyAway(code, from, seatTarget(event.seat));
    }
  }
}

/** The note over the cards, in a pill of its own inside the line: the line keeps its place
 * whatever the note's length, and a note is said once (it is a live region). */
function showNote(text) {
  const note = $("trick-note");
  if (note.textContent === text) return;
  if (!text) { note.replaceChildren(); return; }
  const pill = document.createElement("span");
  pill.textContent = text;
  note.replaceChildren(pill);
}

function drawWar(view) {
  const { texts, felt } = store.get();
  const war = $("war");
  if (!view.tie.length || felt.holding) { war.hidden = true; return; }
  war.hidden = false;
  const names = view.tie.map((seat, index) => person(seat, index === 0));
  war.replaceChildren();
  const title = document.createElement("strong");
  title.textContent = texts["table.war"];
  war.append(title, " ", fmt(texts["table.war_between"], { names: joinNames(names) }));
}

function renderPlays(entries, { tied = new Set(), winning = new Set(), trick = null }, before) {
  const { state, texts } = store.get();
  const area = $("area");
  const trump = state.view.trump;
  const group = document.createElement("div");
  group.className = "plays";
  if (trick) {
    group.dataset.lastTrick = String(trick.number);
    group.dataset.reason = trick.reason;
    if (trick.winner !== null) group.dataset.winner = String(trick.winner);
  }
  for (const [seat, codes] of entries) {
    const play = document.createElement("div");
    play.className = "play";
    play.setAttribute("role", "listitem");
    play.dataset.seat = String(seat);
    const cards = document.createElement("div");
    cards.className = "play-cards";
    for (const code of codes) {
      const holder = document.createElement("span");
      holder.className = "table-card";
      holder.dataset.card = code;
      holder.setAttribute("role", "img");
      let label = fmt(texts["table.played_by"], { card: cardLabel(code), who: isYou(seat) ? texts["table.you_object"] : person(seat) });
      if (tied.has(code)) { holder.classList.add("tied"); holder.dataset.tied = "true"; label += ` (${texts["table.in_war"]})`; }
      if (winning.has(code)) { holder.classList.add("winning"); holder.dataset.winning = "true"; label += ` (${texts["table.winning_card"]})`; }
      holder.setAttribute("aria-label", label);
      holder.append(cardSvg(code, { trump: Boolean(trump) && code[1] === trump }));
      cards.append(holder);
    }
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = person(seat, true);  // "You" under your own cards: short, and plain
    play.append(cards, who);
    if (codes.some((code) => winning.has(code))) {
      // one mark for the play (a run wins as one), under its cards: it covers no rank
      const mark = document.createElement("span");
      mark.className = "win-mark";
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = texts["table.winning_card"];
      play.append(mark);
    }
    group.append(play);
  }
  area.replaceChildren(group);
  fitArea(entries);
  for (const node of area.querySelectorAll("[data-card]")) {
    const seat = Number(node.closest(".play").dataset.seat);
    const from = before.get(node.dataset.card) ?? seatTarget(seat);
    if (from) flyIn(node, from);
  }
}

/** Cards on the table shrink when many are on it (a long war, a full phase-2 table), until
 * they fit the middle of the felt: nothing there may spill over the seats around it. */
function fitArea(entries) {
  const area = $("area");
  const cards = entries.reduce((sum, [, codes]) => sum + codes.length, 0);
  let size = cards <= 6 && entries.length <= 6 ? 1 : cards <= 9 ? 0.82 : cards <= 14 ? 0.68 : 0.56;
  area.style.setProperty("--fit", String(size));
  const group = area.firstElementChild;
  while (group && size > 0.4 && (group.offsetHeight > area.clientHeight || group.offsetWidth > area.clientWidth)) {
    size -= 0.06;
    area.style.setProperty("--fit", size.toFixed(2));
  }
}

// ------------------------------------------------------------------ a completed trick, held

function startHold(trick, before) {
  const { texts } = store.get();
  store.merge("felt", { holding: { trick, timer: null } });
  $("war").hidden = true;
  renderPlays(trick.cards, { winning: new Set(trick.winning), trick }, before);
  const winner = trick.winner;
  $("trick-note").classList.add("held");
  showNote(trick.reason === "taken_back" ? texts["table.taken_back"]
    : trick.reason === "won" ? (isYou(winner) ? texts["table.took_trick_you"] : fmt(texts["table.took_trick"], { who: person(winner, true) }))
      : (isYou(winner) ? texts["table.cleared_you"] : fmt(texts["table.cleared"], { who: person(winner) })));
  const pause = store.get().felt.queue.length ? Math.min(TRICK_PAUSE_MS, 500) : TRICK_PAUSE_MS;
  store.merge("felt", { holding: { trick, timer: setTimeout(() => finishHold(false), pause) } });
}

/** The held trick goes: to the winner's pile (phase 1), out of the game (phase 2), or back
 * to each player (P1.8); then the table as it is now. `quick`: at once, without motion (the
 * player moved on). */
export function finishHold(quick) {
  const { holding } = store.get().felt;
  if (!holding) return;
  const { trick, timer } = holding;
  clearTimeout(timer);
  const nodes = [...$("area").querySelectorAll("[data-card]")];
  const done = () => {
    const now = store.get().felt.holding;
    if (!now || now.trick !== trick) return;
    store.merge("felt", { holding: null });
    showNote("");
    $("trick-note").classList.remove("held");
    drawArea(positions());
  };
  if (quick || reducedMotion.matches || !nodes.length) { done(); return; }
  for (const node of nodes) {
    const seat = trick.reason === "won" || trick.winner === null ? Number(node.closest(".play").dataset.seat) : null;
    const target = trick.reason === "won" ? seatTarget(trick.winner) : trick.reason === "taken_back" ? seatTarget(seat) : null;
    leave(node, target);
  }
  setTimeout(done, MOVE_MS);
}

// ------------------------------------------------------------------ motion

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

function seatTarget(seat) {
  if (seat === null || seat === undefined) return null;
  if (seatInfo(seat)?.you && $("hand").children.length) return $("hand").getBoundingClientRect();
  return seatElement(seat)?.getBoundingClientRect() ?? null;
}

function flyIn(node, from) {
  if (reducedMotion.matches) return;
  const to = node.getBoundingClientRect();
  const a = centre(from);
  const b = centre(to);
  if (Math.abs(a.x - b.x) < 2 && Math.abs(a.y - b.y) < 2) return;
  const scale = Math.min(1.6, Math.max(0.4, from.width / Math.max(1, to.width)));
  node.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})` }, { transform: "none" }],
    { duration: MOVE_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
}

function leave(node, target) {
  if (reducedMotion.matches) return;
  const from = centre(node.getBoundingClientRect());
  const frames = target
    ? [{ transform: "none", opacity: 1 }, { transform: `translate(${centre(target).x - from.x}px, ${centre(target).y - from.y}px) scale(.35)`, opacity: 0.2 }]
    : [{ transform: "none", opacity: 1 }, { transform: "scale(.6)", opacity: 0 }];
  node.animate(frames, { duration: MOVE_MS, easing: "ease-in", fill: "forwards" });
}

/** A picked-up play leaves the table for the hand of whoever took it. */
function flyAway(code, from, target) {
  if (reducedMotion.matches || !target) return;
  const ghost = document.createElement("span");
  ghost.className = "ghost-card";
  ghost.setAttribute("aria-hidden", "true");
  ghost.style.left = `${from.left}px`;
  ghost.style.top = `${from.top}px`;
  ghost.style.width = `${from.width}px`;
  ghost.style.height = `${from.height}px`;
  ghost.append(cardSvg(code));
  document.body.append(ghost);
  const a = centre(from);
  const b = centre(target);
  const motion = ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.5)`, opacity: 0.3 }],
    { duration: MOVE_MS, easing: "ease-in" });
  motion.finished.then(() => ghost.remove(), () => ghost.remove());
}

// ------------------------------------------------------------------ the stock and the trump

export function drawDeck(view) {
  const { texts } = store.get();
  const deck = $("deck");
  deck.replaceChildren();
  if (view.phase === "collect" || view.stock_size > 0) {
    const stock = document.createElement("div");
    stock.className = "stock";
    const holder = document.createElement("span");
    holder.className = "deck-card";
    if (view.stock_size > 0) holder.append(cardBack()); else holder.classList.add("empty");
    const label = document.createElement("small");
    label.textContent = `${texts.stock}: ${view.stock_size}`;
    stock.append(holder, label);
    deck.append(stock);
  }
  const trump = document.createElement("div");
  trump.className = "trump";
  const label = document.createElement("small");
  if (view.trump_card) {
    const holder = document.createElement("span");
    holder.className = "deck-card";
    holder.dataset.trumpCard = view.trump_card;
    holder.setAttribute("role", "img");
    holder.setAttribute("aria-label", `${texts.trump}: ${cardLabel(view.trump_card)}`);
    holder.append(cardSvg(view.trump_card, { trump: true }));
    trump.append(holder);
    label.textContent = texts.trump;
  } else {
    label.textContent = `${texts.trump}: ${view.trump ? suitSymbol(view.trump) : texts.trump_unknown}`;
  }
  trump.append(label);
  deck.append(trump);
}
