// The table page: the invite page for a friend, the waiting room, and the card table itself.
// It keeps the seat token in this browser, talks to the table through transport.js (the
// server today, the offline app's worker later) and draws each state it receives: seats
// around a felt, the cards on the table (each flying in from whoever played it), every
// completed trick held a moment with its winning card marked before it goes to the winner,
// wars announced, refusals explained next to the hand, quick reactions, the result.
// Test hooks (data-card, data-playable, data-action, data-table, data-last-trick, data-war,
// data-refusal, data-result, data-mattis-seat, data-reaction) are a contract: docs/web.md.
import { actionCards, actionLabel, cardBack, cardLabel, cardSvg, parseCard, suitSymbol } from "./cards.js";
import { currentLang, fmt, langSwitch, loadTexts, plural } from "./i18n.js";
import { isLocal, joinTable, openSeat, recordUrl, tableInfo } from "./transport.js";

const OFFLINE_NOTE = "mattis.offline_note";  // set by the start page when it dealt on this device

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const seatKey = `mattis.seat.${tableId}`;

/** How long a completed trick stays on the table before it goes to the winner. Tests shorten
 * it with ?pause=MS or localStorage "mattis.trickPause". */
const TRICK_PAUSE_MS = pauseSetting(1500);
const MOVE_MS = 300;
const REACTION_MS = 3500;
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

function pauseSetting(fallback) {
  const asked = new URLSearchParams(location.search).get("pause") ?? localStorage.getItem("mattis.trickPause");
  const value = Number(asked);
  return asked !== null && asked !== "" && Number.isFinite(value) && value >= 0 ? value : fallback;
}

let lang = currentLang();
let texts = {};
let seatLink = null;
let state = null;
let log = [];
let logKinds = [];
let logGame = 0;
let logShown = 0;

// what the felt shows, which may lag behind the state while a completed trick is held
let sceneReady = false;
let shownTrick = -1;
let trickQueue = [];
let holding = null;
let pendingPickups = [];
let raisedCard = null;
let lastPointer = "mouse";
let pendingAct = null;
let hintPending = false;
let hinted = null;
const bubbles = new Map();

function saved() {
  try { return JSON.parse(localStorage.getItem(seatKey)); } catch { return null; }
}

function fillTexts() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = texts[node.dataset.text] ?? "";
  for (const node of document.querySelectorAll("[data-label]")) {
    node.setAttribute("aria-label", texts[node.dataset.label] ?? "");
    node.title = texts[node.dataset.label] ?? "";
  }
  for (const image of document.querySelectorAll("img[data-qr]")) {
    image.alt = texts["table.qr_alt"] ?? "";
    image.src = `/api/tables/${encodeURIComponent(tableId)}/qr.svg`;
  }
  for (const link of document.querySelectorAll("a.rules-link")) link.href = `/rules?lang=${lang}&back=${encodeURIComponent(location.pathname)}`;
  $("area").setAttribute("aria-label", texts["table.felt"] ?? "");
  $("reactions").setAttribute("aria-label", texts["table.reactions"] ?? "");
  langSwitch($("lang"), lang, async (code) => {
    texts = await loadTexts(code);
    lang = texts._lang;
    fillTexts();
    if (seatLink) send({ type: "lang", lang }); else showJoin();
  }, texts._languages);
}

// ------------------------------------------------------------------ names and words

function seatInfo(seat) {
  return state.table.seats[seat];
}

/** A seat as labelled on the felt and in lists: the name, or "You" for this browser's seat. */
function seatName(seat) {
  if (!state) return "";
  const info = seatInfo(seat);
  if (info.you) return info.name ? `${info.name} (${texts["table.you_mid"]})` : texts.seat_you;
  return info.name || fmt(texts.seat_n, { n: seat + 1 });
}

/** A seat inside a sentence: "du"/"you" for this browser's seat. */
function person(seat, initial = false) {
  const info = seatInfo(seat);
  if (info.you) return texts[initial ? "table.you" : "table.you_mid"];
  return info.name || fmt(texts.seat_n, { n: seat + 1 });
}

function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} ${texts["table.and"]} ${names[names.length - 1]}`;
}

function cardsText(count) {
  return plural(texts, "table.cards", count, { n: count });
}

function turnText(seat) {
  if (seatInfo(seat).you) return texts.your_turn;
  const who = person(seat, true);
  return fmt(texts[/[sxz]$/i.test(who) ? "table.turn_of_s" : "table.turn_of"], { who });
}

function levelText(level) {
  return texts["level." + level] ?? level ?? "";
}

// ------------------------------------------------------------------ the invite page

async function showJoin() {
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
  $("join-heading").textContent = host ? fmt(texts["table.host_table"], { name: host }) : texts["table.anon_table"];
  $("join-host").textContent = host ? fmt(texts["table.host_invites"], { name: host }) : texts["table.anon_invites"];
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
  const open = data.open_seats ?? data.seats.filter((s) => s.kind === "open").length;
  if (!open) { $("join-error").textContent = texts.full; $("join-form").hidden = true; }
  if (!$("join-name").value) $("join-name").value = localStorage.getItem("mattis.name") || "";
}

/** The rules in words (the preset's description, then each house rule), players, free seats. */
function inviteFacts(data, options) {
  const lines = [];
  if (options) {
    const presets = options.presets;
    const base = presets.find((p) => p.name === data.preset) ?? nearestPreset(presets, data.rules);
    lines.push(fmt(texts["table.rules_line"], { rules: base.summary }));
    const changes = options.options.filter((o) => JSON.stringify(data.rules[o.field]) !== JSON.stringify(base.rules[o.field]))
      .map((o) => `${o.name}: ${o.values.find((v) => JSON.stringify(v.value) === JSON.stringify(data.rules[o.field]))?.label ?? data.rules[o.field]}`);
    if (changes.length) lines.push(fmt(texts["table.house_rules_line"], { rules: changes.join("; ") }));
  }
  lines.push(fmt(texts["table.players_line"], { n: data.players }));
  const open = data.open_seats ?? data.seats.filter((s) => s.kind === "open").length;
  if (open) lines.push(plural(texts, "table.free_seats", open, { n: open }));
  return lines;
}

function nearestPreset(presets, rules) {
  const distance = (preset) => Object.keys(rules).filter((k) => JSON.stringify(rules[k]) !== JSON.stringify(preset.rules[k])).length;
  return presets.reduce((best, preset) => (distance(preset) < distance(best) ? preset : best));
}

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  localStorage.setItem("mattis.name", $("join-name").value);
  const response = await joinTable(tableId, $("join-name").value, lang);
  const data = response.data;
  if (!response.ok) { $("join-error").textContent = data.message; return; }
  localStorage.setItem(seatKey, JSON.stringify(data));
  $("join").hidden = true;
  connect();
});

// ------------------------------------------------------------------ the connection

function connect() {
  const seat = saved();
  $("status").textContent = texts.connecting;
  seatLink = openSeat({ tableId, token: seat.token, lang }, {
    onMessage: receive,
    onOpen: () => { sceneReady = false; },
    onRejected: () => { localStorage.removeItem(seatKey); seatLink = null; showJoin(); },
    onClosed: () => { seatLink = null; },  // set aside as damaged: the error said so
    onLost: () => { $("status").textContent = texts.disconnected; },
  });
}

function send(message) {
  if (seatLink) seatLink.send(message);
}

function receive(message) {
  if (message.type === "state") onState(message);
  else if (message.type === "hint") onHint(message);
  else if (message.type === "reaction") onReaction(message);
  else if (message.type === "error") onError(message);
}

function onState(message) {
  const newGame = message.table.game !== logGame;
  if (newGame) { log = []; logKinds = []; logGame = message.table.game; }
  if (message.log_start < logShown || newGame) logShown = -1;  // a language switch or a reconnect: redraw
  log = log.slice(0, message.log_start).concat(message.log);
  logKinds = logKinds.slice(0, message.log_start).concat(message.log_kinds || []);
  const trick = message.last_trick;
  const fresh = !sceneReady || newGame || !message.view;
  if (fresh) {
    shownTrick = trick ? trick.number : -1;
    trickQueue = [];
    pendingPickups = [];
    sceneReady = Boolean(message.view);
  } else {
    if (trick && trick.number > shownTrick) { trickQueue.push(trick); shownTrick = trick.number; }
    for (const event of message.view.history) if (event.event === "pickup") pendingPickups.push(event);
  }
  if (!message.legal.length) raisedCard = null;
  pendingAct = null;  // a move that was played answers with a state, a refused one with an error
  state = message;
  if (hinted && hinted.events !== message.view?.event_count) hinted = null;
  draw();
}

function onHint(message) {
  hintPending = false;
  $("hint").disabled = false;
  $("hint-text").textContent = `${texts.hint}: ${actionLabel(message.action, texts)} \u2014 ${message.explanation}`;
  hinted = { action: message.action, events: state?.view?.event_count };
  showHint();
}

/** The hint lights up what it suggests: its cards, or the button (chance, pick up). It stays
 * lit through redraws until the game moves on. */
function showHint() {
  for (const node of document.querySelectorAll(".hinted")) node.classList.remove("hinted");
  if (!hinted) return;
  const codes = actionCards(hinted.action);
  for (const code of codes) $("hand").querySelector(`[data-card="${code}"]`)?.classList.add("hinted");
  if (!codes.length) document.querySelector(`.actions [data-action="${hinted.action}"]`)?.classList.add("hinted");
}

function onError(message) {
  hintPending = false;
  $("hint").disabled = false;
  if (message.code === "hint_busy" || message.code === "hint_cooldown") $("hint-text").textContent = message.message;
  else if (message.code === "damaged") $("status").textContent = message.message;
  else showRefusal(message.message);
  pendingAct = null;
}

function showRefusal(text) {
  $("refusal").textContent = text;
  for (const node of $("hand").querySelectorAll(".refused")) node.classList.remove("refused");
  if (pendingAct) for (const code of actionCards(pendingAct)) $("hand").querySelector(`[data-card="${code}"]`)?.classList.add("refused");
}

/** Anything the player does clears the last refusal (it stays until then, however many
 * states arrive meanwhile). */
function acted() {
  $("refusal").textContent = "";
  for (const node of $("hand").querySelectorAll(".refused")) node.classList.remove("refused");
}

function play(action) {
  acted();
  closeChooser();
  $("hint-text").textContent = "";
  raisedCard = null;
  pendingAct = action;
  if (holding) finishHold(true);  // a player who moves on has seen enough of the last trick
  send({ type: "act", action });
}

// ------------------------------------------------------------------ drawing

function draw() {
  const table = state.table;
  $("join").hidden = true;
  $("seeded-badge").hidden = !table.seeded;
  $("waiting").hidden = table.status !== "waiting";
  $("game").hidden = !state.view;
  $("log-toggle").hidden = !state.view;
  if (!state.view) { drawWaiting(); return; }
  const view = state.view;
  const over = view.phase === "over";
  $("game").dataset.events = String(view.event_count);
  $("game").dataset.toMove = view.to_move === null ? "" : String(view.to_move);
  const phase = over ? "" : ` \u00b7 ${texts["phase." + view.phase] ?? ""}`;
  const turn = over ? texts["phase.over"] : turnText(view.to_move);
  $("status").textContent = `${fmt(texts.game_n, { n: table.game })}${phase} \u00b7 ${turn}`;
  document.body.classList.toggle("my-turn", state.legal.length > 0);
  const before = positions();
  drawSeats(view);
  drawDeck(view);
  drawHand(view);
  drawControls(view);
  drawResult(view);
  drawLog();
  drawArea(before);
}

function drawWaiting() {
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

/** Where every card and seat is now, so what changes can move from there. */
function positions() {
  const cards = new Map();
  for (const node of document.querySelectorAll("#hand [data-card], #area [data-card]")) cards.set(node.dataset.card, node.getBoundingClientRect());
  return cards;
}

// ---- seats around the felt

function seatOffset(seat) {
  const players = state.table.seats.length;
  return (seat - state.seat + players) % players;
}

function feltLayout() {
  return $("felt").clientWidth < 620 ? "row" : "ring";
}

function seatPlace(seat, layout) {
  const players = state.table.seats.length;
  const offset = seatOffset(seat);
  if (offset === 0) return { x: 50, y: layout === "row" ? 89 : 88 };
  if (layout === "row") return { x: (100 * (offset - 0.5)) / (players - 1), y: 12 };
  const angle = ((90 + (offset * 360) / players) * Math.PI) / 180;
  return { x: 50 + 38 * Math.cos(angle), y: 50 + 39 * Math.sin(angle) };
}

function seatElement(seat) {
  return $("players").querySelector(`[data-seat="${seat}"]`);
}

function drawSeats(view) {
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
    item.style.width = layout === "row" && !info.you ? `min(calc(${100 / (seats.length - 1)}% - 8px), 220px)` : "";
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
    const badges = [];
    if (seat === view.dealer) badges.push(["dealer", texts.dealer]);
    if (toMove) badges.push(["turn", botMoves ? texts["table.thinking"] : texts["table.to_move"]]);
    if (info.kind === "bot") badges.push(["level", fmt(texts["table.seat_bot"], { level: levelText(info.level) })]);
    const place2 = view.out_order.indexOf(seat);
    if (place2 >= 0) badges.push(["out", fmt(texts.out, { n: place2 + 1 })]);
    if (view.losers.includes(seat)) badges.push(["mattis", texts["table.mattis"]]);
    if (view.tie.includes(seat)) badges.push(["war", texts["table.in_war"]]);
    if (info.kind === "human" && !info.connected && !info.you && !info.stand_in) badges.push(["away", texts.away]);
    if (info.stand_in) badges.push(["away", fmt(texts["table.stand_in"], { name: info.name || fmt(texts.seat_n, { n: seat + 1 }) })]);
    if (view.trump_holder === seat && view.phase === "collect") badges.push(["trump", texts.holds_trump]);
    item.querySelector(".seat-badges").replaceChildren(...badges.map(([kind, text]) => {
      const badge = document.createElement("span");
      badge.className = `badge badge-${kind}`;
      badge.textContent = text;
      return badge;
    }));
  });
  placeSeats();
}

/** Put each seat at its place on the felt, kept wholly inside it however wide its badges. */
function placeSeats() {
  const felt = $("felt");
  const width = felt.clientWidth;
  const height = felt.clientHeight;
  for (const item of $("players").children) {
    const half = item.offsetWidth / 2 + 4;
    const halfHeight = item.offsetHeight / 2 + 4;
    const x = Math.min(Math.max((Number(item.dataset.x) / 100) * width, half), width - half);
    const y = Math.min(Math.max((Number(item.dataset.y) / 100) * height, halfHeight), height - halfHeight);
    item.style.left = `${Math.round(x)}px`;
    item.style.top = `${Math.round(y)}px`;
  }
}

// ---- the stock and the trump

function drawDeck(view) {
  const deck = $("deck");
  deck.replaceChildren();
  if (view.phase === "collect" || view.stock_size > 0) {
    const stock = document.createElement("div");
    stock.className = "stock";
    const holder = document.createElement("span");
    holder.className = "deck-card";
    if (view.stock_size > 0) holder.append(cardBack()); else holder.classList.add("empty");
    const label = document.createElement("small");
    label.textContent = `${texts.stock}: ${view.stock_size}`;
    stock.append(holder, label);
    deck.append(stock);
  }
  const trump = document.createElement("div");
  trump.className = "trump";
  const label = document.createElement("small");
  if (view.trump_card) {
    const holder = document.createElement("span");
    holder.className = "deck-card";
    holder.dataset.trumpCard = view.trump_card;
    holder.setAttribute("role", "img");
    holder.setAttribute("aria-label", `${texts.trump}: ${cardLabel(view.trump_card)}`);
    holder.append(cardSvg(view.trump_card, { trump: true }));
    trump.append(holder);
    label.textContent = texts.trump;
  } else {
    label.textContent = `${texts.trump}: ${view.trump ? suitSymbol(view.trump) : texts.trump_unknown}`;
  }
  trump.append(label);
  deck.append(trump);
}

// ---- the hand

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

function drawHand(view) {
  const plays = state.legal.filter((a) => a !== "chance" && a !== "pickup");
  const hand = $("hand");
  const trump = view.trump;
  const cards = sortHand(view.hand, view.phase, trump).map((code) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "card";
    button.dataset.card = code;
    const isTrump = Boolean(trump) && code[1] === trump;
    if (isTrump) button.classList.add("is-trump");
    const face = document.createElement("span");
    face.className = "face";
    face.append(cardSvg(code, { trump: isTrump }));
    button.append(face);
    const options = plays.filter((action) => actionCards(action).includes(code));
    button.dataset.playable = String(options.length > 0);
    if (options.length) button.classList.add("legal");
    if (code === raisedCard && options.length) { button.classList.add("raised"); button.dataset.raised = "true"; }
    button.setAttribute("aria-label", cardLabel(code) + (isTrump ? ` (${texts.trump_mark})` : "") + (options.length ? ` \u2014 ${texts.legal}` : ""));
    button.setAttribute("aria-describedby", "refusal");
    button.addEventListener("click", () => cardClicked(code, options));
    return button;
  });
  hand.replaceChildren(...cards);
  hand.classList.toggle("waiting", !state.legal.length);
  layoutHand();
}

$("hand").addEventListener("pointerdown", (event) => { lastPointer = event.pointerType || "mouse"; });

/** A click plays a playable card; on a touch screen the first tap raises it and the second
 * plays it. A card that may not be played is sent anyway: the table's refusal says why. */
function cardClicked(code, options) {
  const touch = lastPointer === "touch";
  lastPointer = "mouse";
  if (!options.length) { acted(); pendingAct = code; send({ type: "act", action: code }); return; }
  if (touch && raisedCard !== code) {
    acted();
    raisedCard = code;
    for (const node of $("hand").querySelectorAll(".raised")) { node.classList.remove("raised"); delete node.dataset.raised; }
    const node = $("hand").querySelector(`[data-card="${code}"]`);
    node?.classList.add("raised");
    if (node) node.dataset.raised = "true";
    $("hint-text").textContent = fmt(texts["table.tap_again"], { card: cardLabel(code) });
    if (options.length > 1) openChooser(code, options);
    return;
  }
  if (options.length === 1) { play(options[0]); return; }
  openChooser(code, options);
}

function openChooser(code, options) {
  const chooser = $("chooser");
  chooser.replaceChildren(...options.map((action) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = fmt(texts.play_sequence, { cards: actionLabel(action, texts) });
    button.dataset.action = action;
    button.addEventListener("click", () => play(action));
    return button;
  }));
  chooser.hidden = false;
  $("chooser-close").hidden = false;
  chooser.querySelector("button").focus();
  for (const node of document.querySelectorAll(".card.selected")) node.classList.remove("selected");
  $("hand").querySelector(`[data-card="${code}"]`)?.classList.add("selected");
}

function closeChooser() {
  $("chooser").hidden = true;
  $("chooser-close").hidden = true;
  for (const node of $("hand").querySelectorAll(".card.selected")) node.classList.remove("selected");
}

/** Lay the hand out in one row, or fan it (overlapping cards, the corner index showing) in
 * at most two rows, so even 26 cards fit a phone's width. */
function layoutHand() {
  const hand = $("hand");
  const cards = [...hand.children];
  const count = cards.length;
  if (!count) { hand.style.height = "0px"; return; }
  const width = hand.clientWidth;
  const face = cards[0].querySelector(".face");
  const cardWidth = face.offsetWidth;
  const cardHeight = face.offsetHeight;
  const gap = 6;
  let rows = 1;
  let perRow = count;
  let step = cardWidth + gap;
  if (count * step - gap > width) {
    const oneRow = (width - cardWidth) / (count - 1);
    if (oneRow >= cardWidth * 0.5) step = oneRow;
    else {
      rows = 2;
      perRow = Math.ceil(count / 2);
      step = Math.min(cardWidth + gap, (width - cardWidth) / Math.max(1, perRow - 1));
    }
  }
  const rowStep = rows > 1 && step < cardWidth ? Math.round(cardHeight * 0.6) : cardHeight + gap;
  cards.forEach((card, index) => {
    const row = Math.floor(index / perRow);
    const inRow = row === rows - 1 ? count - perRow * (rows - 1) : perRow;
    const rowWidth = cardWidth + (inRow - 1) * step;
    const left = (width - rowWidth) / 2 + (index % perRow) * step;
    card.style.left = `${Math.round(left)}px`;
    card.style.top = `${row * rowStep}px`;
    card.style.zIndex = String(index + 1);
    // an overlapped card is clickable where it shows: its button is the visible strip
    const lastInRow = index % perRow === perRow - 1 || index === count - 1;
    card.style.width = step < cardWidth && !lastInRow ? `${Math.floor(step)}px` : "";
  });
  hand.style.height = `${(rows - 1) * rowStep + cardHeight}px`;
  hand.dataset.rows = String(rows);
}

// ---- the buttons, the advice and the reactions

function drawControls(view) {
  const legal = state.legal;
  const myTurn = legal.length > 0;
  const chance = $("chance");
  const pickup = $("pickup");
  chance.classList.toggle("off", !legal.includes("chance"));
  pickup.classList.toggle("off", !legal.includes("pickup"));
  const forced = legal.length === 1 && legal[0] === "pickup";
  pickup.classList.toggle("forced", forced);
  pickup.textContent = forced ? texts["table.pickup_forced"] : texts.pickup;
  $("hint").classList.toggle("off", !myTurn);
  for (const button of [chance, pickup, $("hint")]) button.disabled = button.classList.contains("off");
  $("hint").disabled ||= hintPending;
  showHint();
  closeChooser();
  if (!myTurn) $("hint-text").textContent = "";
  else if (raisedCard && $("hand").querySelector(`[data-card="${raisedCard}"].raised`)) {
    $("hint-text").textContent = fmt(texts["table.tap_again"], { card: cardLabel(raisedCard) });
  }
  $("advice").textContent = view.phase === "over" ? "" : state.advice || "";
  drawReactions();
}

function drawReactions() {
  const box = $("reactions");
  const names = state.table.reactions || [];
  if (box.dataset.names === names.join() && box.dataset.lang === lang) return;
  box.dataset.names = names.join();
  box.dataset.lang = lang;
  box.replaceChildren(...names.map((name) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "reaction";
    button.dataset.reaction = name;
    button.textContent = texts[`table.reaction.${name}`] ?? name;
    const label = texts[`table.reaction_label.${name}`] ?? name;
    button.setAttribute("aria-label", label);
    button.title = label;
    button.addEventListener("click", () => { acted(); pendingAct = null; send({ type: "react", reaction: name }); });
    return button;
  }));
}

function onReaction(message) {
  const item = seatElement(message.seat);
  if (!item || !state) return;
  const bubble = item.querySelector(".bubble");
  const shown = texts[`table.reaction.${message.reaction}`] ?? message.reaction;
  bubble.textContent = shown;
  bubble.dataset.shownReaction = message.reaction;
  bubble.hidden = false;
  bubble.setAttribute("aria-label", fmt(texts["table.reaction_from"], {
    who: person(message.seat, true), reaction: texts[`table.reaction_label.${message.reaction}`] ?? shown }));
  clearTimeout(bubbles.get(message.seat));
  bubbles.set(message.seat, setTimeout(() => { bubble.hidden = true; delete bubble.dataset.shownReaction; }, REACTION_MS));
}

// ---- the felt: the cards on the table and the last completed trick

function drawArea(before) {
  const view = state.view;
  if (holding) return;  // the held trick stays until its time is up; the state is drawn then
  if (trickQueue.length) { startHold(trickQueue.shift(), before); return; }
  const pickedUp = pendingPickups;
  pendingPickups = [];
  const oldCards = new Map([...document.querySelectorAll("#area [data-card]")].map((node) => [node.dataset.card, node]));
  renderPlays(view.table, { tied: tiedCards(view) }, before);
  $("trick-note").textContent = view.phase === "shed" && view.table.length
    ? fmt(texts["table.trick_size"], { played: view.table.length, size: view.trick_size }) : "";
  drawWar(view);
  for (const event of pickedUp) {
    for (const code of event.cards) {
      const node = oldCards.get(code);
      const from = before.get(code);
      if (node && from && !$("area").querySelector(`[data-card="${code}"]`)) flyAway(code, from, seatTarget(event.seat));
    }
  }
}

function drawWar(view) {
  const war = $("war");
  if (!view.tie.length || holding) { war.hidden = true; return; }
  war.hidden = false;
  const names = view.tie.map((seat, index) => person(seat, index === 0));
  war.replaceChildren();
  const title = document.createElement("strong");
  title.textContent = texts["table.war"];
  war.append(title, " ", fmt(texts["table.war_between"], { names: joinNames(names) }));
}

/** Phase 1 in a war: the cards that tied, by each tied player (their latest card, or the
 * better of their latest two under two_cards), so the page can light them up. */
function tiedCards(view) {
  const tied = new Set();
  if (!view.tie.length) return tied;
  const earlier = view.trick.slice(0, view.trick.length - view.current_round.length);
  const perRound = view.rules.tie === "two_cards" ? 2 : 1;
  for (const seat of view.tie) {
    const cards = earlier.filter(([who]) => who === seat).map(([, code]) => code);
    const recent = cards.length > perRound ? cards.slice(-perRound) : cards.slice(-1);
    const top = Math.max(...recent.map((code) => parseCard(code).rank));
    for (const code of recent) if (parseCard(code).rank === top) tied.add(code);
  }
  return tied;
}

/** The card that took a completed trick: the winner's latest (the better of their latest two
 * under two_cards); in phase 2 the play that completed the table. */
function winningCards(trick, rules) {
  if (trick.reason === "cleared") return new Set(trick.cards[trick.cards.length - 1][1]);
  if (trick.reason !== "won") return new Set();
  const mine = trick.cards.filter(([seat]) => seat === trick.winner).map(([, codes]) => codes[0]);
  const recent = rules.tie === "two_cards" && mine.length >= 3 ? mine.slice(-2) : mine.slice(-1);
  const best = recent.reduce((a, b) => (parseCard(b).rank > parseCard(a).rank ? b : a));
  return new Set([best]);
}

function renderPlays(entries, { tied = new Set(), winning = new Set(), trick = null }, before) {
  const area = $("area");
  const trump = state.view.trump;
  const group = document.createElement("div");
  group.className = "plays";
  if (trick) {
    group.dataset.lastTrick = String(trick.number);
    group.dataset.reason = trick.reason;
    if (trick.winner !== null) group.dataset.winner = String(trick.winner);
  }
  for (const [seat, codes] of entries) {
    const play = document.createElement("div");
    play.className = "play";
    play.setAttribute("role", "listitem");
    play.dataset.seat = String(seat);
    const cards = document.createElement("div");
    cards.className = "play-cards";
    for (const code of codes) {
      const holder = document.createElement("span");
      holder.className = "table-card";
      holder.dataset.card = code;
      holder.setAttribute("role", "img");
      let label = fmt(texts["table.played_by"], { card: cardLabel(code), who: seatInfo(seat).you ? texts["table.you_object"] : person(seat) });
      if (tied.has(code)) { holder.classList.add("tied"); holder.dataset.tied = "true"; label += ` (${texts["table.in_war"]})`; }
      if (winning.has(code)) { holder.classList.add("winning"); holder.dataset.winning = "true"; label += ` (${texts["table.winning_card"]})`; }
      holder.setAttribute("aria-label", label);
      holder.append(cardSvg(code, { trump: Boolean(trump) && code[1] === trump }));
      if (winning.has(code)) {
        const mark = document.createElement("span");
        mark.className = "win-mark";
        mark.setAttribute("aria-hidden", "true");
        mark.textContent = texts["table.winning_card"];
        holder.append(mark);
      }
      cards.append(holder);
    }
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = seatName(seat);
    play.append(cards, who);
    group.append(play);
  }
  area.replaceChildren(group);
  fitArea(entries);
  for (const node of area.querySelectorAll("[data-card]")) {
    const seat = Number(node.closest(".play").dataset.seat);
    const from = before.get(node.dataset.card) ?? seatTarget(seat);
    if (from) flyIn(node, from);
  }
}

/** Cards on the table shrink when many are on it (a long war, a full phase-2 table). */
function fitArea(entries) {
  const area = $("area");
  const cards = entries.reduce((sum, [, codes]) => sum + codes.length, 0);
  const size = cards <= 6 && entries.length <= 6 ? 1 : cards <= 9 ? 0.82 : cards <= 14 ? 0.68 : 0.56;
  area.style.setProperty("--fit", String(size));
}

function startHold(trick, before) {
  const view = state.view;
  holding = { trick, timer: null };
  $("war").hidden = true;
  const winning = winningCards(trick, view.rules);
  renderPlays(trick.cards, { winning, trick }, before);
  const winner = trick.winner;
  $("trick-note").classList.add("held");
  $("trick-note").textContent = trick.reason === "taken_back" ? texts["table.taken_back"]
    : trick.reason === "won" ? (seatInfo(winner).you ? texts["table.took_trick_you"] : fmt(texts["table.took_trick"], { who: person(winner, true) }))
      : (seatInfo(winner).you ? texts["table.cleared_you"] : fmt(texts["table.cleared"], { who: person(winner) }));
  const pause = trickQueue.length ? Math.min(TRICK_PAUSE_MS, 500) : TRICK_PAUSE_MS;
  holding.timer = setTimeout(() => finishHold(false), pause);
}

/** The held trick goes: to the winner's pile (phase 1), out of the game (phase 2), or back
 * to each player (P1.8); then the table as it is now. */
function finishHold(quick) {
  if (!holding) return;
  const { trick, timer } = holding;
  clearTimeout(timer);
  const nodes = [...$("area").querySelectorAll("[data-card]")];
  const done = () => {
    if (!holding || holding.trick !== trick) return;
    holding = null;
    $("trick-note").textContent = "";
    $("trick-note").classList.remove("held");
    drawArea(positions());
  };
  if (quick || reducedMotion.matches || !nodes.length) { done(); return; }
  for (const node of nodes) {
    const seat = trick.reason === "won" || trick.winner === null ? Number(node.closest(".play").dataset.seat) : null;
    const target = trick.reason === "won" ? seatTarget(trick.winner) : trick.reason === "taken_back" ? seatTarget(seat) : null;
    leave(node, target);
  }
  setTimeout(done, MOVE_MS);
}

// ---- motion (none under prefers-reduced-motion)

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

function seatTarget(seat) {
  if (seat === null || seat === undefined) return null;
  if (seatInfo(seat)?.you && $("hand").children.length) return $("hand").getBoundingClientRect();
  return seatElement(seat)?.getBoundingClientRect() ?? null;
}

function flyIn(node, from) {
  if (reducedMotion.matches) return;
  const to = node.getBoundingClientRect();
  const a = centre(from);
  const b = centre(to);
  if (Math.abs(a.x - b.x) < 2 && Math.abs(a.y - b.y) < 2) return;
  const scale = Math.min(1.6, Math.max(0.4, from.width / Math.max(1, to.width)));
  node.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})` }, { transform: "none" }],
    { duration: MOVE_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
}

function leave(node, target) {
  if (reducedMotion.matches) return;
  const from = centre(node.getBoundingClientRect());
  const frames = target
    ? [{ transform: "none", opacity: 1 }, { transform: `translate(${centre(target).x - from.x}px, ${centre(target).y - from.y}px) scale(.35)`, opacity: 0.2 }]
    : [{ transform: "none", opacity: 1 }, { transform: "scale(.6)", opacity: 0 }];
  node.animate(frames, { duration: MOVE_MS, easing: "ease-in", fill: "forwards" });
}

/** A picked-up play leaves the table for the hand of whoever took it. */
function flyAway(code, from, target) {
  if (reducedMotion.matches || !target) return;
  const ghost = document.createElement("span");
  ghost.className = "ghost-card";
  ghost.setAttribute("aria-hidden", "true");
  ghost.style.left = `${from.left}px`;
  ghost.style.top = `${from.top}px`;
  ghost.style.width = `${from.width}px`;
  ghost.style.height = `${from.height}px`;
  ghost.append(cardSvg(code));
  document.body.append(ghost);
  const a = centre(from);
  const b = centre(target);
  const motion = ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.5)`, opacity: 0.3 }],
    { duration: MOVE_MS, easing: "ease-in" });
  motion.finished.then(() => ghost.remove(), () => ghost.remove());
}

// ---- the result

function drawResult(view) {
  const over = view.phase === "over" && state.result;
  const justOver = over && $("result").hidden;
  $("result").hidden = !over;
  document.body.classList.toggle("game-over", Boolean(over));
  if (!over) return;
  const result = state.result;
  const table = state.table;
  $("headline").textContent = result.headline;
  $("out-order").textContent = result.out_order || "";
  const grid = $("result-table");
  grid.replaceChildren();
  const head = grid.createTHead().insertRow();
  for (const text of [texts["table.player"], "", texts["table.cards_left"], texts["table.times_mattis"]]) {
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
      fan.setAttribute("aria-label", hand.map(cardLabel).join(", "));
      for (const code of sortHand(hand, "shed", view.trump)) {
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
}

// ---- the log, newest first, announced politely

function drawLog() {
  const list = $("log");
  const kindClass = (index) => {
    const kind = logKinds[index];
    return kind && /^[a-z_]+$/.test(kind) ? `log-${kind}` : "";
  };
  const item = (index) => {
    const li = document.createElement("li");
    li.textContent = log[index];
    li.className = kindClass(index);
    return li;
  };
  if (logShown < 0 || logShown > log.length) {
    list.setAttribute("aria-busy", "true");
    const first = Math.max(0, log.length - 60);
    list.replaceChildren(...log.slice(first).map((_, offset) => item(first + offset)).reverse());
    list.removeAttribute("aria-busy");
  } else {
    for (let index = logShown; index < log.length; index++) list.prepend(item(index));
    while (list.children.length > 60) list.lastElementChild.remove();
  }
  logShown = log.length;
}

function setLogOpen(open) {
  document.body.classList.toggle("log-open", open);
  $("log-toggle").setAttribute("aria-expanded", String(open));
  if (open) $("log-close").focus({ preventScroll: true });
}

// ------------------------------------------------------------------ wiring

$("chance").addEventListener("click", () => play("chance"));
$("pickup").addEventListener("click", () => play("pickup"));
$("hint").addEventListener("click", () => {
  acted();
  hintPending = true;
  $("hint").disabled = true;
  $("hint-text").textContent = texts.thinking;
  send({ type: "hint" });
});
$("again").addEventListener("click", () => { acted(); send({ type: "again" }); });
$("chooser-close").addEventListener("click", () => { closeChooser(); raisedCard = null; drawHand(state.view); });
$("log-toggle").addEventListener("click", () => setLogOpen(!document.body.classList.contains("log-open")));
$("log-close").addEventListener("click", () => { setLogOpen(false); $("log-toggle").focus(); });
$("copy").addEventListener("click", async () => {
  $("invite").select();
  try { await navigator.clipboard.writeText($("invite").value); } catch { document.execCommand("copy"); }
  $("copy").textContent = texts.copied;
});
$("share").addEventListener("click", async () => {
  try { await navigator.share({ title: texts.title, text: texts["table.share_text"], url: $("invite").value }); } catch { /* cancelled */ }
});
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || !state || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Escape") { closeChooser(); setLogOpen(false); }
  if (event.key === "c" && state.legal.includes("chance")) play("chance");
  if (event.key === "p" && state.legal.includes("pickup")) play("pickup");
  if (event.key === "h" && state.legal.length) $("hint").click();
});
const resized = new ResizeObserver(() => {
  if (!state?.view) return;
  layoutHand();
  if ($("felt").dataset.layout !== feltLayout()) drawSeats(state.view);
  else placeSeats();
});
resized.observe($("felt"));
resized.observe($("hand"));

async function start() {
  texts = await loadTexts(lang);
  lang = texts._lang;  // the language the server chose, when none was asked for
  fillTexts();
  $("device-badge").hidden = !isLocal(tableId);  // a game the offline app keeps on this device
  if (sessionStorage.getItem(OFFLINE_NOTE)) {  // no server answered when it was dealt: say so once
    sessionStorage.removeItem(OFFLINE_NOTE);
    $("offline-note").hidden = false;
  }
  if (saved()?.token) connect(); else showJoin();
}
start();
