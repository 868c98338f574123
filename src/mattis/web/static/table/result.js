// The result, laid over the table when a game is over: the headline, what happened to you in
// plain words (`result.you`, written by the table: "Du tapte – du er Mattis"), the order out, every
// player's remaining cards (in the order the state gives, `result.sorted_hands`), who is
// Mattis, the match score, "play again", the record and the review of your game (review.js).
import { cardLabel, cardSvg } from "../cards.js";
import { fmt } from "../i18n.js";
import { $ } from "../page.js";
import { playerCall } from "../player.js";
import { recordUrl } from "../transport.js";
import { tableId } from "./connection.js";
import { drawReviewButton } from "./review.js";
import { seatName } from "./seats.js";
import { store } from "./store.js";

export function drawResult(view) {
  const { state, texts } = store.get();
  const over = view.phase === "over" && state.result;
  const justOver = over && $("result").hidden;
  $("result").hidden = !over;
  document.body.classList.toggle("game-over", Boolean(over));
  drawReviewButton(Boolean(over));
  if (!over) return;
  const result = state.result;
  const table = state.table;
  $("headline").textContent = result.headline;
  $("result-you").textContent = result.you || "";
  $("out-order").textContent = result.out_order || "";
  const grid = $("result-table");
  grid.replaceChildren();
  const head = grid.createTHead().insertRow();
  for (const text of [texts["table.player"], texts["table.outcome"], texts["table.cards_left"], texts["table.times_mattis"]]) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = text;
    head.append(cell);
  }
  const body = grid.createTBody();
  table.seats.forEach((_, seat) => {
    const row = body.insertRow();
    const loser = result.losers.includes(seat);
    if (loser) { row.dataset.mattisSeat = String(seat); row.className = "mattis"; }
    row.insertCell().textContent = seatName(seat);
    const place = result.order.indexOf(seat);
    row.insertCell().textContent = loser ? texts["table.mattis"] : place >= 0 ? fmt(texts.out, { n: place + 1 }) : "";
    const cardsCell = row.insertCell();
    const hand = result.hands[seat] || [];
    if (!hand.length) cardsCell.textContent = texts["table.no_cards"];
    else {
      const fan = document.createElement("span");
      fan.className = "result-cards";
      fan.setAttribute("role", "img");
      fan.setAttribute("aria-label", hand.map(cardLabel).join(", "));
      for (const code of result.sorted_hands[seat]) {
        const holder = document.createElement("span");
        holder.className = "result-card";
        holder.dataset.card = code;
        holder.append(cardSvg(code, { trump: Boolean(view.trump) && code[1] === view.trump }));
        fan.append(holder);
      }
      cardsCell.append(fan);
    }
    row.insertCell().textContent = String(table.scores[seat]);
  });
  $("record").href = recordUrl(tableId, table.game);
  if (justOver) $("again").focus({ preventScroll: true });
  if (justOver) showLedgerChanges(table);
}

/** A group's game: what it changed in the group's ledger ("Mormor: 3 Mattis this year (+1
 * run)", an award that changed hands), for a member on this device (docs/ledger.md). */
async function showLedgerChanges(table) {
  const list = $("ledger-changes");
  list.hidden = true;
  list.replaceChildren();
  if (!table.group) return;
  const { lang } = store.get();
  const query = `table=${encodeURIComponent(table.id)}&game=${table.game}&lang=${lang}`;
  let answer = null;
  try { answer = await playerCall("GET", `/api/groups/${encodeURIComponent(table.group)}/changes?${query}`); } catch { return; }
  if (!answer.ok || !answer.data) return;
  for (const line of answer.data.lines) {
    const item = document.createElement("li");
    item.textContent = line;
    list.append(item);
  }
  list.hidden = !list.children.length;
}
