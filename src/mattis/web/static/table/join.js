// Joining: the invite page for someone without a seat (whose table it is, the rules in words
// with each house rule, the players and free seats, a note if the table is seeded, a name and
// "take a seat"; a full or finished table says so and offers a table of your own), and the waiting room while seats are open (the link to copy or share, a
// bot for a seat nobody takes). Which preset the rules are closest to, and which house rules
// differ from it, come with the table's facts (`base_preset`, `house_rules`).
import { fmt, plural } from "../i18n.js";
import { $, saveName, saveSeat, savedName } from "../page.js";
import { joinTable, tableInfo } from "../transport.js";
import { send, tableId } from "./connection.js";
import { levelText, seatName } from "./seats.js";
import { store } from "./store.js";

/** The invite page, with the table's facts asked for again (in the page's language). */
export async function showJoin() {
  const { lang, texts } = store.get();
  const [info, options] = await Promise.all([
    tableInfo(tableId, lang),
    fetch(`/api/options?lang=${lang}`).then((r) => r.json()).catch(() => null),
  ]);
  $("join").hidden = false;
  $("game").hidden = true;
  $("waiting").hidden = true;
  if (!info.ok) {
    $("join-error").textContent = info.data.message;
    $("join-form").hidden = true;
    return;
  }
  const data = info.data;
  const host = data.host?.name;
  const open = data.open_seats ?? data.seats.filter((s) => s.kind === "open").length;
  // A table nobody can join (every seat taken, or its game over) says so, invites nobody,
  // shows no code to join with, and offers a table of your own instead.
  const closed = !open || data.status === "over";
  const why = data.status === "over" ? "over" : "full";
  $("join-heading").textContent = closed ? texts[`table.${why}_title`]
    : host ? fmt(texts["table.host_table"], { name: host }) : texts["table.anon_table"];
  $("join-host").textContent = closed ? texts[`table.${why}_text`]
    : host ? fmt(texts["table.host_invites"], { name: host }) : texts["table.anon_invites"];
  $("join-qr").hidden = closed;
  if (closed) $("join-qr").querySelector("img").removeAttribute("src");
  $("join-own").hidden = !closed;
  $("join-form").hidden = closed;
  $("join").dataset.closed = closed ? why : "";
  $("join-facts").replaceChildren(...inviteFacts(data, options).map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
  $("join-seeded").hidden = !data.seeded;
  $("seeded-badge").hidden = !data.seeded;
  $("join-seats").replaceChildren(...data.seats.map((seat) => {
    const item = document.createElement("li");
    item.textContent = seat.kind === "open" ? texts.kind_open
      : seat.kind === "bot" ? `${seat.name} (${fmt(texts["table.seat_bot"], { level: levelText(seat.level) })})`
        : seat.name || fmt(texts.seat_n, { n: seat.seat + 1 });
    if (seat.kind === "open") item.className = "open-seat";
    return item;
  }));
  if (!$("join-name").value) $("join-name").value = savedName();
}

/** The rules in words (the closest preset's description, then each house rule), players,
 * free seats. */
function inviteFacts(data, options) {
  const { texts } = store.get();
  const lines = [];
  if (options) {
    const base = options.presets.find((preset) => preset.name === data.base_preset);
    lines.push(fmt(texts["table.rules_line"], { rules: base?.summary ?? data.base_preset }));
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const changes = options.options.filter((option) => data.house_rules.includes(option.field)).map((option) => {
      const value = data.rules[option.field];
      return `${option.name}: ${option.values.find((choice) => same(choice.value, value))?.label ?? value}`;
    });
    if (changes.length) lines.push(fmt(texts["table.house_rules_line"], { rules: changes.join("; ") }));
  }
  lines.push(fmt(texts["table.players_line"], { n: data.players }));
  const open = data.open_seats ?? data.seats.filter((s) => s.kind === "open").length;
  if (open) lines.push(plural(texts, "table.free_seats", open, { n: open }));
  return lines;
}

/** Take a seat with the name typed; onJoined runs once the seat's token is kept. */
export async function join(onJoined) {
  const name = $("join-name").value;
  saveName(name);
  const response = await joinTable(tableId, name, store.get().lang);
  const data = response.data;
  if (!response.ok) { $("join-error").textContent = data.message; return; }
  saveSeat(tableId, data);
  $("join").hidden = true;
  onJoined();
}

// ------------------------------------------------------------------ the waiting room

export function drawWaiting() {
  const { state, texts } = store.get();
  const table = state.table;
  $("status").textContent = texts.waiting;
  $("invite").value = table.invite ? location.origin + table.invite : "";
  for (const node of $("waiting").querySelectorAll(".invite, .qr")) node.hidden = !table.invite;
  $("waiting-seeded").hidden = !table.seeded;
  $("share").hidden = !(navigator.share && matchMedia("(pointer: coarse)").matches);
  $("waiting-seats").replaceChildren(...table.seats.map((info, seat) => {
    const item = document.createElement("li");
    item.textContent = info.kind === "open" ? `${texts.kind_open} `
      : info.kind === "bot" ? `${seatName(seat)} (${fmt(texts["table.seat_bot"], { level: levelText(info.level) })})` : seatName(seat);
    if (info.kind === "open") {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "fill-bot";
      button.textContent = texts.fill_bot;
      button.addEventListener("click", () => send({ type: "bot", seat, level: "normal" }));
      item.append(button);
    }
    return item;
  }));
}

export async function copyInvite() {
  $("invite").select();
  try { await navigator.clipboard.writeText($("invite").value); } catch { document.execCommand("copy"); }
  $("copy").textContent = store.get().texts.copied;
}

export async function shareInvite() {
  const { texts } = store.get();
  try { await navigator.share({ title: texts.title, text: texts["table.share_text"], url: $("invite").value }); } catch { /* cancelled */ }
}
