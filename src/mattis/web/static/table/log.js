// The log: sentences about what happened, in order with the newest last (a whole game), in a
// column beside the table on a wide screen and in a drawer ("Log" in the header) elsewhere,
// announced politely to screen readers; wars, going out, Mattis, trumps and the end of
// collecting in colour. A new line is added at the end and the log scrolls to it (unless the
// reader has scrolled back), so the lines already there never move on the page.
import { $ } from "../page.js";
import { store } from "./store.js";

/** The most lines shown: more than a game has, so no line goes while one is played (taking
 * lines off the top would move the others). */
const SHOWN = 600;

/** The log's part of the store after a state message, which carries the lines from
 * `log_start` on. A new game starts a new log; a language switch or a reconnect (lines from
 * before the ones shown) draws it all again. */
export function takeLog(log, message) {
  const newGame = message.table.game !== log.game;
  const lines = newGame ? [] : log.lines;
  const kinds = newGame ? [] : log.kinds;
  return {
    game: message.table.game,
    lines: lines.slice(0, message.log_start).concat(message.log),
    kinds: kinds.slice(0, message.log_start).concat(message.log_kinds || []),
    shown: message.log_start < log.shown || newGame ? -1 : log.shown,
  };
}

export function drawLog() {
  const { lines, kinds, shown } = store.get().log;
  const list = $("log");
  const kindClass = (index) => {
    const kind = kinds[index];
    return kind && /^[a-z_]+$/.test(kind) ? `log-${kind}` : "";
  };
  const item = (index) => {
    const li = document.createElement("li");
    li.textContent = lines[index];
    li.className = kindClass(index);
    return li;
  };
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  if (shown < 0 || shown > lines.length) {
    list.setAttribute("aria-busy", "true");
    const first = Math.max(0, lines.length - SHOWN);
    list.replaceChildren(...lines.slice(first).map((_, offset) => item(first + offset)));
    list.removeAttribute("aria-busy");
  } else {
    for (let index = shown; index < lines.length; index++) list.append(item(index));
    while (list.children.length > SHOWN) list.firstElementChild.remove();
  }
  if (atEnd || shown < 0) list.scrollTop = list.scrollHeight;
  store.merge("log", { shown: lines.length });
}

export function setLogOpen(open) {
  document.body.classList.toggle("log-open", open);
  $("log-toggle").setAttribute("aria-expanded", String(open));
  if (open) $("log-close").focus({ preventScroll: true });
}

export function logOpen() {
  return document.body.classList.contains("log-open");
}
