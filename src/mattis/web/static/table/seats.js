// The seats: each seat's name as the page says it, the seats around the felt (this browser's
// at the bottom, the others clockwise from its left, or in a row along the top of a narrow
// felt) with their card counts and badges, and the reactions they send.
import { cardBack } from "../cards.js";
import { fmt, plural } from "../i18n.js";
import { $ } from "../page.js";
import { coachSecret } from "./connection.js";
import { store } from "./store.js";

const REACTION_MS = 3500;

// ------------------------------------------------------------------ names and words

export function seatInfo(seat) {
  return store.get().state.table.seats[seat];
}

/** Whether the page's words say "you" of this seat: the player's own seat, but not on a coach's
 * page, which shows the coached seat yet speaks of that player by name ("Mormors tur"). */
export function isYou(seat) {
  return Boolean(seatInfo(seat)?.you) && !coachSecret;
}

/** A seat as labelled on the felt and in lists: the name, or "You" for this browser's seat. */
export function seatName(seat) {
  const { state, texts } = store.get();
  if (!state) return "";
  const info = seatInfo(seat);
  if (isYou(seat)) return info.name ? `${info.name} (${texts["table.you_mid"]})` : texts.seat_you;
  return info.name || fmt(texts.seat_n, { n: seat + 1 });
}

/** A seat inside a sentence: "du"/"you" for this browser's seat. */
export function person(seat, initial = false) {
  const { texts } = store.get();
  const info = seatInfo(seat);
  if (isYou(seat)) return texts[initial ? "table.you" : "table.you_mid"];
  return info.name || fmt(texts.seat_n, { n: seat + 1 });
}

export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} ${store.get().texts["table.and"]} ${names[names.length - 1]}`;
}

function cardsText(count) {
  const { texts } = store.get();
  return plural(texts, "table.cards", count, { n: count });
}

export function turnText(seat) {
  const { texts } = store.get();
  if (isYou(seat)) return texts.your_turn;
  const who = person(seat, true);
  return fmt(texts[/[sxz]$/i.test(who) ? "table.turn_of_s" : "table.turn_of"], { who });
}

export function levelText(level) {
  const texts = store.get().texts;
  if (level?.startsWith("learned:") && texts.level_checkpoint) {  // a checkpoint the server was allowed
    return fmt(texts.level_checkpoint, { name: level.slice("learned:".length) });
  }
  return texts["level." + level] ?? level ?? "";
}

// ------------------------------------------------------------------ around the felt

function seatOffset(seat) {
  const { state } = store.get();
  const players = state.table.seats.length;
  return (seat - state.seat + players) % players;
}

export function feltLayout() {
  return $("felt").clientWidth < 620 ? "row" : "ring";
}

/** Where a seat goes on the felt, in percent of its width and height: the centre of its top
 * edge. This browser's seat is at the bottom (on a narrow felt at the left, the stock and the
 * trump beside it), the others around the felt or in a row along its top. */
function seatPlace(seat, layout) {
  const players = store.get().state.table.seats.length;
  if (store.get().state.seat === null) {  // a spectator's page: the spectator sits at the bottom, seatless
    if (layout === "row") return { x: (100 * (seat + 0.5)) / players, y: 0 };
    const angle = ((90 + ((seat + 1) * 360) / (players + 1)) * Math.PI) / 180;
    return { x: 50 + 38 * Math.cos(angle), y: 50 + 39 * Math.sin(angle) };
  }
  const offset = seatOffset(seat);
  if (offset === 0) return { x: layout === "row" ? 0 : 50, y: 100 };
  if (layout === "row") return { x: (100 * (offset - 0.5)) / (players - 1), y: 0 };
  const angle = ((90 + (offset * 360) / players) * Math.PI) / 180;
  return { x: 50 + 38 * Math.cos(angle), y: 50 + 39 * Math.sin(angle) };
}

export function seatElement(seat) {
  return $("players").querySelector(`[data-seat="${seat}"]`);
}

export function drawSeats(view) {
  const { state, texts } = store.get();
  const list = $("players");
  const seats = state.table.seats;
  const layout = feltLayout();
  $("felt").dataset.layout = layout;
  if (list.children.length !== seats.length || list.dataset.me !== String(state.seat)) {
    list.replaceChildren(...seats.map((_, seat) => {
      const item = document.createElement("li");
      item.dataset.seat = String(seat);
      item.innerHTML = '<span class="seat-name"></span><span class="seat-facts"></span><span class="seat-badges"></span><span class="bubble" hidden></span>';
      return item;
    }));
    list.dataset.me = String(state.seat);
  }
  const over = view.phase === "over";
  seats.forEach((info, seat) => {
    const item = seatElement(seat);
    const place = seatPlace(seat, layout);
    const inRow = state.seat === null ? seats.length : seats.length - 1;  // a spectator's row holds every seat
    item.style.width = layout === "row" && !info.you ? `min(calc(${100 / inRow}% - 8px), 220px)` : "";
    item.dataset.x = String(place.x);
    item.dataset.y = String(place.y);
    const toMove = !over && view.to_move === seat;
    const botMoves = info.kind === "bot" || info.stand_in;
    item.className = "seat";
    item.classList.toggle("you", info.you);
    item.classList.toggle("to-move", toMove);
    item.classList.toggle("thinking", toMove && botMoves);
    item.classList.toggle("in-war", view.tie.includes(seat));
    item.classList.toggle("out", view.out.includes(seat));
    item.classList.toggle("loser", view.losers.includes(seat));
    item.querySelector(".seat-name").textContent = seatName(seat);
    const factNode = item.querySelector(".seat-facts");
    const count = document.createElement("span");
    const back = document.createElement("span");
    back.className = "mini-back";
    back.append(cardBack());
    count.append(back, " ", cardsText(view.hand_sizes[seat]));
    factNode.replaceChildren(count);
    if (view.phase === "collect") {
      const won = document.createElement("span");
      won.textContent = fmt(texts.won, { n: view.won_sizes[seat] });
      factNode.append(won);
    }
    // the lasting badges first, the passing ones (the turn, a war) last: those come and go
    // without moving the others
    const badges = [];
    if (info.kind === "bot") badges.push(["level", fmt(texts["table.seat_bot"], { level: levelText(info.level) })]);
    if (seat === view.dealer) badges.push(["dealer", texts.dealer]);
    const place2 = view.out_order.indexOf(seat);
    if (place2 >= 0) badges.push(["out", fmt(texts.out, { n: place2 + 1 })]);
    if (view.losers.includes(seat)) badges.push(["mattis", texts["table.mattis"]]);
    if (info.kind === "human" && !info.connected && !info.you && !info.stand_in) badges.push(["away", texts.away]);
    if (info.stand_in) badges.push(["away", fmt(texts["table.stand_in"], { name: info.name || fmt(texts.seat_n, { n: seat + 1 }) })]);
    if (view.trump_holder === seat && view.phase === "collect") badges.push(["trump", texts.holds_trump]);
    if (info.coached) badges.push(["coached", texts["table.coach.badge"]]);  // table/coach.js
    if (info.coached) item.dataset.coached = String(seat); else delete item.dataset.coached;
    if (toMove) badges.push(["turn", botMoves ? texts["table.thinking"] : texts["table.to_move"]]);
    if (view.tie.includes(seat)) badges.push(["war", texts["table.in_war"]]);
    item.querySelector(".seat-badges").replaceChildren(...badges.map(([kind, text]) => {
      const badge = document.createElement("span");
      badge.className = `badge badge-${kind}`;
      badge.textContent = text;
      return badge;
    }));
  });
  placeSeats();
}

/** Put each seat at its place on the felt, wholly inside it. A seat is placed by its top edge,
 * worked out once for the felt's size (and again when the felt changes size): a badge that
 * comes or goes then grows or shrinks it downward and moves nothing on the table. */
export function placeSeats() {
  const felt = $("felt");
  const width = felt.clientWidth;
  const height = felt.clientHeight;
  const size = `${width}x${height}x${felt.dataset.layout}`;
  for (const item of $("players").children) {
    const half = item.offsetWidth / 2 + 4;
    const x = Math.min(Math.max((Number(item.dataset.x) / 100) * width, half), width - half);
    item.style.left = `${Math.round(x)}px`;
    if (item.dataset.placedFor === size) continue;
    item.dataset.placedFor = size;
    const tall = item.offsetHeight;  // with a line kept for badges, even when it has none
    const y = (Number(item.dataset.y) / 100) * height - tall / 2;
    item.style.top = `${Math.round(Math.min(Math.max(y, 4), height - tall - 4))}px`;
  }
}

// ------------------------------------------------------------------ reactions

/** A reaction someone sent, shown in a bubble at their seat for a few seconds. */
export function showReaction(message) {
  const { state, texts, bubbles } = store.get();
  const item = seatElement(message.seat);
  if (!item || !state) return;
  const bubble = item.querySelector(".bubble");
  const shown = texts[`table.reaction.${message.reaction}`] ?? message.reaction;
  bubble.textContent = shown;
  bubble.dataset.shownReaction = message.reaction;
  bubble.hidden = false;
  bubble.setAttribute("aria-label", fmt(texts["table.reaction_from"], {
    who: person(message.seat, true), reaction: texts[`table.reaction_label.${message.reaction}`] ?? shown }));
  clearTimeout(bubbles[message.seat]);
  const timer = setTimeout(() => { bubble.hidden = true; delete bubble.dataset.shownReaction; }, REACTION_MS);
  store.merge("bubbles", { [message.seat]: timer });
}
