// The group pages (docs/ledger.md): /g/ lists this device's groups and makes one, /g/{ID} is
// a group (members, "Start a table for us", the season's ledger with a loss-rate chart per
// player, the awards, the history with its replays), /device#code=CODE gives this device the
// player of another one. The player is made on the first visit without asking anything.
import { currentLang, fmt, loadTexts } from "./i18n.js";
import { $, fillTexts, saveSeat, tablePath } from "./page.js";
import { adoptPlayer, ensurePlayer, playerCall, rememberName } from "./player.js";

let lang = currentLang();
let texts = {};
let me = null;
let group = null;
const SVG = "http://www.w3.org/2000/svg";
const groupId = decodeURIComponent(location.pathname.split("/")[2] || "");
const onDevicePage = location.pathname === "/device";

function showError(answer) {
  $("group-error").textContent = answer && answer.data && answer.data.message ? answer.data.message : texts.group_failed;
}

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** Put an SVG the server made (a QR code) in `box`, parsed as SVG, never as HTML. */
function showSvg(box, markup) {
  const parsed = new DOMParser().parseFromString(markup, "image/svg+xml").documentElement;
  parsed.setAttribute("role", "img");
  box.replaceChildren(document.importNode(parsed, true));
}

// ------------------------------------------------------------------ the player

async function loadMe() {
  me = await ensurePlayer(texts.group_default_name || "Mattis", lang);
  $("my-name").value = me.name;
}

async function saveName(event) {
  event.preventDefault();
  const answer = await playerCall("PATCH", `/api/players/me?lang=${lang}`, { name: $("my-name").value });
  if (!answer.ok) { showError(answer); return; }
  me = { ...me, name: answer.data.name };
  await rememberName(answer.data.name);
  $("my-name").value = answer.data.name;
  $("name-saved").textContent = texts.group_name_saved;
  if (group) await showGroup();
}

async function newDevice() {
  const answer = await playerCall("POST", `/api/players/me/devices?lang=${lang}`);
  if (!answer.ok) { showError(answer); return; }
  showSvg($("device-qr"), answer.data.qr);
  $("device-code").textContent = `${answer.data.code.slice(0, 4)}-${answer.data.code.slice(4)}`;
  $("device").hidden = false;
}

async function claim(code) {
  const answer = await playerCall("POST", `/api/players/claim?lang=${lang}`, { code });
  if (!answer.ok) { showError(answer); return false; }
  await adoptPlayer({ player: answer.data.player, key: answer.data.key, name: "" });
  history.replaceState(null, "", "/g/");
  return true;
}

// ------------------------------------------------------------------ my groups

async function showGroups() {
  $("groups").hidden = false;
  const list = $("group-list");
  list.replaceChildren();
  for (const item of me.groups || []) {
    const li = element("li");
    li.append(element("a", item.name, { href: `/g/${encodeURIComponent(item.group)}` }));
    list.append(li);
  }
  if (!list.children.length) list.append(element("li", texts.group_none, { class: "muted" }));
}

async function createGroup(event) {
  event.preventDefault();
  const answer = await playerCall("POST", `/api/groups?lang=${lang}`, { name: $("new-group-name").value });
  if (!answer.ok) { showError(answer); return; }
  // the group page shows its creator an invite (a new code, with its QR) at once
  location.href = `/g/${encodeURIComponent(answer.data.group)}#invite`;
}

// ------------------------------------------------------------------ a group

async function joinFromInvite() {
  const code = new URLSearchParams(location.hash.slice(1)).get("join");
  if (!code) return;
  history.replaceState(null, "", location.pathname);
  const answer = await playerCall("POST", `/api/groups/${encodeURIComponent(groupId)}/join?lang=${lang}`, { code });
  if (!answer.ok) showError(answer);
}

async function showGroup() {
  const answer = await playerCall("GET", `/api/groups/${encodeURIComponent(groupId)}?lang=${lang}`);
  if (!answer.ok) { showError(answer); $("group").hidden = true; return; }
  group = answer.data;
  $("group").hidden = false;
  $("group-name").textContent = group.name;
  document.title = `${group.name} · Mattis`;
  const members = $("members");
  members.replaceChildren();
  for (const member of group.members) {
    const li = element("li", member.player === me.player ? fmt(texts.group_member_you, { name: member.name }) : member.name);
    members.append(li);
  }
  $("new-code").hidden = group.creator !== me.player;
  $("export").href = `/api/groups/${encodeURIComponent(groupId)}/export.csv`;
  await showLedger();
}

async function startTable(event) {
  const button = event.currentTarget;
  button.disabled = true;
  const players = Math.min(6, Math.max(3, group.members.length));
  const seats = [{ kind: "human", name: me.name }];
  for (let index = 1; index < players; index += 1) {
    seats.push(index < group.members.length ? { kind: "open" } : { kind: "bot", level: "normal" });
  }
  const answer = await playerCall("POST", `/api/tables?lang=${lang}`, { rules: "pagat", players, seats, group: groupId });
  if (!answer.ok) { button.disabled = false; showError(answer); return; }
  saveSeat(answer.data.table, answer.data);
  location.href = tablePath(answer.data.table);
}

async function newCode() {
  const answer = await playerCall("POST", `/api/groups/${encodeURIComponent(groupId)}/code?lang=${lang}`);
  if (!answer.ok) { showError(answer); return; }
  const link = $("invite-link");
  link.href = answer.data.invite;
  link.textContent = answer.data.invite;
  showSvg($("invite-qr"), answer.data.qr);
  $("invite").hidden = false;
}

async function leave() {
  const answer = await playerCall("POST", `/api/groups/${encodeURIComponent(groupId)}/leave?lang=${lang}`);
  if (!answer.ok) { showError(answer); return; }
  location.href = "/g/";
}

// ------------------------------------------------------------------ the ledger

function seasons() {
  const year = new Date().getUTCFullYear();
  return [String(year), String(year - 1), "all"];
}

/** A player's loss rate over the season as a small line (0 at the bottom, 1 at the top). */
function chart(points, label) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 96 28");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const base = document.createElementNS(SVG, "line");
  for (const [name, value] of Object.entries({ x1: 0, y1: 27, x2: 96, y2: 27 })) base.setAttribute(name, value);
  svg.append(base);
  const line = document.createElementNS(SVG, "polyline");
  const step = points.length > 1 ? 94 / (points.length - 1) : 0;
  line.setAttribute("points", points.map((rate, index) => `${(1 + index * step).toFixed(1)},${(26 - rate * 25).toFixed(1)}`).join(" "));
  svg.append(line);
  return svg;
}

/** The locales to format numbers and dates in (not every browser knows nynorsk). */
function locales() {
  return lang === "nn" ? ["nn", "nb"] : [lang];
}

function percent(rate) {
  return new Intl.NumberFormat(locales(), { style: "percent", maximumFractionDigits: 0 }).format(rate);
}

async function showLedger() {
  const season = $("season").value || seasons()[0];
  const answer = await playerCall("GET", `/api/groups/${encodeURIComponent(groupId)}/ledger?season=${season}&lang=${lang}`);
  if (!answer.ok) { showError(answer); return; }
  const ledger = answer.data;
  const names = {};
  $("ledger-games").textContent = fmt(texts.ledger_games_count, { count: ledger.games });
  const rows = $("ledger-rows");
  rows.replaceChildren();
  for (const row of ledger.players) {
    names[row.player] = row.name;
    const tr = element("tr", null, { "data-ledger-player": row.player });
    const name = element("th", row.name, { scope: "row" });
    name.append(chart(row.trend, fmt(texts.ledger_chart_label, { name: row.name, rate: percent(row.rate) })));
    tr.append(name, element("td", String(row.games)), element("td", String(row.mattis)));
    const rate = element("td", percent(row.rate));
    if (row.rate_interval) {
      rate.append(element("span", `${percent(row.rate_interval[0])}–${percent(row.rate_interval[1])}`, { class: "interval" }));
    }
    tr.append(rate, element("td", String(row.best_run)), element("td", String(row.current_run)));
    rows.append(tr);
  }
  const awards = $("awards");
  awards.replaceChildren();
  for (const award of ledger.awards) {
    const li = element("li", null, { "data-award": award.award });
    li.append(element("strong", award.name),
      element("span", fmt(texts.ledger_award_holder, { name: names[award.player] || award.player, value: award.value })),
      element("span", award.rule, { class: "rule" }));
    awards.append(li);
  }
  if (!ledger.awards.length) awards.append(element("li", texts.ledger_no_awards, { class: "muted" }));
  const list = $("history");
  list.replaceChildren();
  for (const entry of ledger.history) {
    const li = element("li");
    const when = new Date(entry.finished).toLocaleString(locales(), { dateStyle: "medium", timeStyle: "short" });
    li.append(element("time", when, { datetime: entry.finished }), document.createTextNode(": "));
    entry.seats.forEach((seat, index) => {
      if (index) li.append(document.createTextNode(", "));
      const name = seat.kind === "bot" ? fmt(texts.ledger_bot, { name: seat.name }) : seat.name;
      li.append(seat.mattis ? element("span", fmt(texts.ledger_was_mattis, { name }), { class: "lost" }) : document.createTextNode(name));
    });
    li.append(document.createTextNode(" · "),
      element("a", texts.ledger_replay, { href: `/replay/${encodeURIComponent(entry.table)}/${entry.game}` }));
    list.append(li);
  }
}

// ------------------------------------------------------------------ the page

async function render() {
  texts = await loadTexts(lang);
  lang = texts._lang;
  fillTexts(texts, lang, { onLang: (code) => { lang = code; localStorage.setItem("mattis.lang", code); render(); } });
  const select = $("season");
  const chosen = select.value;
  select.replaceChildren(...seasons().map((season) => element("option", season === "all" ? texts.ledger_all_time : season, { value: season })));
  if (chosen) select.value = chosen;
  if (group) await showGroup();
}

async function start() {
  await render();
  if (onDevicePage) {
    $("claim").hidden = false;
    const code = new URLSearchParams(location.hash.slice(1)).get("code");
    if (code && await claim(code)) location.href = "/g/";
    return;
  }
  try { await loadMe(); } catch (error) { $("group-error").textContent = texts.group_failed; return; }
  if (groupId) {
    const inviteNow = location.hash === "#invite";
    await joinFromInvite();
    await showGroup();
    if (inviteNow && group && group.creator === me.player) {
      history.replaceState(null, "", location.pathname);
      await newCode();
    }
  } else {
    await showGroups();
  }
}

$("name-form").addEventListener("submit", saveName);
$("device-button").addEventListener("click", newDevice);
$("new-group").addEventListener("submit", createGroup);
$("claim-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (await claim($("claim-code").value)) location.href = "/g/";
});
$("start-table").addEventListener("click", startTable);
$("new-code").addEventListener("click", newCode);
$("leave").addEventListener("click", leave);
$("season").addEventListener("change", showLedger);
start();
