// The table page: the invite page for a friend, the waiting room, and the card table itself.
// It keeps the seat token in this browser, talks to the table through transport.js (the
// server, or the offline app's worker) and draws each state it receives. The state brings
// everything that follows from the rules (the hand in order, the plays of each card, the
// tied cards, the card that took a trick): the page draws and does not think.
//
// This module puts the page together; its parts are in static/table/:
//   store.js       the one store: everything the page knows and remembers
//   connection.js  the table's id, the seat's connection, sending
//   felt.js        the felt and its motion: the cards on the table, held tricks, wars, the stock
//   hand.js        the hand, the buttons under it, refusals, hints, reactions to send
//   seats.js       the seats around the felt, their names in words, reactions received
//   join.js        the invite page and the waiting room
//   log.js         the log
//   result.js      the result
//   review.js      the review of your game, from the result screen (a sheet over the table)
//   rules_sheet.js the rules as a sheet over the table
//   settings.js    the device's settings: large cards, four colours, two-tap confirm
//   sound.js       sounds, the vibration on your turn, the mute button
//   away.js        away and back (the tab hidden), what a robot played meanwhile, taking back
//   coach.js       a coach, with consent: the player's link, the coach's page, suggestions
//   watchers.js    spectators: watching from no seat, the count, the watch link and its switch
// Test hooks (data-card, data-playable, data-action, data-table, data-last-trick, data-war,
// data-refusal, data-result, data-mattis-seat, data-reaction) are a contract: docs/web.md.
import { currentLang, fmt, langSwitch, loadTexts } from "./i18n.js";
import { $, fillTexts, setText, takeOfflineNote } from "./page.js";
import { onPreference } from "./prefs.js";
import { isLocal } from "./transport.js";
import { connect, hasSeat, send, tableId } from "./table/connection.js";
import { drawArea, drawDeck, positions, takeFelt } from "./table/felt.js";
import {
  acted, askHint, dismissChooser, closeChooser, drawAdvice, drawControls, drawHand, layoutHand, notePointer, play,
  receiveError, receiveHint, takeHand,
} from "./table/hand.js";
import { copyInvite, drawWaiting, join, shareInvite, showJoin } from "./table/join.js";
import { drawLog, logOpen, setLogOpen, takeLog } from "./table/log.js";
import { drawResult } from "./table/result.js";
import { wireReview } from "./table/review.js";
import { rulesOpen, wireRules } from "./table/rules_sheet.js";
import { playSounds, soundsFor, wireMute } from "./table/sound.js";
import { askUndo, dismissAwaySummary, drawUndo, showAwaySummary, tellVisibility } from "./table/away.js";
import { coachEnded, coaching, drawCoach, receiveCoachLink, showCoachGone, wireCoach } from "./table/coach.js";
import { drawSeats, feltLayout, placeSeats, showReaction, turnText } from "./table/seats.js";
import { startSettings } from "./table/settings.js";
import { store } from "./table/store.js";
import { connectSpectator, receiveWatchError, showWatcherReaction, spectating, takeWatchers } from "./table/watchers.js";

// ------------------------------------------------------------------ messages

function receive(message) {
  if (message.type === "state") takeState(message);
  else if (message.type === "hint") receiveHint(message);
  else if (message.type === "reaction") (message.seat === null ? showWatcherReaction : showReaction)(message);
  else if (message.type === "watchers") takeWatchers(message);
  else if (message.type === "error") { if (!coachEnded(message) && !receiveWatchError(message)) receiveError(message); }
  else if (message.type === "away_summary") showAwaySummary(message);
  else if (message.type === "coach_link") receiveCoachLink(message);
}

/** A state message goes into the store in one change; the page draws it (below). */
function takeState(message) {
  store.update((before) => ({
    state: message,
    log: takeLog(before.log, message),
    // a new game, or moves taken back: the felt shows the table as it is, with no motion
    felt: takeFelt(before.felt, message, message.table.game !== before.log.game
      || (message.takebacks ?? 0) !== (before.state?.takebacks ?? 0)),
    hand: takeHand(before.hand, message),
    watchers: { count: message.table.watchers ?? 0, allowed: message.table.watching ?? true },
  }));
}

function connectSeat() {
  connect({ onMessage: receive, onRejected: coaching ? () => showCoachGone(store.get().coachEnded) : showJoin });
}

// ------------------------------------------------------------------ drawing

function draw() {
  const { state, texts } = store.get();
  const table = state.table;
  $("join").hidden = true;
  $("seeded-badge").hidden = !table.seeded;
  $("waiting").hidden = table.status !== "waiting";
  $("game").hidden = !state.view;
  $("log-toggle").hidden = !state.view;
  if (!state.view) { drawWaiting(); drawCoach(); return; }
  const view = state.view;
  const over = view.phase === "over";
  $("game").dataset.events = String(view.event_count);
  $("game").dataset.toMove = view.to_move === null ? "" : String(view.to_move);
  const phase = over ? "" : ` \u00b7 ${texts["phase." + view.phase] ?? ""}`;
  const turn = over ? texts["phase.over"] : turnText(view.to_move);
  setText($("status"), `${fmt(texts.game_n, { n: table.game })}${phase} \u00b7 ${turn}`);
  document.body.classList.toggle("my-turn", state.legal.length > 0);
  const before = positions();
  drawSeats(view);
  drawDeck(view);
  drawHand(view);
  drawControls(view);
  drawUndo();
  drawResult(view);
  drawLog();
  drawArea(before);
  drawCoach();
}

/** The page's words, and the few labels that are not plain [data-text]. */
function showWords() {
  const { texts, lang } = store.get();
  fillTexts(texts, lang, { back: location.pathname, onLang: switchLang });
  langSwitch($("settings-lang"), lang, switchLang, texts._languages);  // the header has no room for it on a phone
  for (const image of document.querySelectorAll("img[data-qr]")) {
    image.alt = texts["table.qr_alt"] ?? "";
    // a table on this device has nobody to invite, and no server that knows it
    if (!isLocal(tableId)) image.src = `/api/tables/${encodeURIComponent(tableId)}/qr.svg`;
  }
  $("area").setAttribute("aria-label", texts["table.felt"] ?? "");
  $("reactions").setAttribute("aria-label", texts["table.reactions"] ?? "");
}

async function switchLang(code) {
  const texts = await loadTexts(code);
  const lang = texts._lang;
  store.update({ lang, texts });
  if (store.get().link) send({ type: "lang", lang }); else if (!spectating()) showJoin();
}

store.subscribe((now, before) => {
  if (now.texts !== before.texts) showWords();
  if (now.state !== before.state && now.state) {
    draw();
    playSounds(soundsFor(before.state, now.state));
  }
  if (before.felt.holding && !now.felt.holding) drawAdvice();  // the held trick is cleared: advice about the next
});

// ------------------------------------------------------------------ wiring

$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  join(connectSeat);
});
$("chance").addEventListener("click", () => play("chance"));
$("pickup").addEventListener("click", () => play("pickup"));
$("hint").addEventListener("click", askHint);
$("undo").addEventListener("click", () => { acted(); askUndo(); });
$("away-summary-close").addEventListener("click", dismissAwaySummary);
document.addEventListener("visibilitychange", tellVisibility);
$("again").addEventListener("click", () => { acted(); send({ type: "again" }); });
$("chooser-close").addEventListener("click", dismissChooser);
$("hand").addEventListener("pointerdown", notePointer);
$("log-toggle").addEventListener("click", () => setLogOpen(!logOpen()));
$("log-close").addEventListener("click", () => { setLogOpen(false); $("log-toggle").focus(); });
$("copy").addEventListener("click", copyInvite);
$("share").addEventListener("click", shareInvite);
wireRules();
wireReview();
wireMute();
wireCoach();
document.addEventListener("keydown", (event) => {
  const { state } = store.get();
  if (event.target instanceof HTMLInputElement || !state || event.ctrlKey || event.metaKey || event.altKey) return;
  if (rulesOpen()) return;  // reading the rules: the sheet has the keys (Escape closes it)
  if (event.key === "Escape") { closeChooser(); setLogOpen(false); dismissAwaySummary(); }
  if (event.key === "c" && state.legal.includes("chance")) play("chance");
  if (event.key === "p" && state.legal.includes("pickup")) play("pickup");
  if (event.key === "h" && state.legal.length) $("hint").click();
});
const resized = new ResizeObserver(() => {
  const { state } = store.get();
  if (!state?.view) return;
  layoutHand();
  if ($("felt").dataset.layout !== feltLayout()) drawSeats(state.view);
  else placeSeats();
});
resized.observe($("felt"));
resized.observe($("hand"));

startSettings(() => { if (store.get().state?.view) layoutHand(); });
onPreference("four-colour", () => { if (store.get().state?.view) draw(); });  // every card in its new ink

async function start() {
  const texts = await loadTexts(currentLang());
  store.update({ lang: texts._lang, texts });  // the language the server chose, when none was asked for
  $("device-badge").hidden = !isLocal(tableId);  // a game the offline app keeps on this device
  if (takeOfflineNote()) $("offline-note").hidden = false;  // no server answered when it was dealt: say so once
  if (spectating()) connectSpectator(receive);  // the watch link: from no seat, whatever this browser holds
  else if (coaching || hasSeat()) connectSeat(); else showJoin();
}
start();
