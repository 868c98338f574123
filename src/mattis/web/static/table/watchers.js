// Spectators (docs/web.md, "Spectators"). A page opened with the table's watch link
// (/t/ID?watch=TOKEN) watches from no seat: it gets the public view, shows the felt with nobody
// at the bottom, says "Du ser på" / "Watching", shows no hand and no buttons that act, and may
// send reactions. A player's page shows how many watch ([data-watchers]), offers the watch
// link to share (the waiting room and the settings panel) and the switch that lets others
// watch or not. The server decides everything; the page only draws what it is told.
import { fmt, plural } from "../i18n.js";
import { $ } from "../page.js";
import { openSeat } from "../transport.js";
import { tableId } from "./connection.js";
import { store } from "./store.js";

const REACTION_MS = 3500;

/** The watch link's secret this page was opened with, or "" for a player's page. */
export const watchToken = new URLSearchParams(location.search).get("watch") || "";

/** Whether this page watches the table from no seat. */
export function spectating() {
  return Boolean(watchToken);
}

/** Open the spectator's connection: onMessage gets every message. A link refused (a wrong
 * secret, watching turned off) is not opened again; the error said why. */
export function connectSpectator(onMessage) {
  const { lang, texts } = store.get();
  $("status").textContent = texts.connecting;
  const link = openSeat({ tableId, watch: watchToken, lang }, {
    onMessage,
    onOpen: () => { store.merge("felt", { ready: false }); $("watch-note").hidden = true; },
    onRejected: () => store.update({ link: null }),
    onClosed: () => store.update({ link: null }),
    onLost: () => { $("status").textContent = store.get().texts.disconnected; },
  });
  store.update({ link });
}

/** A refusal that concerns watching itself (the link, the switch, the room) is said above
 * the felt, where a spectator sees it; anything else is the hand's to show. */
export function receiveWatchError(message) {
  if (!spectating() || !["bad_token", "watching_off", "too_many_watchers"].includes(message.code)) return false;
  $("watch-note").textContent = message.message;
  $("watch-note").hidden = false;
  $("status").textContent = "";
  if (message.code !== "too_many_watchers") {  // the link no longer opens the table (a full one is tried again)
    document.body.classList.add("watch-ended");
    $("spectating-badge").hidden = true;
    store.update({ watchers: { count: 0, allowed: message.code !== "watching_off" } });
  }
  return true;
}

/** How many watch, and whether the players allow it, as the last state or `watchers`
 * message said. */
export function takeWatchers(message) {
  store.update({ watchers: { count: message.count, allowed: message.allowed } });
}

/** A spectator's reaction: shown for a few seconds beside the count of those watching. */
export function showWatcherReaction(message) {
  const { texts } = store.get();
  const bubble = $("watchers-bubble");
  const shown = texts[`table.reaction.${message.reaction}`] ?? message.reaction;
  bubble.textContent = shown;
  bubble.dataset.shownReaction = message.reaction;
  bubble.setAttribute("aria-label", fmt(texts["table.reaction_from"], {
    who: texts["table.spectator"], reaction: texts[`table.reaction_label.${message.reaction}`] ?? shown }));
  bubble.hidden = false;
  clearTimeout(Number(bubble.dataset.timer));
  bubble.dataset.timer = String(setTimeout(() => { bubble.hidden = true; delete bubble.dataset.shownReaction; }, REACTION_MS));
}

// ------------------------------------------------------------------ drawing

function drawWatchers() {
  const { state, texts, watchers } = store.get();
  const count = watchers?.count ?? 0;
  const badge = $("watchers");
  badge.dataset.watchers = String(count);
  badge.hidden = count === 0;
  $("watchers-text").textContent = plural(texts, "table.watchers", count, { n: count });
  const link = state?.table?.watch;  // a seated player's, on a host with links
  for (const input of document.querySelectorAll("[data-watch-link]")) input.value = link ? location.origin + link : "";
  $("settings-watch").hidden = !link;
  $("waiting-watch").hidden = !link;
  const allowed = watchers?.allowed ?? true;
  for (const box of document.querySelectorAll("[data-watching-allowed]")) box.checked = allowed;
  for (const share of document.querySelectorAll(".watch-row")) share.hidden = !allowed;
}

function drawSpectating() {
  document.body.classList.toggle("spectating", spectating());
  $("spectating-badge").hidden = !spectating();
}

// ------------------------------------------------------------------ wiring

/** Put the watch link's copy-and-share box in its places, and wire the switch. */
function wire() {
  const template = $("watch-share-template");
  for (const place of document.querySelectorAll(".watch-share")) {
    place.append(template.content.cloneNode(true));
    const input = place.querySelector("[data-watch-link]");
    const copy = place.querySelector(".watch-copy");
    copy.addEventListener("click", async () => {
      input.select();
      try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand("copy"); }
      copy.textContent = store.get().texts.copied;
    });
    const share = place.querySelector(".watch-native-share");
    share.hidden = !(navigator.share && matchMedia("(pointer: coarse)").matches);
    share.addEventListener("click", async () => {
      const { texts } = store.get();
      try { await navigator.share({ title: texts.title, text: texts["table.watch_text"], url: input.value }); } catch { /* cancelled */ }
    });
  }
  for (const box of document.querySelectorAll("[data-watching-allowed]")) {
    box.addEventListener("change", () => store.get().link?.send({ type: "watching", allowed: box.checked }));
  }
  store.subscribe((now, before) => {
    if (now.watchers !== before.watchers || now.state !== before.state || now.texts !== before.texts) drawWatchers();
  });
  drawSpectating();
}

wire();
