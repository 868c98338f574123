// How the pages talk to a table: one small interface, whatever is behind it. Today that is
// the server (HTTP for tables and seats, one WebSocket per seat); the offline app adds a
// second transport, a Web Worker running the same TableSession, behind these same calls,
// speaking the same messages (docs/web.md), so the pages never know which one they use.
//
//   createTable(body, lang)            -> {ok, status, data}  (POST /api/tables)
//   tableInfo(tableId, lang)           -> {ok, status, data}  (GET /api/tables/{ID})
//   joinTable(tableId, name, lang)     -> {ok, status, data}  (POST /api/tables/{ID}/join, with
//                                         this device's player key if it has one: player.js)
//   recordUrl(tableId, game)           -> a URL that downloads the finished game's record
//   reviewGame(tableId, game, token, lang) -> {ok, status, data}  (POST /api/tables/{ID}/games/{N}/review:
//                                         202 {status: "running", done, total}, then 200 the review;
//                                         a table on this device reviews in the worker, more lightly)
//   openSeat({tableId, token | coach | watch, lang}, {onMessage, onOpen, onRejected, onClosed, onLost})
//                                      -> {send(message), close()}  (coach: a coach's socket, with
//                                         its link's secret; watch: a spectator's, with the watch secret)
// onRejected: the seat token was refused (forget it); onClosed: the table cannot be played
// (damaged, set aside by the server): the error message just received says why, and nothing
// is tried again; onLost: the connection dropped and is being opened again (with back-off)
// — the next state message brings everything back.
//
// Tables on this device (ids starting "local-") go to the offline app's Web Worker
// (/static/app/worker.js: Pyodide running mattis.offline), which answers the same calls and
// speaks the same socket messages. createTable(body, lang, {where}) picks the home of a new
// table: "server", "local", or "auto" (the default): the server when it answers, else this
// device, in which case the answer says {local: true, offline: true}.
//   isLocal(tableId)                   -> whether the table lives on this device
//   localTables(lang)                  -> {ok, status, data: [summaries of the device's tables]}
//   myStats(lang)                      -> {ok, status, data: the device owner's statistics
//                                         (mattis.offline.stats.device_stats)}
//   fetchRecord(tableId, game, lang)   -> {ok, status, text: the engine record as JSON text}
//   engineReady()                      -> resolves with the worker's start-up {seconds, phases, from}
//                                         once Python is loaded (rejects if it cannot load)

import { playerHeaders } from "./player.js";

const CLOSE_DAMAGED = 4410;  // the server set this table aside: it cannot be played

const MOVED_TRIES = 8;  // a table changing server (503 "moved", with Retry-After) is asked again

async function call(method, url, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(url, init);
    let data = null;
    try { data = await response.json(); } catch { data = { type: "error", code: "bad_json", message: response.statusText }; }
    if (response.status === 503 && data && data.code === "moved" && attempt < MOVED_TRIES) {
      const seconds = Number(response.headers.get("retry-after")) || 1;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      continue;
    }
    return { ok: response.ok, status: response.status, data };
  }
}

export async function createTable(body, lang, { where = "auto" } = {}) {
  if (where === "local") return callLocal("createTable", { body }, lang);
  if (where === "auto" && navigator.onLine === false) return offline(await callLocal("createTable", { body }, lang));
  let answer = null;
  try { answer = await call("POST", `/api/tables?lang=${lang}`, body); } catch { answer = null; }
  if (where === "server" || (answer && fromOurServer(answer))) return answer;
  return offline(await callLocal("createTable", { body }, lang));
}

export function tableInfo(tableId, lang) {
  if (isLocal(tableId)) return callLocal("tableInfo", { tableId }, lang);
  return call("GET", `/api/tables/${encodeURIComponent(tableId)}?lang=${lang}`);
}

export async function joinTable(tableId, name, lang) {
  if (isLocal(tableId)) return callLocal("joinTable", { tableId, name }, lang);
  // a player on this device takes the seat as themselves: a group's game counts (ledger.md)
  const headers = await playerHeaders();
  return call("POST", `/api/tables/${encodeURIComponent(tableId)}/join?lang=${lang}`, { name }, headers);
}

export function recordUrl(tableId, game) {
  // Served by the server, or for a table on this device by the service worker (from IndexedDB).
  return `/api/tables/${encodeURIComponent(tableId)}/record?game=${game}`;
}

export function reviewGame(tableId, game, token, lang) {
  if (isLocal(tableId)) return callLocal("review", { tableId, game, token }, lang);
  return call("POST", `/api/tables/${encodeURIComponent(tableId)}/games/${game}/review?lang=${lang}`, { token });
}

export function openSeat({ tableId, token, coach = null, watch = null, lang }, handlers) {
  if (isLocal(tableId)) return openLocalSeat({ tableId, token, lang }, handlers);
  const { onMessage, onOpen, onRejected, onClosed, onLost } = handlers;
  let socket = null;
  let retry = 500;
  let closed = false;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  function open() {
    socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}` +
      `?${watch ? "watch" : coach ? "coach" : "token"}=${encodeURIComponent(watch || coach || token)}&lang=${lang}`);
    socket.addEventListener("open", () => { retry = 500; if (onOpen) onOpen(); });
    socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      if (closed) return;
      if (event.code === 1008) { if (onRejected) onRejected(); return; }
      if (event.code === CLOSE_DAMAGED) { if (onClosed) onClosed(); return; }
      if (onLost) onLost();
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 8000);
    });
  }
  open();
  return {
    send(message) { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); },
    close() { closed = true; if (socket) socket.close(); },
  };
}

// ------------------------------------------------------------------ tables on this device

const LOCAL_PREFIX = "local-";
let worker = null;
let ready = null;
let failure = null;
let nextId = 0;
const replies = new Map();
const seats = new Map();

export function isLocal(tableId) {
  return String(tableId).startsWith(LOCAL_PREFIX);
}

export function localTables(lang) {
  return callLocal("list", {}, lang);
}

export function myStats(lang) {
  // "Min statistikk": the device owner's games here, over all and per bot level.
  return callLocal("myStats", {}, lang);
}

export async function fetchRecord(tableId, game, lang) {
  // As text (JavaScript's numbers cannot hold the record's 64-bit seed): save it or send it as is.
  if (isLocal(tableId)) {
    const answer = await callLocal("record", { tableId, game }, lang);
    return answer.ok ? { ok: true, status: 200, text: answer.data } : answer;
  }
  const response = await fetch(`${recordUrl(tableId, game)}&lang=${lang}`);
  const text = await response.text();
  if (response.ok) return { ok: true, status: response.status, text };
  let data = null;
  try { data = JSON.parse(text); } catch { data = { type: "error", code: "bad_json", message: response.statusText }; }
  return { ok: false, status: response.status, data };
}

export function engineReady() {
  startWorker();
  return ready;
}

function fromOurServer(answer) {
  // Our server answers JSON: a table, or a refusal it explains. A static host (the exported
  // app) or a proxy with no server behind it answers something else.
  return answer.status !== 404 && answer.status !== 405 && answer.data !== null
    && (answer.ok || (answer.data.type === "error" && answer.data.code !== "bad_json"));
}

function offline(answer) {
  return { ...answer, local: true, offline: true };
}

function startWorker() {
  if (worker) return worker;
  const params = new URLSearchParams();
  for (const name of ["bot_delay", "hard_seconds", "master_seconds", "hint_seconds"]) {
    const value = localStorage.getItem(`mattis.app.${name}`);
    if (value !== null) params.set(name, value);
  }
  worker = new Worker(`/static/app/worker.js?${params}`, { type: "module" });
  let started, stopped;
  ready = new Promise((resolve, reject) => { started = resolve; stopped = reject; });
  ready.catch(() => {});
  worker.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.reply !== undefined) {
      const settle = replies.get(message.reply);
      replies.delete(message.reply);
      if (settle) settle({ ok: message.ok, status: message.status, data: message.data, local: true });
    } else if (message.conn !== undefined) {
      const handlers = seats.get(message.conn);
      if (!handlers) return;
      if (message.closed === CLOSE_DAMAGED) { seats.delete(message.conn); if (handlers.onClosed) handlers.onClosed(); }
      else if (message.closed) { seats.delete(message.conn); if (handlers.onRejected) handlers.onRejected(); }
      else handlers.onMessage(message.message);
    } else if (message.ready) {
      started({ seconds: message.seconds, phases: message.phases, from: message.from });
    } else if (message.failed) {
      failure = message.failed;
      stopped(new Error(failure));
      for (const [id, settle] of replies) { replies.delete(id); settle(engineFailed()); }
    }
  });
  worker.addEventListener("error", (event) => {
    failure = event.message || "the worker failed";
    stopped(new Error(failure));
  });
  return worker;
}

function engineFailed() {
  return { ok: false, status: 503, local: true, data: { type: "error", code: "engine", message: String(failure) } };
}

function post(message) {
  startWorker().postMessage(JSON.stringify(message));
}

function callLocal(name, fields, lang) {
  if (failure) return Promise.resolve(engineFailed());
  const id = ++nextId;
  return new Promise((resolve) => {
    replies.set(id, resolve);
    post({ op: "call", id, name, lang, ...fields });
  });
}

function openLocalSeat({ tableId, token, lang }, { onMessage, onOpen, onRejected, onClosed }) {
  const conn = `c${++nextId}`;
  seats.set(conn, { onMessage, onRejected, onClosed });
  post({ op: "open", conn, tableId, token, lang });
  if (onOpen) ready.then(() => onOpen(), () => {});
  return {
    send(message) { if (seats.has(conn)) post({ op: "send", conn, text: JSON.stringify(message) }); },
    close() { if (seats.delete(conn)) post({ op: "close", conn }); },
  };
}
