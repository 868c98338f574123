// The seat's connection: the table this page is of, opening the seat with the token this
// browser keeps (through transport.js, to the server or the offline app's worker), and
// sending. Each message received goes to the handler the page gives; the link is kept in
// the store.
import { $, forgetSeat, savedSeat } from "../page.js";
import { openSeat } from "../transport.js";
import { store } from "./store.js";

/** The id of the table whose page this is: the last part of its address. */
export const tableId = decodeURIComponent(location.pathname.split("/").pop());

/** The coach link's secret when this page is a coach's (`?coach=`, table/coach.js), else null:
 * it opens the coached seat's view instead of this browser's own seat. */
export const coachSecret = new URLSearchParams(location.search).get("coach");

/** Whether this browser holds a seat at the table. */
export function hasSeat() {
  return Boolean(savedSeat(tableId)?.token);
}

/** Open the seat: onMessage gets every message; onRejected runs when the token is refused
 * (it is forgotten first). A connection that drops is opened again by the transport; one set
 * aside as damaged is not (the error message said why). */
export function connect({ onMessage, onRejected }) {
  const { lang, texts } = store.get();
  $("status").textContent = texts.connecting;
  const token = coachSecret ? null : savedSeat(tableId).token;
  const link = openSeat({ tableId, token, coach: coachSecret, lang }, {
    onMessage,
    onOpen: () => {
      store.merge("felt", { ready: false });
      if (document.hidden) store.get().link?.send({ type: "away" });  // opened unseen: the person is away
    },
    onRejected: () => { if (!coachSecret) forgetSeat(tableId); store.update({ link: null }); onRejected(); },
    onClosed: () => store.update({ link: null }),  // set aside as damaged: the error said so
    onLost: () => { $("status").textContent = store.get().texts.disconnected; },
  });
  store.update({ link });
}

export function send(message) {
  store.get().link?.send(message);
}
