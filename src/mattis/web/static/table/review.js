// The review of your game (issue 26, item 3; docs/review.md), opened from the result screen
// ("Review the game"): each of your choices judged only from what you knew then. It asks the
// table's host (transport.reviewGame: the server's POST /api/tables/{ID}/games/{N}/review, or
// the offline app's worker, with a smaller budget that the sheet names) and shows how far the
// work has come until the review is there. Then, in a modal <dialog> over the table:
//   - your risk of becoming Mattis drawn as a line over the game (inline SVG with a title and
//     a description; the table "Every choice" below gives the same figures as text);
//   - a step-through of your choices: the position you saw (your hand, the plays on the table),
//     the move you played, the safest move and every move's risk;
//   - the turning points in words.
// Every sentence comes from the server (mattis.frontend.review, the same words as `mattis
// review`); this module only lays them out. Hooks: [data-review], [data-review-open],
// [data-review-progress], [data-review-chart], [data-review-step], [data-review-sentence],
// [data-review-options], [data-review-turning], [data-review-device] (docs/web.md).
import { cardLabel, cardSvg, suitSymbol } from "../cards.js";
import { fmt } from "../i18n.js";
import { $, savedSeat, setText } from "../page.js";
import { reviewGame } from "../transport.js";
import { hasSeat, tableId } from "./connection.js";
import { keepFocusInside } from "./rules_sheet.js";
import { seatName } from "./seats.js";
import { store } from "./store.js";

const POLL_MS = 600;
const SVG = "http://www.w3.org/2000/svg";
const TURNING_MARK = "\u25C6";  // ◆, as the terminal marks a turning point

// ------------------------------------------------------------------ small helpers

function element(tag, attributes = {}, text = null) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== null) node.textContent = text;
  return node;
}

function svgElement(tag, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

function percent(share) {
  const { lang } = store.get();
  return new Intl.NumberFormat(lang === "en" ? "en" : "nb", { style: "percent", maximumFractionDigits: 0 }).format(share);
}

function words(key, params) {
  const { texts } = store.get();
  return params ? fmt(texts[key] ?? "", params) : texts[key] ?? "";
}

function cardsOf(codes, label) {
  const fan = element("span", { class: "review-cards", role: "img", "aria-label": label ?? codes.map(cardLabel).join(", ") });
  const trump = currentPosition()?.trump;
  for (const code of codes) fan.append(cardSvg(code, { trump: Boolean(trump) && code[1] === trump }));
  return fan;
}

function currentPosition() {
  const { answer, step } = store.get().review;
  return answer?.positions?.[step] ?? null;
}

// ------------------------------------------------------------------ the sheet

/** The review sheet, made the first time it is opened (the table page keeps it after). */
function sheet() {
  let dialog = $("review");
  if (dialog) return dialog;
  dialog = element("dialog", { id: "review", class: "review-sheet", "data-review": "", "aria-labelledby": "review-title" });
  dialog.innerHTML = `
    <div class="review-head"><h2 id="review-title"></h2>
      <button id="review-close" class="sheet-close" type="button"></button></div>
    <div class="review-body">
      <p id="review-device" class="review-device" data-review-device hidden></p>
      <div id="review-progress" class="review-progress" data-review-progress role="status">
        <span id="review-progress-text"></span> <progress id="review-bar" max="1" aria-labelledby="review-progress-text"></progress>
      </div>
      <p id="review-error" class="error" role="alert"></p>
      <div id="review-content" hidden>
        <figure class="review-chart">
          <svg id="review-chart" data-review-chart role="img" aria-labelledby="review-chart-title" aria-describedby="review-chart-desc"
               viewBox="0 0 640 210" preserveAspectRatio="xMidYMid meet"></svg>
        </figure>
        <section id="review-step" class="review-step" data-review-step aria-labelledby="review-step-title">
          <div class="review-nav">
            <button id="review-prev" type="button"></button>
            <h3 id="review-step-title" aria-live="polite"></h3>
            <button id="review-next" type="button"></button>
          </div>
          <input id="review-slider" type="range" min="0" value="0" aria-labelledby="review-step-title">
          <p id="review-sentence" class="review-sentence" data-review-sentence tabindex="-1"></p>
          <div class="review-position">
            <div><h4 id="review-table-title"></h4><ul id="review-table" class="review-table-plays" aria-labelledby="review-table-title"></ul>
              <p id="review-facts" class="muted"></p></div>
            <div><h4 id="review-hand-title"></h4><div id="review-hand"></div></div>
          </div>
          <h4 id="review-options-title"></h4>
          <ul id="review-options" class="review-options" data-review-options aria-labelledby="review-options-title"></ul>
        </section>
        <section class="review-turning" aria-labelledby="review-turning-title">
          <h3 id="review-turning-title"></h3>
          <p id="review-verdict"></p>
          <ol id="review-turning" data-review-turning></ol>
        </section>
        <section class="review-all" aria-labelledby="review-all-title">
          <h3 id="review-all-title"></h3>
          <div class="review-table-wrap" tabindex="0" role="region" aria-labelledby="review-all-title">
            <table id="review-choices" class="review-choices"></table></div>
          <p id="review-notes" class="muted"></p>
        </section>
      </div>
    </div>`;
  document.body.append(dialog);
  $("review-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
  // the table's own keys (cards, hint, undo) wait while the review is open
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") event.stopPropagation();
    keepFocusInside(event, dialog);
  });
  dialog.addEventListener("close", () => $("review-open")?.focus({ preventScroll: true }));
  $("review-prev").addEventListener("click", () => goTo(store.get().review.step - 1));
  $("review-next").addEventListener("click", () => goTo(store.get().review.step + 1));
  $("review-slider").addEventListener("input", (event) => goTo(Number(event.target.value)));
  return dialog;
}

function fillLabels() {
  $("review-title").textContent = words("review.title");
  $("review-close").textContent = words("table.close");
  $("review-prev").textContent = words("review.prev");
  $("review-next").textContent = words("review.next");
  $("review-table-title").textContent = words("review.on_table");
  $("review-hand-title").textContent = words("review.your_hand");
  $("review-options-title").textContent = words("review.options");
  $("review-turning-title").textContent = words("review.turning");
  $("review-all-title").textContent = words("review.choices");
  $("review-device").textContent = words("review.device");
}

// ------------------------------------------------------------------ asking for it

/** Open the review of the game just finished (asked for at once; its progress shows). */
export function openReview() {
  const dialog = sheet();
  const game = store.get().state?.table?.game ?? 0;
  if (store.get().review.game !== game) store.update({ review: { game, answer: null, step: 0, waiting: false } });
  fillLabels();
  if (!dialog.open) dialog.showModal();
  draw();
  $("review-close").focus();
  if (!store.get().review.waiting) ask(game);  // else the next ask is on its way
}

async function ask(game) {
  const token = savedSeat(tableId)?.token;
  const { lang } = store.get();
  let answer;
  try { answer = await reviewGame(tableId, game, token, lang); } catch { answer = { ok: false, data: { message: words("review.failed") } }; }
  const dialog = $("review");
  if (store.get().review.game !== game) return;
  if (!answer.ok) {
    $("review-error").textContent = answer.data?.message || words("review.failed");
    $("review-progress").hidden = true;
    return;
  }
  $("review-error").textContent = "";
  store.merge("review", { answer: answer.data });
  draw();
  if (answer.data.status === "running" && dialog.open) {
    store.merge("review", { waiting: true });
    setTimeout(() => { store.merge("review", { waiting: false }); ask(game); }, POLL_MS);
  }
}

function goTo(step) {
  const count = store.get().review.answer?.positions?.length ?? 0;
  if (!count) return;
  store.merge("review", { step: Math.max(0, Math.min(count - 1, step)) });
  drawStep();
  drawChart();
}

// ------------------------------------------------------------------ drawing

function draw() {
  const { answer } = store.get().review;
  const running = !answer || answer.status === "running";
  $("review-progress").hidden = !running;
  $("review-content").hidden = running;
  $("review-device").hidden = !answer?.device;  // said while it runs too: the wait is the device's
  if (running) {
    const share = answer && answer.total ? answer.done / answer.total : 0;
    $("review-bar").value = share;
    // the status is read out when it changes: in steps of ten percent, not at every answer
    setText($("review-progress-text"), answer && answer.total
      ? words("review.working", { percent: percent(Math.floor(share * 10) / 10) }) : words("review.starting"));
    return;
  }
  drawChart();
  drawStep();
  drawTurningPoints();
  drawChoices();
}

function decisions() {
  return store.get().review.answer.report.review.decisions;
}

function drawChart() {
  const { answer, step } = store.get().review;
  const review = answer.report.review;
  const svg = $("review-chart");
  svg.replaceChildren();
  const [left, right, top, bottom] = [46, 12, 12, 30];
  // drawn at the size it is shown (its text 12 px on a phone as on a desktop)
  const shownWidth = Math.round(svg.parentElement.clientWidth) - 10;
  const width = shownWidth > 0 ? Math.max(300, Math.min(900, shownWidth)) : 640;
  const height = 210;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const span = Math.max(1, review.actions - 1);
  const x = (action) => left + (action / span) * plotW;
  const y = (risk) => top + (1 - risk) * plotH;
  svg.append(svgElement("title", { id: "review-chart-title" }, words("review.chart_title")));
  svg.append(svgElement("desc", { id: "review-chart-desc" },
    words("review.chart_desc", { moves: review.actions, choices: review.decisions.length })));
  const axis = svgElement("g", { class: "review-axis", "aria-hidden": "true" });
  for (const level of [0, 0.25, 0.5, 0.75, 1]) {
    axis.append(svgElement("line", { x1: left, x2: width - right, y1: y(level), y2: y(level), class: "review-grid" }));
    axis.append(svgElement("text", { x: left - 6, y: y(level) + 4, "text-anchor": "end" }, percent(level)));
  }
  axis.append(svgElement("text", { x: left, y: height - 8 }, "1"));
  axis.append(svgElement("text", { x: width - right, y: height - 8, "text-anchor": "end" }, String(review.actions)));
  axis.append(svgElement("text", { x: left + plotW / 2, y: height - 8, "text-anchor": "middle" }, words("review.col_move")));
  svg.append(axis);
  const shown = review.decisions;
  if (!shown.length) return;
  const current = shown[step];
  svg.append(svgElement("line", { x1: x(current.action), x2: x(current.action), y1: top, y2: top + plotH,
    class: "review-now", "aria-hidden": "true" }));
  const points = shown.map((decision) => `${x(decision.action).toFixed(1)},${y(decision.risk).toFixed(1)}`).join(" ");
  svg.append(svgElement("polyline", { points, class: "review-line", "aria-hidden": "true" }));
  const turning = new Set(review.turning_points);
  const dots = svgElement("g", { "aria-hidden": "true" });
  shown.forEach((decision, index) => {
    const [cx, cy] = [x(decision.action), y(decision.risk)];
    if (turning.has(decision.action)) {
      const size = 7;
      dots.append(svgElement("path", { d: `M${cx} ${cy - size}L${cx + size} ${cy}L${cx} ${cy + size}L${cx - size} ${cy}Z`,
        class: "review-turning-mark", "data-turning": decision.action }));
    } else {
      dots.append(svgElement("circle", { cx, cy, r: index === step ? 5 : 3, class: "review-dot" }));
    }
    if (index === step) dots.append(svgElement("circle", { cx, cy, r: 9, class: "review-current" }));
  });
  svg.append(dots);
}

function drawStep() {
  const { answer, step } = store.get().review;
  const all = decisions();
  const count = all.length;
  $("review-step").hidden = !count;
  if (!count) return;
  const decision = all[step];
  const choice = answer.choices[step];
  const position = answer.positions[step];
  const turning = answer.report.review.turning_points.includes(decision.action);
  $("review-step-title").textContent = `${words("review.step", { n: step + 1, count })} \u00b7 `
    + words("review.where", { move: choice.move, phase: choice.phase });
  $("review-prev").disabled = step === 0;
  $("review-next").disabled = step === count - 1;
  const slider = $("review-slider");
  slider.max = String(count - 1);
  slider.value = String(step);
  slider.setAttribute("aria-valuetext", words("review.step", { n: step + 1, count }));
  const sentence = $("review-sentence");
  sentence.classList.toggle("turning", turning);
  const played = `${words("review.col_played")}: ${choice.labels[decision.played]} (${percent(decision.risk)}).`;
  sentence.textContent = `${turning ? `${TURNING_MARK} ` : ""}${played} ${choice.sentence ?? words("review.same")}`;
  drawPosition(position);
  const options = $("review-options");
  options.replaceChildren();
  for (const [action, risk] of Object.entries(decision.options).sort((a, b) => a[1] - b[1])) {
    const item = element("li", { "data-option": action });
    if (action === decision.played) item.classList.add("played");
    if (action === decision.best) item.classList.add("best");
    const label = element("span", { class: "review-option-label" }, choice.labels[action]);
    const bar = element("span", { class: "review-bar", "aria-hidden": "true" });
    bar.style.setProperty("--share", String(risk));
    const marks = [action === decision.played ? words("review.played_mark") : null,
      action === decision.best ? words("review.best_mark") : null].filter(Boolean);
    item.append(label, bar, element("span", { class: "review-option-risk" }, percent(risk)));
    if (marks.length) item.append(element("span", { class: "review-mark" }, marks.join(", ")));
    options.append(item);
  }
}

function drawPosition(position) {
  const plays = $("review-table");
  plays.replaceChildren();
  for (const [seat, cards] of position.table) {
    const item = element("li");
    item.append(element("span", { class: "review-who" }, seatName(seat)), cardsOf(cards));
    plays.append(item);
  }
  if (!position.table.length) plays.append(element("li", { class: "muted" }, words("review.nothing_on_table")));
  const facts = [];
  if (position.trump) facts.push(words("review.trump", { suit: suitSymbol(position.trump) }));
  if (position.stock_size) facts.push(words("review.stock", { count: position.stock_size }));
  const sizes = position.hand_sizes.map((size, seat) => `${seatName(seat)} ${size}`).join(" \u00b7 ");
  facts.push(`${words("review.hands")}: ${sizes}`);
  $("review-facts").textContent = facts.join(". ");
  $("review-hand").replaceChildren(cardsOf(position.hand));
}

function drawTurningPoints() {
  const { answer } = store.get().review;
  const spoken = answer.report.words;
  $("review-verdict").textContent = spoken.verdict ?? "";
  $("review-verdict").hidden = !spoken.verdict;
  const list = $("review-turning");
  list.replaceChildren();
  const actions = decisions().map((decision) => decision.action);
  for (const point of spoken.turning_points) {
    const item = element("li", { "data-turning-point": String(point.action) });
    item.append(element("p", {}, `${point.sentence} (${point.uncertainty})`));
    item.append(element("p", { class: "muted" }, point.knew));
    const show = element("button", { type: "button" }, words("review.to_turning", { move: point.move }));
    show.addEventListener("click", () => {
      goTo(actions.indexOf(point.action));
      $("review-step").scrollIntoView({ block: "nearest" });
      $("review-sentence").focus({ preventScroll: true });
    });
    item.append(show);
    list.append(item);
  }
}

function drawChoices() {
  const { answer } = store.get().review;
  const grid = $("review-choices");
  grid.replaceChildren();
  const caption = grid.createCaption();
  caption.className = "visually-hidden";
  caption.textContent = words("review.chart_title");
  const head = grid.createTHead().insertRow();
  for (const key of ["review.col_move", "review.col_played", "review.col_risk", "review.col_best", "review.col_best_risk"]) {
    head.append(element("th", { scope: "col" }, words(key)));
  }
  const body = grid.createTBody();
  const turning = new Set(answer.report.review.turning_points);
  decisions().forEach((decision, index) => {
    const choice = answer.choices[index];
    const row = body.insertRow();
    if (turning.has(decision.action)) row.className = "turning";
    row.append(element("th", { scope: "row" }, `${turning.has(decision.action) ? `${TURNING_MARK} ` : ""}${choice.move}`));
    row.insertCell().textContent = choice.labels[decision.played];
    row.insertCell().textContent = percent(decision.risk);
    const same = decision.best === decision.played;
    row.insertCell().textContent = same ? "" : choice.labels[decision.best];
    row.insertCell().textContent = same ? "" : percent(decision.best_risk);
  });
  const spoken = answer.report.words;
  $("review-notes").textContent = [spoken.method, ...spoken.notes, spoken.forced].filter(Boolean).join(" ");
}

// ------------------------------------------------------------------ the result screen's button

/** Show "Review the game" on the result screen to a player of this table (a seat here). */
export function drawReviewButton(over) {
  const button = $("review-open");
  if (!button) return;
  button.hidden = !over || !hasSeat();
}

/** Wire the result screen's button, and ask again in the new language if it changes while
 * the review is open. */
export function wireReview() {
  $("review-open")?.addEventListener("click", openReview);
  store.subscribe((now, before) => {
    if (now.lang !== before.lang && $("review")?.open) { fillLabels(); ask(now.review.game); }
  });
}
