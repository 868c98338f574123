// The start page: one click to a game against the computer, one to a table for friends, and
// below them every choice (rules, players, seats, house rules). The last choices are kept in
// this browser, so "Play now" deals the game you played last time.
import { cardSvg } from "./cards.js";
import { currentLang, fmt, loadTexts, plural } from "./i18n.js";
import { $, fillTexts, noteDealtOffline, saveName, saveSeat, savedName, savedSeat, tablePath } from "./page.js";
import { createTable, myStats } from "./transport.js";

const CHOICES_KEY = "mattis.choices";
const LAST_TABLE_KEY = "mattis.last_table";
const LEARN_KEY = "mattis.learn";  // the tutorial (learn.js): "done" or "dismissed"
const DEFAULT_CHOICES = { rules: "pagat", set: {}, players: 3, levels: ["normal", "normal"], friends: 3 };
const FAN = ["As", "Kh", "Qd", "Jc"];

let lang = currentLang();
let texts = {};
let catalogue = null;
let loading = null;
let choices = DEFAULT_CHOICES;

// ------------------------------------------------------------------ remembered choices

function presetOf(name) {
  return catalogue.presets.find((preset) => preset.name === name);
}

function levelNames() {
  return catalogue.levels.map((item) => item.level);
}

/** Stored choices, checked against what the server offers now; anything odd is replaced by
 * the defaults, so an old or edited value never breaks the page. */
function validChoices(raw) {
  if (!raw || typeof raw !== "object") return DEFAULT_CHOICES;
  const preset = presetOf(raw.rules);
  if (!preset) return DEFAULT_CHOICES;
  const { min_players: low, max_players: high } = preset.rules;
  const inRange = (n) => Number.isInteger(n) && n >= low && n <= high;
  const players = inRange(raw.players) ? raw.players : Math.min(Math.max(3, low), high);
  const known = levelNames();
  const levels = [];
  for (let seat = 1; seat < players; seat++) {
    const level = Array.isArray(raw.levels) ? raw.levels[seat - 1] : null;
    levels.push(known.includes(level) ? level : "normal");
  }
  const set = {};
  for (const [field, value] of Object.entries(raw.set && typeof raw.set === "object" ? raw.set : {})) {
    const option = catalogue.options.find((item) => item.field === field);
    if (option && option.values.some((item) => item.value === value) && value !== preset.rules[field]) set[field] = value;
  }
  const friends = inRange(raw.friends) ? raw.friends : players;
  return { rules: preset.name, set, players, levels, friends };
}

function loadChoices() {
  try { return validChoices(JSON.parse(localStorage.getItem(CHOICES_KEY))); } catch { return DEFAULT_CHOICES; }
}

function saveChoices(next) {
  choices = next;
  localStorage.setItem(CHOICES_KEY, JSON.stringify(next));
}

// ------------------------------------------------------------------ words

function levelLabel(level) {
  return catalogue.levels.find((item) => item.level === level)?.label ?? level;
}

function presetTitle(name) {
  return texts[`preset_title.${name}`] ?? name;
}

/** "You and 2 computer players (normal)" and "Rules: The usual way": what "Play now" deals. */
function quickSummary() {
  const bots = choices.players - 1;
  const levels = [...new Set(choices.levels)].map(levelLabel).join(", ");
  const who = plural(texts, "computer_players", bots, { n: bots, levels });
  const changed = Object.keys(choices.set).length;
  const rules = presetTitle(choices.rules) + (changed ? ` + ${texts.house_rules.toLowerCase()}` : "");
  return [who, fmt(texts.quick_rules, { rules })];
}

// ------------------------------------------------------------------ the warning before a deal

/** The warning before a deal likely to end early in Blåmattis or Blodmattis (P1.10): the
 * measured rate the server gives with a preset (`empty_loss`, as the terminal warns), for its
 * own rules at this player count; none with house rules, which were not measured. */
function emptyLossWarning(presetName, set, players) {
  if (Object.keys(set).length) return "";
  return presetOf(presetName)?.empty_loss?.find((item) => item.players === players)?.warning ?? "";
}

function showWarning(id, text) {
  $(id).textContent = text;
  $(id).hidden = !text;
}

/** Each choice's warning: "Play now", the friends' table, the form below them. */
function drawWarnings() {
  showWarning("quick-warning", emptyLossWarning(choices.rules, choices.set, choices.players));
  const friends = Number(checkedValue("friends")) || choices.friends;
  showWarning("friends-warning", emptyLossWarning(choices.rules, choices.set, friends));
  if (checkedValue("preset")) {
    showWarning("setup-warning", emptyLossWarning(formPreset().name, houseRules(), Number(checkedValue("players"))));
  }
}

// ------------------------------------------------------------------ building blocks

function chip(name, value, label, checked, onChange) {
  const item = document.createElement("label");
  item.className = "chip";
  const input = document.createElement("input");
  input.type = "radio";
  input.name = name;
  input.value = String(value);
  input.checked = checked;
  input.addEventListener("change", onChange);
  const text = document.createElement("span");
  text.textContent = label;
  item.append(input, text);
  return item;
}

function checkedValue(name) {
  return document.querySelector(`input[name="${name}"]:checked`)?.value;
}

function option(select, value, label, selected) {
  const item = document.createElement("option");
  item.value = String(value);
  item.textContent = label;
  item.selected = selected;
  select.append(item);
}

function countChips(container, name, preset, chosen, onChange) {
  const { min_players: low, max_players: high } = preset.rules;
  const picked = Math.min(Math.max(chosen, low), high);
  container.replaceChildren();
  for (let n = low; n <= high; n++) container.append(chip(name, n, String(n), n === picked, onChange));
}

function drawFan() {
  const fan = document.querySelector(".hero .fan");
  if (fan.childElementCount) return;
  for (const code of FAN) {
    const card = document.createElement("span");
    card.className = "card-pic";
    card.append(cardSvg(code));
    fan.append(card);
  }
}

// ------------------------------------------------------------------ the form

function formPreset() {
  return presetOf(checkedValue("preset") ?? choices.rules);
}

function renderPresets() {
  const box = $("presets");
  box.replaceChildren();
  for (const preset of catalogue.presets) {
    const item = chip("preset", preset.name, "", preset.name === choices.rules, () => renderForPreset({}));
    item.className = "preset-option";
    const body = item.querySelector("span");
    const title = document.createElement("strong");
    title.textContent = presetTitle(preset.name);
    const text = document.createElement("span");
    text.className = "preset-text";
    text.textContent = texts[`preset_text.${preset.name}`] ?? preset.summary;
    const name = document.createElement("small");
    name.className = "muted";
    name.textContent = fmt(texts.preset_name, { name: preset.name });
    body.append(title, text, name);
    box.append(item);
  }
}

function renderForPreset(set) {
  countChips($("players"), "players", formPreset(), Number(checkedValue("players")) || choices.players, renderSeats);
  renderOptions(set);
  renderSeats();
}

function renderSeats() {
  const list = $("seats");
  const count = Number(checkedValue("players"));
  const previous = [...list.querySelectorAll("select.kind")].map((select) => select.value);
  list.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const item = document.createElement("li");
    if (seat === 0) {
      item.textContent = texts.seat_you;
    } else {
      const label = document.createElement("label");
      const kind = document.createElement("select");
      kind.className = "kind";
      const chosen = previous[seat - 1] ?? `bot:${choices.levels[seat - 1] ?? "normal"}`;
      for (const level of catalogue.levels) {
        option(kind, `bot:${level.level}`, fmt(texts.seat_computer, { level: level.label }), chosen === `bot:${level.level}`);
      }
      option(kind, "open", texts.seat_friend, chosen === "open");
      label.append(fmt(texts.seat_n, { n: seat + 1 }), " ", kind);
      item.append(label);
    }
    list.append(item);
  }
  drawWarnings();
}

function renderOptions(set) {
  const box = $("options");
  box.replaceChildren();
  const rules = formPreset().rules;
  for (const item of catalogue.options) {
    const field = document.createElement("fieldset");
    field.className = "option";
    field.dataset.field = item.field;
    // Cards put away for two players (C4) matter only to rules that allow two.
    field.hidden = item.field === "removed_two_player" && rules.min_players > 2;
    const legend = document.createElement("legend");
    legend.textContent = item.description;
    const values = document.createElement("span");
    values.className = "chips";
    const current = item.field in set ? set[item.field] : rules[item.field];
    for (const value of item.values) {
      values.append(chip(`opt-${item.field}`, JSON.stringify(value.value), value.label, value.value === current, updateChanges));
    }
    field.append(legend, values);
    box.append(field);
  }
  updateChanges();
}

/** The house rules chosen: every option whose value differs from the preset's. */
function houseRules() {
  const rules = formPreset().rules;
  const changes = {};
  for (const item of catalogue.options) {
    const value = checkedValue(`opt-${item.field}`);
    if (value === undefined) continue;
    const parsed = JSON.parse(value);
    if (parsed !== rules[item.field]) changes[item.field] = parsed;
  }
  return changes;
}

function updateChanges() {
  const changes = houseRules();
  const count = Object.keys(changes).length;
  $("changed").hidden = count === 0;
  $("changed").textContent = fmt(texts.house_rules_changed, { n: count });
  for (const field of $("options").querySelectorAll("fieldset.option")) {
    field.classList.toggle("changed", field.dataset.field in changes);
  }
  const table = $("details-table");
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const key of ["details_option", "details_field", "details_rule", "details_value"]) {
    const cell = document.createElement("th");
    cell.textContent = texts[key];
    head.append(cell);
  }
  const body = table.createTBody();
  for (const item of catalogue.options) {
    const row = body.insertRow();
    const value = JSON.parse(checkedValue(`opt-${item.field}`) ?? "null");
    const label = item.values.find((entry) => entry.value === value)?.label ?? "";
    for (const text of [item.name, item.field, item.rule, label]) row.insertCell().textContent = text;
    row.cells[1].className = "code";
  }
  drawWarnings();
}

function formSeats() {
  const seats = [humanSeat()];
  for (const select of $("seats").querySelectorAll("select.kind")) {
    seats.push(select.value === "open" ? { kind: "open" } : { kind: "bot", level: select.value.slice(4) });
  }
  return seats;
}

// ------------------------------------------------------------------ creating a table

function humanSeat() {
  const name = $("name").value.trim();
  saveName(name);
  return { kind: "human", name };
}

function busy(on, button) {
  for (const node of document.querySelectorAll("button.primary")) {
    node.disabled = on;
    node.textContent = on && node === button ? texts.dealing : texts[node.dataset.text];
  }
}

async function open(body, button, errorBox) {
  errorBox.textContent = "";
  busy(true, button);
  const response = await createTable(body, lang);
  const data = response.data;
  if (!response.ok) {
    busy(false, button);
    errorBox.textContent = data.message;
    return;
  }
  saveSeat(data.table, data);
  localStorage.setItem(LAST_TABLE_KEY, data.table);
  if (response.offline) noteDealtOffline();  // the table page says it
  location.href = tablePath(data.table);
}

async function quickStart(event) {
  await loading;
  const seats = [humanSeat(), ...choices.levels.map((level) => ({ kind: "bot", level }))];
  await open({ rules: choices.rules, set: choices.set, players: seats.length, seats }, event.currentTarget, $("start-error"));
}

async function friendsTable(event) {
  await loading;
  const count = Number(checkedValue("friends")) || choices.friends;
  saveChoices({ ...choices, friends: count });
  const seats = [humanSeat()];
  while (seats.length < count) seats.push({ kind: "open" });
  await open({ rules: choices.rules, set: choices.set, players: count, seats }, event.currentTarget, $("start-error"));
}

async function createFromForm(event) {
  event.preventDefault();
  await loading;
  const seats = formSeats();
  const set = houseRules();
  const levels = seats.slice(1).map((seat) => seat.level ?? "normal");
  saveChoices(validChoices({ ...choices, rules: formPreset().name, set, players: seats.length, levels }));
  await open({ rules: formPreset().name, set, players: seats.length, seats }, $("create"), $("error"));
}

// ------------------------------------------------------------------ my statistics

// "Min statistikk": the games played on this device, counted by the worker's Python
// (mattis.offline.stats.device_stats, the ledger's level_stats, and the owner's rating),
// shown when opened.

function percent(rate) {
  return new Intl.NumberFormat(lang === "en" ? "en" : "nb", { style: "percent", maximumFractionDigits: 1 })
    .format(rate);
}

function statsRow(key, label, row) {
  const line = document.createElement("tr");
  line.dataset.myStatsRow = key;
  const name = document.createElement("th");
  name.scope = "row";
  name.textContent = label;
  const interval = row.rate_interval
    ? `${percent(row.rate_interval[0])}–${percent(row.rate_interval[1])}` : texts.my_stats_interval_later;
  const cells = [String(row.games), String(row.mattis), row.rate === null ? "" : percent(row.rate), interval];
  line.append(name, ...cells.map((text) => {
    const cell = document.createElement("td");
    cell.textContent = text;
    return cell;
  }));
  return line;
}

async function showMyStats() {
  const body = $("my-stats-body");
  const answer = await myStats(lang);
  if (!answer.ok) {
    body.textContent = answer.data?.message ?? "";
    return;
  }
  const figures = answer.data;
  if (!figures.games) {
    const none = document.createElement("p");
    none.textContent = texts.my_stats_none;
    body.replaceChildren(none);
    return;
  }
  const table = document.createElement("table");
  table.className = "stats-table";
  const head = document.createElement("tr");
  for (const key of ["against", "games", "mattis", "rate", "interval"]) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = texts[`my_stats_${key}`];
    head.append(cell);
  }
  const header = document.createElement("thead");
  header.append(head);
  const rows = document.createElement("tbody");
  rows.append(statsRow("all", texts.my_stats_all, figures),
    ...figures.levels.map((row) => statsRow(row.level, texts[`level.${row.level}`] ?? levelLabel(row.level), row)));
  table.append(header, rows);
  body.replaceChildren(table, ...ratingLines(figures.rating));
}

// The owner's OpenSkill rating over the games on this device (mattis.table.rating, as the
// server's GET /api/players/me); none for games saved before the device kept their places.
function ratingLines(rating) {
  if (!rating) return [];
  const number = new Intl.NumberFormat(lang === "en" ? "en" : "nb", { maximumFractionDigits: 1 });
  const line = document.createElement("p");
  line.dataset.myStatsRating = "";
  line.textContent = fmt(texts.my_stats_rating, {
    ordinal: number.format(rating.ordinal), mu: number.format(rating.mu), sigma: number.format(rating.sigma),
    games: String(rating.games),
  });
  const help = document.createElement("p");
  help.textContent = texts.my_stats_rating_help;
  return [line, help];
}

// ------------------------------------------------------------------ start

function renderAll() {
  fillTexts(texts, lang, { onLang: (code) => { lang = code; start(); } });
  drawFan();
  const [who, rules] = quickSummary();
  $("quick-summary").replaceChildren(who, document.createElement("br"), rules);
  countChips($("friends-count"), "friends", presetOf(choices.rules), choices.friends, drawWarnings);
  const previousPreset = checkedValue("preset");
  const set = previousPreset ? houseRules() : choices.set;
  renderPresets();
  if (previousPreset) document.querySelector(`input[name="preset"][value="${previousPreset}"]`).checked = true;
  renderForPreset(set);
  const last = localStorage.getItem(LAST_TABLE_KEY);
  // First-time visitors (nothing remembered on this device) are offered the tutorial.
  $("learn-offer").hidden = Boolean(last || localStorage.getItem(CHOICES_KEY) || localStorage.getItem(LEARN_KEY));
  $("continue").hidden = !(last && savedSeat(last));
  if (last) $("continue-link").href = tablePath(last);
}

async function start() {
  loading = Promise.all([loadTexts(lang), fetch(`/api/options?lang=${lang}`).then((r) => r.json())]);
  [texts, catalogue] = await loading;
  lang = texts._lang;  // the language the server chose, when none was asked for
  choices = loadChoices();
  if (!$("name").value) $("name").value = savedName();
  renderAll();
}

document.querySelector('[data-action="quick-start"]').addEventListener("click", quickStart);
document.querySelector('[data-action="friends"]').addEventListener("click", friendsTable);
$("reset-options").addEventListener("click", () => renderOptions({}));
document.querySelector('[data-action="learn-dismiss"]').addEventListener("click", () => {
  localStorage.setItem(LEARN_KEY, "dismissed");
  $("learn-offer").hidden = true;
});
$("new-table").addEventListener("submit", createFromForm);
$("my-stats").addEventListener("toggle", () => { if ($("my-stats").open) showMyStats(); });
// Back from a table: the browser may show this page as it was left, buttons still busy.
window.addEventListener("pageshow", (event) => { if (event.persisted && catalogue) { busy(false); renderAll(); } });
start();
