// The table page: joins through the invite link, keeps the seat token in this browser,
// talks to the server over one WebSocket and draws the state it receives.
import { actionCards, actionLabel, cardBack, cardLabel, cardSvg, parseCard } from "./cards.js";
import { currentLang, fmt, langSwitch, loadTexts } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const seatKey = `mattis.seat.${tableId}`;
let lang = currentLang();
let texts = {};
let socket = null;
let state = null;
let log = [];
let logKinds = [];
let logGame = 0;
let retry = 500;

function saved() {
  try { return JSON.parse(localStorage.getItem(seatKey)); } catch { return null; }
}

function fillTexts() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = texts[node.dataset.text] ?? "";
  for (const link of document.querySelectorAll("a.rules-link")) link.href = `/rules?lang=${lang}`;
  langSwitch($("lang"), lang, async (code) => {
    lang = code;
    texts = await loadTexts(lang);
    fillTexts();
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "lang", lang }));
  });
}

function seatName(seat) {
  if (!state) return "";
  const info = state.table.seats[seat];
  if (info.you) return texts.seat_you;
  return info.name || fmt(texts.seat_n, { n: seat + 1 });
}

// ------------------------------------------------------------------ joining

async function showJoin() {
  const info = await fetch(`/api/tables/${encodeURIComponent(tableId)}?lang=${lang}`);
  $("join").hidden = false;
  if (!info.ok) { $("join-error").textContent = (await info.json()).message; $("join-form").hidden = true; return; }
  const data = await info.json();
  $("seeded").hidden = !data.seeded;
  if (!data.seats.some((s) => s.kind === "open")) { $("join-error").textContent = texts.full; $("join-form").hidden = true; }
  $("join-name").value = localStorage.getItem("mattis.name") || "";
}

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  localStorage.setItem("mattis.name", $("join-name").value);
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/join?lang=${lang}`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: $("join-name").value }),
  });
  const data = await response.json();
  if (!response.ok) { $("join-error").textContent = data.message; return; }
  localStorage.setItem(seatKey, JSON.stringify(data));
  $("join").hidden = true;
  connect();
});

// ------------------------------------------------------------------ the socket

function connect() {
  const seat = saved();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  $("status").textContent = texts.connecting;
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}?token=${encodeURIComponent(seat.token)}&lang=${lang}`);
  socket.addEventListener("open", () => { retry = 500; });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (event.code === 1008) { localStorage.removeItem(seatKey); showJoin(); return; }
    if (event.code === 4410) { $("status").textContent = $("error").textContent; return; }  // damaged: no retry
    $("status").textContent = texts.disconnected;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(message) {
  if (message.type === "state") {
    if (message.table.game !== logGame) { log = []; logKinds = []; logGame = message.table.game; }
    log = log.slice(0, message.log_start).concat(message.log);
    logKinds = logKinds.slice(0, message.log_start).concat(message.log_kinds || []);
    state = message;
    $("error").textContent = "";
    draw();
  } else if (message.type === "hint") {
    $("hint-text").textContent = `${texts.hint}: ${actionLabel(message.action, texts)} \u2014 ${message.explanation}`;
    $("hint").disabled = false;
    highlightHint(message.action);
  } else if (message.type === "error") {
    $("error").textContent = message.message;
    $("hint").disabled = false;
  }
}

// ------------------------------------------------------------------ drawing

const DISPLAY_SUITS = [0, 2, 3, 1];

function sortHand(hand, phase, trump) {
  const trumpSuit = trump ? "cdhs".indexOf(trump) : -1;
  const key = (code) => {
    const { rank, suit } = parseCard(code);
    if (phase === "collect") return rank * 10 + DISPLAY_SUITS.indexOf(suit);
    return (suit === trumpSuit ? 4 : DISPLAY_SUITS.indexOf(suit)) * 100 + rank;
  };
  return [...hand].sort((a, b) => key(a) - key(b));
}

function cardButton(code, trump, legalPlays) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "card";
  button.dataset.card = code;
  const isTrump = trump && code[1] === trump;
  if (isTrump) button.classList.add("is-trump");
  button.append(cardSvg(code, { trump: isTrump }));
  const plays = legalPlays.filter((action) => actionCards(action).includes(code));
  button.setAttribute("aria-label", cardLabel(code) + (isTrump ? ` (${texts.trump_mark})` : "") + (plays.length ? ` \u2014 ${texts.legal}` : ""));
  if (plays.length) {
    button.classList.add("legal");
    button.addEventListener("click", () => choose(code, plays));
  } else {
    button.disabled = state.legal.length > 0;
    button.classList.toggle("idle", state.legal.length === 0);
  }
  return button;
}

function choose(code, plays) {
  const chooser = $("chooser");
  if (!state.legal.length) return;
  if (plays.length === 1) { play(plays[0]); return; }
  chooser.replaceChildren();
  chooser.hidden = false;
  for (const action of plays) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = fmt(texts.play_sequence, { cards: actionLabel(action, texts) });
    button.dataset.action = action;
    button.addEventListener("click", () => play(action));
    chooser.append(button);
  }
  chooser.querySelector("button").focus();
  for (const node of document.querySelectorAll(".card.selected")) node.classList.remove("selected");
  document.querySelector(`.card[data-card="${code}"]`)?.classList.add("selected");
}

function play(action) {
  $("chooser").hidden = true;
  $("hint-text").textContent = "";
  send({ type: "act", action });
}

function highlightHint(action) {
  for (const code of actionCards(action)) document.querySelector(`.card[data-card="${code}"]`)?.classList.add("hinted");
}

function smallCards(cards, trump) {
  const group = document.createElement("span");
  group.className = "small-cards";
  for (const code of cards) {
    const holder = document.createElement("span");
    holder.className = "small-card";
    holder.title = cardLabel(code);
    holder.append(cardSvg(code, { trump: trump && code[1] === trump }));
    group.append(holder);
  }
  return group;
}

function draw() {
  const table = state.table;
  $("join").hidden = true;
  $("seeded").hidden = !table.seeded;
  $("waiting").hidden = table.status !== "waiting";
  $("invite").value = location.origin + table.invite;
  $("game").hidden = !state.view;
  if (!state.view) {
    $("status").textContent = texts.waiting;
    $("waiting-seats").replaceChildren(...table.seats.map((info, seat) => {
      const item = document.createElement("li");
      item.textContent = info.kind === "open" ? `${texts.kind_open} `
        : info.kind === "bot" ? `${seatName(seat)} (${texts.bot}: ${texts["level." + info.level] ?? info.level})` : seatName(seat);
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
    return;
  }
  const view = state.view;
  const trump = view.trump;
  const over = view.phase === "over";
  const myTurn = state.legal.length > 0;
  const turn = over ? texts["phase.over"] : myTurn ? texts.your_turn : fmt(texts.turn_of, { who: seatName(view.to_move) });
  const phase = over ? "" : ` \u00b7 ${texts["phase." + view.phase] ?? ""}`;
  $("status").textContent = `${fmt(texts.game_n, { n: table.game })}${phase} \u00b7 ${turn}`;
  document.body.classList.toggle("my-turn", myTurn);

  // players
  const players = $("players");
  players.replaceChildren();
  table.seats.forEach((info, seat) => {
    const item = document.createElement("li");
    item.className = "player";
    if (seat === view.to_move && !over) item.classList.add("to-move");
    if (info.you) item.classList.add("you");
    if (view.losers.includes(seat)) item.classList.add("loser");
    const name = document.createElement("strong");
    name.textContent = seatName(seat);
    const facts = [fmt(texts.cards, { n: view.hand_sizes[seat] })];
    if (view.phase === "collect") facts.push(fmt(texts.won, { n: view.won_sizes[seat] }));
    if (info.kind === "bot") facts.push(`${texts.bot}: ${texts["level." + info.level] ?? info.level}`);
    if (seat === view.dealer) facts.push(texts.dealer);
    const place = view.out_order.indexOf(seat);
    if (place >= 0) facts.push(fmt(texts.out, { n: place + 1 }));
    if (view.losers.includes(seat)) facts.push("Mattis");
    if (info.kind === "human" && !info.connected && !info.you) facts.push(texts.away);
    if (info.stand_in) facts.push(texts.stand_in);
    if (view.trump_holder === seat && view.phase === "collect") facts.push(texts.holds_trump);
    const small = document.createElement("small");
    small.textContent = facts.join(" \u00b7 ");
    item.append(name, document.createElement("br"), small);
    players.append(item);
  });

  // stock and trump
  const stock = $("stock");
  stock.replaceChildren();
  if (view.stock_size > 0) { const back = document.createElement("span"); back.className = "small-card"; back.append(cardBack()); stock.append(back); }
  stock.append(` ${texts.stock}: ${view.stock_size}`);
  const trumpBox = $("trump");
  trumpBox.replaceChildren(`${texts.trump}: `);
  if (view.trump_card) trumpBox.append(smallCards([view.trump_card], trump));
  else if (trump) trumpBox.append(["\u2663", "\u2666", "\u2665", "\u2660"]["cdhs".indexOf(trump)]);
  else trumpBox.append(texts.trump_unknown);

  // the trick or the phase-2 table
  $("area-title").textContent = view.phase === "collect" ? texts.trick : texts.table;
  const area = $("area");
  area.replaceChildren();
  for (const [seat, cards] of view.table) {
    const entry = document.createElement("li");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = seatName(seat);
    entry.append(smallCards(cards, trump), who);
    area.append(entry);
  }
  if (!view.table.length) { const empty = document.createElement("li"); empty.className = "muted"; empty.textContent = texts.empty; area.append(empty); }

  // the hand and the moves
  const plays = state.legal.filter((a) => a !== "chance" && a !== "pickup");
  const hand = $("hand");
  hand.replaceChildren(...sortHand(view.hand, view.phase, trump).map((code) => cardButton(code, trump, plays)));
  $("chooser").hidden = true;
  $("chance").hidden = !state.legal.includes("chance");
  $("pickup").hidden = !state.legal.includes("pickup");
  $("hint").hidden = !myTurn;
  $("advice").textContent = state.advice || "";
  $("advice").hidden = !state.advice;
  if (!myTurn) $("hint-text").textContent = "";

  // result
  const justOver = over && $("result").hidden;
  $("result").hidden = !over;
  $("hand-area").hidden = over;
  $("advice").hidden = over || !state.advice;
  if (justOver) $("result").scrollIntoView({ block: "nearest" });
  if (over && state.result) {
    $("headline").textContent = state.result.headline;
    $("out-order").textContent = state.result.out_order || "";
    const scores = $("scores");
    scores.replaceChildren();
    table.seats.forEach((info, seat) => {
      const row = scores.insertRow();
      row.insertCell().textContent = seatName(seat);
      row.insertCell().textContent = String(table.scores[seat]);
    });
    $("record").href = `/api/tables/${encodeURIComponent(tableId)}/record?game=${table.game}`;
  }

  // log, newest first
  const list = $("log");
  const first = Math.max(0, log.length - 40);
  const items = log.slice(first).map((line, offset) => {
    const li = document.createElement("li");
    li.textContent = line;
    const kind = logKinds[first + offset];
    if (kind && /^[a-z_]+$/.test(kind)) li.className = `log-${kind}`;
    return li;
  });
  list.replaceChildren(...items.reverse());
}

$("chance").addEventListener("click", () => play("chance"));
$("pickup").addEventListener("click", () => play("pickup"));
$("hint").addEventListener("click", () => { $("hint").disabled = true; $("hint-text").textContent = texts.thinking; send({ type: "hint" }); });
$("again").addEventListener("click", () => send({ type: "again" }));
$("copy").addEventListener("click", async () => {
  $("invite").select();
  try { await navigator.clipboard.writeText($("invite").value); $("copy").textContent = texts.copied; } catch { document.execCommand("copy"); }
});
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || !state || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Escape") $("chooser").hidden = true;
  if (event.key === "c" && state.legal.includes("chance")) play("chance");
  if (event.key === "p" && state.legal.includes("pickup")) play("pickup");
  if (event.key === "h" && state.legal.length) $("hint").click();
});

async function start() {
  texts = await loadTexts(lang);
  fillTexts();
  if (saved()?.token) connect(); else showJoin();
}
start();
