// A coach, with consent (docs/web.md, "A coach"). Two sides of one page:
//   the player: "Get a coach" in the settings panel asks the table for a link (coach_link),
//     shows it with a copy button and its QR code, and "End coaching" (coach_revoke) while a
//     link is open; the coach's suggestion is a line ([data-suggestion]) and a ringed card,
//     until the game moves on (the state's `coach`, which the server keeps);
//   the coach: the same page opened with ?coach=SECRET sees the coached seat's hand and legal
//     moves under a banner ("You are coaching Mormor"), and a card tapped is suggested, never
//     played (hand.js asks moveMessage).
// Every seat shows who has a coach ([data-coached="N"] and a badge, seats.js).
import { fmt } from "../i18n.js";
import { $, setText } from "../page.js";
import { isLocal } from "../transport.js";
import { coachSecret, send, tableId } from "./connection.js";
import { store } from "./store.js";

/** Whether this page is a coach's. */
export const coaching = Boolean(coachSecret);

/** The message a move chosen on this page sends: played by the player, suggested by a coach. */
export function moveMessage(action) {
  return { type: coaching ? "suggest" : "act", action };
}

/** The answer to coach_link: the link, kept on the page while it is open. */
export function receiveCoachLink(message) {
  store.update({ coachLink: location.origin + message.url });
  drawCoachPanel();
  $("coach-url").focus({ preventScroll: true });
}

/** The player's part of the settings panel: ask, show the link, end it. */
export function drawCoachPanel() {
  const { state, coachLink, texts } = store.get();
  const panel = $("coach-panel");
  panel.hidden = coaching || isLocal(tableId) || !state?.table;  // a table on this device has no link to give
  if (panel.hidden) return;
  const open = Boolean(state.coach?.link);
  const shown = open && coachLink ? coachLink : "";
  $("coach-share").hidden = !shown;
  $("coach-end").hidden = !open;
  $("coach-get").textContent = texts[open ? "table.coach.new" : "table.coach.get"] ?? "";
  if ($("coach-url").value !== shown) {
    $("coach-url").value = shown;
    $("coach-copy").textContent = texts.copy ?? "";
    const image = $("coach-qr");
    if (shown) image.src = `/api/tables/${encodeURIComponent(tableId)}/coach.svg?coach=${encodeURIComponent(new URL(shown).searchParams.get("coach"))}`;
    else image.removeAttribute("src");
  }
  $("coach-qr").alt = texts["table.coach.qr_alt"] ?? "";
}

/** What the state says about coaching, on either side: the banner, the suggestion. */
export function drawCoach() {
  const { state, texts } = store.get();
  document.body.classList.toggle("coaching", coaching);
  if (coaching && state?.table) {
    const info = state.table.seats[state.seat];
    const name = info?.name || fmt(texts.seat_n, { n: state.seat + 1 });
    $("coach-banner").hidden = false;
    setText($("coach-banner-title"), fmt(texts["table.coach.banner"], { name }));
    setText($("coach-banner-help"), fmt(texts["table.coach.tap"], { name }));
  }
  drawCoachPanel();
  showSuggestion();
}

/** The coach's suggestion lights up its cards (or its button) and says itself in a line. */
export function showSuggestion() {
  const suggestion = store.get().state?.coach?.suggestion ?? null;
  for (const node of document.querySelectorAll(".suggested")) {
    node.classList.remove("suggested");
    delete node.dataset.suggested;
  }
  const line = $("suggestion");
  line.hidden = !suggestion;
  setText(line, suggestion ? suggestion.text : "");
  if (!suggestion) return;
  const plays = store.get().state.card_actions ?? {};
  const codes = Object.keys(plays).filter((code) => plays[code].includes(suggestion.action));
  const nodes = codes.length ? codes.map((code) => $("hand").querySelector(`[data-card="${code}"]`))
    : [document.querySelector(`.actions [data-action="${suggestion.action}"]`)];
  for (const node of nodes) {
    if (!node) continue;
    node.classList.add("suggested");
    node.dataset.suggested = "true";
  }
}

/** The coach's page when its link no longer works (ended, replaced, or never was). */
export function showCoachGone(ended) {
  const { texts } = store.get();
  $("game").hidden = true;
  $("waiting").hidden = true;
  $("coach-banner").hidden = false;
  setText($("coach-banner-title"), texts[ended ? "table.coach.ended" : "table.coach.gone"] ?? "");
  setText($("coach-banner-help"), "");
  setText($("status"), "");
}

/** A coach told its link has ended (then its socket closes): say so, once. */
export function coachEnded(message) {
  if (coaching && message.code === "coach_ended") { store.update({ coachEnded: true }); return true; }
  return false;
}

export async function copyCoachLink() {
  $("coach-url").select();
  try { await navigator.clipboard.writeText($("coach-url").value); } catch { document.execCommand("copy"); }
  $("coach-copy").textContent = store.get().texts.copied;
}

/** Wire the player's controls. */
export function wireCoach() {
  $("coach-get").addEventListener("click", () => send({ type: "coach_link" }));
  $("coach-end").addEventListener("click", () => {
    store.update({ coachLink: null });
    send({ type: "coach_revoke" });
  });
  $("coach-copy").addEventListener("click", copyCoachLink);
}
