// How the pages talk to a table: one small interface, whatever is behind it. Today that is
// the server (HTTP for tables and seats, one WebSocket per seat); the offline app adds a
// second transport, a Web Worker running the same TableSession, behind these same calls,
// speaking the same messages (docs/web.md), so the pages never know which one they use.
//
//   createTable(body, lang)            -> {ok, status, data}  (POST /api/tables)
//   tableInfo(tableId, lang)           -> {ok, status, data}  (GET /api/tables/{ID})
//   joinTable(tableId, name, lang)     -> {ok, status, data}  (POST /api/tables/{ID}/join)
//   recordUrl(tableId, game)           -> a URL that downloads the finished game's record
//   openSeat({tableId, token, lang}, {onMessage, onOpen, onRejected, onClosed, onLost})
//                                      -> {send(message), close()}
// onRejected: the seat token was refused (forget it); onClosed: the table cannot be played
// (damaged, set aside by the server): the error message just received says why, and nothing
// is tried again; onLost: the connection dropped and is being opened again (with back-off)
// — the next state message brings everything back.

const CLOSE_DAMAGED = 4410;  // the server set this table aside: it cannot be played

async function call(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  let data = null;
  try { data = await response.json(); } catch { data = { type: "error", code: "bad_json", message: response.statusText }; }
  return { ok: response.ok, status: response.status, data };
}

export function createTable(body, lang) {
  return call("POST", `/api/tables?lang=${lang}`, body);
}

export function tableInfo(tableId, lang) {
  return call("GET", `/api/tables/${encodeURIComponent(tableId)}?lang=${lang}`);
}

export function joinTable(tableId, name, lang) {
  return call("POST", `/api/tables/${encodeURIComponent(tableId)}/join?lang=${lang}`, { name });
}

export function recordUrl(tableId, game) {
  return `/api/tables/${encodeURIComponent(tableId)}/record?game=${game}`;
}

export function openSeat({ tableId, token, lang }, { onMessage, onOpen, onRejected, onClosed, onLost }) {
  let socket = null;
  let retry = 500;
  let closed = false;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  function open() {
    socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}` +
      `?token=${encodeURIComponent(token)}&lang=${lang}`);
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
