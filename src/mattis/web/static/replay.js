// The replay page (/replay/{table}/{game}): a finished game step by step with every hand
// showing and the table's story lines (GET /api/tables/{ID}/replay, docs/ledger.md).
import { cardSvg } from "./cards.js";
import { currentLang, fmt, loadTexts } from "./i18n.js";
import { $, fillTexts } from "./page.js";

const [, , tableId, gameText] = location.pathname.split("/");
let lang = currentLang();
let texts = {};
let replay = null;
let position = 0;

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function show() {
  const step = replay.steps[position];
  const last = replay.steps.length - 1;
  $("replay-slider").max = String(last);
  $("replay-slider").value = String(position);
  $("replay-slider").setAttribute("aria-valuetext", fmt(texts.replay_position, { step: position, steps: last }));
  $("replay-position").textContent = fmt(texts.replay_position, { step: position, steps: last });
  $("replay-back").disabled = position === 0;
  $("replay-next").disabled = position === last;
  const mover = step.seat === null ? null : replay.players[step.seat].name;
  $("replay-move").textContent = step.action === null ? texts.replay_deal : fmt(texts.replay_moved, { name: mover, action: step.action });
  const hands = $("replay-hands");
  hands.replaceChildren();
  step.hands.forEach((hand, seat) => {
    const li = element("li", null, { "data-replay-seat": String(seat) });
    const lost = position === last && replay.result.losers.includes(seat);
    li.append(element("strong", lost ? fmt(texts.ledger_was_mattis, { name: replay.players[seat].name }) : replay.players[seat].name));
    const cards = element("span", null, { class: "replay-cards", role: "img",
      "aria-label": hand.length ? hand.join(" ") : texts.replay_empty });
    for (const card of hand) cards.append(cardSvg(card, { trump: step.trump !== null && card.endsWith(step.trump) }));
    if (!hand.length) cards.append(element("span", texts.replay_empty, { class: "muted" }));
    li.append(cards);
    hands.append(li);
  });
  const lines = $("replay-lines");
  lines.replaceChildren();
  for (let index = 0; index <= position; index += 1) {
    for (const line of replay.steps[index].lines) lines.append(element("li", line));
  }
  if (position === last) lines.append(element("li", replay.result.headline, { class: "lost" }));
}

async function load() {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay?game=${gameText}&lang=${lang}`);
  const data = await response.json();
  if (!response.ok) { $("replay-error").textContent = data.message; return; }
  replay = data;
  $("replay-result").textContent = `${data.result.headline} ${data.result.out_order}`;
  show();
}

async function render() {
  texts = await loadTexts(lang);
  lang = texts._lang;
  fillTexts(texts, lang, { onLang: (code) => { lang = code; localStorage.setItem("mattis.lang", code); render(); } });
  await load();
}

$("replay-back").addEventListener("click", () => { position = Math.max(0, position - 1); show(); });
$("replay-next").addEventListener("click", () => { position = Math.min(replay.steps.length - 1, position + 1); show(); });
$("replay-slider").addEventListener("input", (event) => { position = Number(event.target.value); show(); });
render();
