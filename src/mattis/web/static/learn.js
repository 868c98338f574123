// Learn Mattis (/learn): a lesson of scripted deals, one step at a time. The lesson comes as
// JSON from Python (GET /api/learn/{preset}.{lang}.json, mattis.frontend.tutorial.lesson; the
// offline app keeps the same files): every step's view, its one sentence, the move it waits
// for and the answer to every move offered, so this page only draws and never judges a move.
// Hooks: [data-tutorial-step="N"] and [data-tutorial-expect="7h"] on the lesson while a step
// waits, [data-tutorial-done] on the end, which offers a game against easy computer players.
import { actionLabel, cardLabel, cardSvg } from "./cards.js";
import { currentLang, fmt, loadTexts } from "./i18n.js";
import { $, fillTexts, noteDealtOffline, saveSeat, savedName, tablePath } from "./page.js";
import { createTable } from "./transport.js";

const CHOICES_KEY = "mattis.choices";  // the start page's remembered choices (app.js)
const LEARN_KEY = "mattis.learn";       // "done" or "dismissed": the start page stops offering the lesson
const PRESETS = ["pagat", "kortregler", "app"];

let lang = currentLang();
let texts = {};
let lesson = null;
let preset = "pagat";
let at = 0;            // the step shown, or the scene end after it while `pause` is set
let pause = null;      // the number of the scene whose end is shown, or null

/** The preset chosen on the start page (?preset= first), if it has a lesson. */
function chosenPreset() {
  const asked = new URLSearchParams(location.search).get("preset");
  if (PRESETS.includes(asked)) return asked;
  try {
    const rules = JSON.parse(localStorage.getItem(CHOICES_KEY))?.rules;
    if (PRESETS.includes(rules)) return rules;
  } catch { /* nothing remembered */ }
  return "pagat";
}

// ------------------------------------------------------------------ drawing

function cardPic(code, trump) {
  const pic = document.createElement("span");
  pic.className = "card-pic";
  pic.append(cardSvg(code, { trump: Boolean(trump) && code[1] === trump }));
  return pic;
}

function playGroup(seat, cards, view, extra = "") {
  const group = document.createElement("li");
  group.className = `learn-play${extra}`;
  const who = document.createElement("span");
  who.className = "learn-who";
  who.textContent = lesson.names[seat];
  const pics = document.createElement("span");
  pics.className = "learn-cards";
  for (const code of cards) pics.append(cardPic(code, view.trump));
  group.setAttribute("aria-label", `${lesson.names[seat]}: ${cards.map(cardLabel).join(" ")}`);
  group.append(pics, who);
  return group;
}

function drawView(view, robots) {
  const seats = $("learn-seats");
  seats.replaceChildren();
  for (let seat = 0; seat < view.hand_sizes.length; seat++) {
    const item = document.createElement("li");
    item.className = seat === 0 ? "learn-seat you" : "learn-seat";
    item.classList.toggle("to-move", view.to_move === seat);
    item.classList.toggle("loser", view.losers.includes(seat));
    const name = document.createElement("strong");
    name.textContent = lesson.names[seat];
    const facts = document.createElement("span");
    const holding = fmt(texts["learn.holding"], { n: view.hand_sizes[seat] });
    // the won pile counts in phase 1 only: phase 2 plays it as the hand (P1.9)
    facts.textContent = view.phase === "collect" ? `${holding} · ${fmt(texts["learn.won"], { n: view.won_sizes[seat] })}` : holding;
    item.append(name, " ", facts);
    if (view.losers.includes(seat)) item.append(" ", badge("Mattis", "loser"));
    else if (view.out_order.includes(seat)) item.append(" ", badge(texts["learn.out"], "out"));
    seats.append(item);
  }
  const middle = $("learn-middle");
  const plays = document.createElement("ul");
  plays.className = "learn-plays";
  plays.setAttribute("aria-label", texts["learn.on_table"]);
  const items = view.table;  // phase 1: the trick's cards, a war's too; phase 2: the plays, oldest first
  for (const [seat, cards] of items) plays.append(playGroup(seat, cards, view, view.tie.includes(seat) ? " in-war" : ""));
  if (!items.length) {
    const empty = document.createElement("li");
    empty.className = "learn-empty";
    empty.textContent = texts["learn.nothing_on_table"];
    plays.append(empty);
  }
  middle.replaceChildren(plays);
  const facts = [texts[`phase.${view.phase}`] ?? "", fmt(texts["learn.stock"], { n: view.stock })];
  facts.push(view.trump ? fmt(texts["learn.trump"], { suit: lesson.suits[view.trump] }) : texts["learn.trump_unknown"]);
  $("learn-facts").textContent = facts.filter(Boolean).join(" · ");
  if (view.phase === "collect" && view.trump_card && view.stock) {
    // the app preset's face-up trump card (P1.6 bottom_up), under the stock for everyone to see
    const shown = cardPic(view.trump_card, view.trump);
    shown.classList.add("learn-trump-card");
    shown.setAttribute("role", "img");
    shown.setAttribute("aria-label", cardLabel(view.trump_card));
    $("learn-facts").prepend(shown, " ");
  }
  const lines = $("learn-robots");
  lines.replaceChildren();
  if (robots.length) {
    const title = document.createElement("span");
    title.className = "muted";
    title.textContent = `${texts["learn.robots_played"]}: `;
    lines.append(title, robots.map((line) => fmt(texts["learn.played"], { name: lesson.names[line.seat], move: line.label })).join(" · "));
  }
}

function badge(text, kind) {
  const node = document.createElement("span");
  node.className = `badge learn-badge-${kind}`;
  node.textContent = text;
  return node;
}

function drawMoves(step) {
  const box = $("learn-moves");
  box.replaceChildren();
  for (const move of step.moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "learn-move";
    button.dataset.move = move.action;
    const cards = move.action.includes("-") || move.action === "chance" || move.action === "pickup" ? [] : [move.action];
    if (cards.length) {
      button.classList.add("card-move");
      button.append(cardPic(move.action, step.view.trump));
    } else {
      button.classList.add("word-move");
      button.textContent = move.action === "chance" || move.action === "pickup" ? actionLabel(move.action, texts) : move.label;
    }
    button.setAttribute("aria-label", move.label);
    button.setAttribute("aria-describedby", "learn-answer");
    button.addEventListener("click", () => tryMove(step, move, button));
    box.append(button);
  }
}

// ------------------------------------------------------------------ the lesson

function showStep(index, answer = "") {
  at = index;
  pause = null;
  const step = lesson.steps[index];
  const section = $("lesson");
  section.dataset.tutorialStep = String(step.n);
  section.dataset.tutorialExpect = step.expect;
  $("learn-counter").textContent = fmt(texts["learn.step"], { n: step.n, total: lesson.steps.length });
  $("learn-say").textContent = step.say;
  drawView(step.view, step.robots);
  drawMoves(step);
  $("learn-moves").hidden = false;
  $("learn-hand-title").hidden = false;
  $("learn-continue").hidden = true;
  $("learn-answer").textContent = answer;
  $("learn-answer").classList.toggle("right", Boolean(answer));
}

function showSceneEnd(scene) {
  pause = scene;
  const end = lesson.scenes[scene];
  delete $("lesson").dataset.tutorialExpect;
  $("learn-say").textContent = end.say;
  drawView(end.view, end.robots);
  $("learn-moves").replaceChildren();
  $("learn-moves").hidden = true;
  $("learn-hand-title").hidden = true;
  $("learn-answer").textContent = texts["learn.right"];
  $("learn-answer").classList.add("right");
  if (scene === lesson.scenes.length - 1) {
    finish();
    return;
  }
  $("learn-continue").hidden = false;
  $("learn-continue").focus();
}

function finish() {
  localStorage.setItem(LEARN_KEY, "done");
  $("learn-continue").hidden = true;
  const done = $("learn-done");
  done.hidden = false;
  done.dataset.tutorialDone = preset;
  done.querySelector('[data-action="play-easy"]').focus();
  done.scrollIntoView({ block: "nearest" });
}

function tryMove(step, move, button) {
  if (!move.ok) {
    $("learn-answer").textContent = move.why;
    $("learn-answer").classList.remove("right");
    button.classList.add("refused");
    return;
  }
  const next = lesson.steps[at + 1];
  if (next && next.scene === step.scene) {
    showStep(at + 1, texts["learn.right"]);
    $("learn-moves").querySelector("button")?.focus();
  } else {
    showSceneEnd(step.scene);
  }
}

function again() {
  $("learn-done").hidden = true;
  delete $("learn-done").dataset.tutorialDone;
  showStep(0);
  $("lesson").scrollIntoView({ block: "start" });
}

async function playEasy(event) {
  const button = event.currentTarget;
  button.disabled = true;
  $("learn-error").textContent = "";
  const name = savedName();
  const seats = [{ kind: "human", name }, { kind: "bot", level: "easy" }, { kind: "bot", level: "easy" }];
  const response = await createTable({ rules: preset, set: {}, players: seats.length, seats }, lang);
  if (!response.ok) {
    button.disabled = false;
    $("learn-error").textContent = response.data.message;
    return;
  }
  saveSeat(response.data.table, response.data);
  localStorage.setItem("mattis.last_table", response.data.table);
  if (response.offline) noteDealtOffline();
  location.href = tablePath(response.data.table);
}

async function start() {
  preset = chosenPreset();
  texts = await loadTexts(lang);
  lang = texts._lang;
  fillTexts(texts, lang, { back: "/learn", onLang: (code) => { lang = code; start(); } });
  document.title = `${texts["learn.title"]} · Mattis`;
  $("learn-rules").textContent = fmt(texts["learn.rules"], { rules: texts[`preset_title.${preset}`] ?? preset });
  const response = await fetch(`/api/learn/${preset}.${lang}.json`);
  lesson = await response.json();
  if (pause === null) showStep(Math.min(at, lesson.steps.length - 1));
  else showSceneEnd(pause);
}

$("learn-continue").addEventListener("click", () => showStep(at + 1));
document.querySelector('[data-action="play-easy"]').addEventListener("click", playEasy);
document.querySelector('[data-action="again"]').addEventListener("click", again);
start();
