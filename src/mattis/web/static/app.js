// The start page: rules, house rules, players and seats, your name; creates the table.
import { currentLang, fmt, langSwitch, loadTexts } from "./i18n.js";
import { createTable } from "./transport.js";

let lang = currentLang();
let texts = {};
let catalogue = null;

const $ = (id) => document.getElementById(id);

function fillTexts() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = texts[node.dataset.text] ?? "";
  for (const link of document.querySelectorAll("a.rules-link")) link.href = `/rules?lang=${lang}`;
  langSwitch($("lang"), lang, (code) => { lang = code; start(); });
}

function option(select, value, label, selected) {
  const item = document.createElement("option");
  item.value = String(value);
  item.textContent = label;
  item.selected = selected;
  select.append(item);
}

function presetRules() {
  return catalogue.presets.find((p) => p.name === $("preset").value).rules;
}

function renderPreset() {
  const preset = catalogue.presets.find((p) => p.name === $("preset").value);
  $("summary").textContent = preset.summary;
  const players = $("players");
  const chosen = Number(players.value) || 3;
  players.replaceChildren();
  for (let n = preset.rules.min_players; n <= preset.rules.max_players; n++) {
    option(players, n, String(n), n === Math.min(Math.max(chosen, preset.rules.min_players), preset.rules.max_players));
  }
  renderOptions();
  renderSeats();
}

function renderOptions() {
  const box = $("options");
  box.replaceChildren();
  const rules = presetRules();
  for (const item of catalogue.options) {
    const label = document.createElement("label");
    label.className = "option";
    const title = document.createElement("span");
    title.innerHTML = `<strong></strong> <small class="muted"></small><br><small></small>`;
    title.querySelector("strong").textContent = item.name;
    title.querySelector("small.muted").textContent = `${item.field} · ${item.rule}`;
    title.lastElementChild.textContent = item.description;
    const select = document.createElement("select");
    select.dataset.field = item.field;
    for (const value of item.values) option(select, JSON.stringify(value.value), value.label, value.value === rules[item.field]);
    label.append(title, select);
    box.append(label);
  }
}

function renderSeats() {
  const list = $("seats");
  const count = Number($("players").value);
  const previous = [...list.querySelectorAll("li")].map((li) => li.querySelector("select.kind")?.value);
  list.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const item = document.createElement("li");
    if (seat === 0) {
      item.textContent = texts.seat_you;
    } else {
      const kind = document.createElement("select");
      kind.className = "kind";
      kind.setAttribute("aria-label", fmt(texts.seat_n, { n: seat + 1 }));
      for (const level of catalogue.levels) option(kind, `bot:${level.level}`, `${texts.kind_bot}: ${level.label}`, level.level === "normal");
      option(kind, "open", texts.kind_open, false);
      if (previous[seat]) kind.value = previous[seat];
      item.append(fmt(texts.seat_n, { n: seat + 1 }), " ", kind);
    }
    list.append(item);
  }
}

async function create(event) {
  event.preventDefault();
  $("error").textContent = "";
  const rules = presetRules();
  const changes = {};
  for (const select of $("options").querySelectorAll("select")) {
    const value = JSON.parse(select.value);
    if (value !== rules[select.dataset.field]) changes[select.dataset.field] = value;
  }
  const seats = [{ kind: "human", name: $("name").value }];
  for (const select of $("seats").querySelectorAll("select.kind")) {
    seats.push(select.value === "open" ? { kind: "open" } : { kind: "bot", level: select.value.slice(4) });
  }
  localStorage.setItem("mattis.name", $("name").value);
  const response = await createTable({ rules: $("preset").value, set: changes, players: Number($("players").value), seats }, lang);
  const data = response.data;
  if (!response.ok) { $("error").textContent = data.message; return; }
  localStorage.setItem(`mattis.seat.${data.table}`, JSON.stringify({ seat: data.seat, token: data.token }));
  location.href = `/t/${data.table}`;
}

async function start() {
  [texts, catalogue] = await Promise.all([loadTexts(lang), fetch(`/api/options?lang=${lang}`).then((r) => r.json())]);
  fillTexts();
  const preset = $("preset");
  const chosen = preset.value || "pagat";
  preset.replaceChildren();
  for (const item of catalogue.presets) option(preset, item.name, item.name, item.name === chosen);
  if (!$("name").value) $("name").value = localStorage.getItem("mattis.name") || "";
  renderPreset();
}

$("preset").addEventListener("change", renderPreset);
$("players").addEventListener("change", renderSeats);
$("new-table").addEventListener("submit", create);
start();
