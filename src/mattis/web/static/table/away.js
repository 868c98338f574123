// Away and back, and taking a move back. The page tells the table when nobody looks at it
// (its tab hidden: {"type": "away"}) and when someone does again ({"type": "back"}): against
// robots only, the game waits meanwhile; at a table of people a robot may stand in, and when
// the person is back the table tells this seat alone what it played (an `away_summary`
// message), shown here until dismissed. The "Take back" button ([data-action="undo"]) is for
// tables whose other seats are all robots: the state says when the table would grant it
// (`undo`); elsewhere the button is not shown.
import { $ } from "../page.js";
import { send } from "./connection.js";
import { finishHold } from "./felt.js";
import { store } from "./store.js";

/** Tell the table whether this page is looked at (on every change, and when a connection
 * opens hidden: a new connection counts as looked at). */
export function tellVisibility() {
  send({ type: document.hidden ? "away" : "back" });
}

/** Show what a robot played for this seat while the person was away. */
export function showAwaySummary(message) {
  const box = $("away-summary");
  $("away-summary-text").textContent = message.text;
  box.hidden = false;
}

export function dismissAwaySummary() {
  $("away-summary").hidden = true;
  $("away-summary-text").textContent = "";
}

/** Whether the seat's only company is robots (the page shows "Take back" there only). */
function robotsOnly(table) {
  return table.seats.every((seat) => seat.you || seat.kind === "bot");
}

export function drawUndo() {
  const { state } = store.get();
  const button = $("undo");
  button.hidden = !state?.table || !robotsOnly(state.table);
  button.disabled = !state?.undo;
}

/** Take back: a completed trick still held on the table goes at once (it is taken back too). */
export function askUndo() {
  $("undo").disabled = true;
  if (store.get().felt.holding) finishHold(true);
  send({ type: "undo" });
}
