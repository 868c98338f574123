// This device's player (docs/ledger.md): its key lives in the device's IndexedDB, in the one
// schema of app/database.js, and is made on the first visit that needs it without asking
// anything (a name can be given later). Every call that needs it sends
// "Authorization: Bearer KEY"; nothing else ever sees the key.
import "./app/database.js";

const database = () => self.mattisDatabase;

/** This device's player, {player, key, name}, or null (also when IndexedDB is not there). */
export async function currentPlayer() {
  try { return await database().loadPlayer(); } catch { return null; }
}

/** The headers that carry this device's key ({} without a player). */
export async function playerHeaders() {
  const player = await currentPlayer();
  return player ? { authorization: `Bearer ${player.key}` } : {};
}

/** A JSON request with this device's key: {ok, status, data}. */
export async function playerCall(method, url, body) {
  const headers = await playerHeaders();
  const init = { method, headers };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  return { ok: response.ok, status: response.status, data };
}

/** This device's player, made now (named `name`) if there is none or its key stopped working. */
export async function ensurePlayer(name, lang) {
  const known = await currentPlayer();
  if (known) {
    const me = await playerCall("GET", `/api/players/me?lang=${lang}`);
    if (me.ok) return { ...known, name: me.data.name, groups: me.data.groups };
    if (me.status !== 401) return known;
  }
  const made = await playerCall("POST", `/api/players?lang=${lang}`, { name });
  if (!made.ok) throw new Error(made.data ? made.data.message : String(made.status));
  const player = { player: made.data.player, key: made.data.key, name: made.data.name };
  await database().savePlayer(player);
  return { ...player, groups: [] };
}

/** Keep a key this device was given (another device's code) as its player. */
export async function adoptPlayer(player) {
  await database().savePlayer(player);
}

/** Keep a new name of this device's player. */
export async function rememberName(name) {
  const known = await currentPlayer();
  if (known) await database().savePlayer({ ...known, name });
}
