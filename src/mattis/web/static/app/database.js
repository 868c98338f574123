// The device's storage, IndexedDB database "mattis", opened the same way by the offline app's
// two workers: its Web Worker (worker.js, a module worker: `import "./database.js"`) and the
// service worker (/sw.js, a classic worker: importScripts). So it is a classic script, with
// no import or export, that adds one name to the worker's global scope: mattisDatabase.
//
// The server's pages load it too (player.js imports it), for the player key.
//
// Version 4, five stores, keys given by the caller (an older database gets the missing
// stores on upgrade; what it holds is kept):
//   "tables"     each table's rows, saved whole after every change (key: the table id)
//   "records"    each finished game's engine record as JSON text (key: recordKey below)
//   "snapshots"  one memory snapshot of the interpreter with our package imported (key: the
//                Pyodide version and the package zip's digest)
//   "player"     this device's player on the server, {player, key, name} (key: PLAYER_KEY):
//                the key of POST /api/players, sent as "Authorization: Bearer KEY" (ledger.md)
//   "results"    each finished game's result for the device owner's seat as JSON text,
//                {levels, mattis, empty_loss, seat, seat_levels, out_order, losers, finished}
//                (mattis.offline.stats.seat_result; key: recordKey,
//                saved in the record's transaction), read for "Min statistikk" (ledger.md)
self.mattisDatabase = (() => {
  const NAME = "mattis";
  const VERSION = 4;
  const STORES = ["tables", "records", "snapshots", "player", "results"];
  const PLAYER_KEY = "me";

  /** The database, its stores made on first use. */
  function open() {
    return new Promise((resolve, reject) => {
      const opening = indexedDB.open(NAME, VERSION);
      opening.onupgradeneeded = () => {
        for (const store of STORES) {
          if (!opening.result.objectStoreNames.contains(store)) opening.result.createObjectStore(store);
        }
      };
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
  }

  /** One request on `store` in `transaction` (call(objectStore) makes it), as a promise. */
  function request(transaction, store, call) {
    return new Promise((resolve, reject) => {
      const asked = call(transaction.objectStore(store));
      asked.onsuccess = () => resolve(asked.result);
      asked.onerror = () => reject(asked.error);
    });
  }

  /** The "records" key of a table's game: the key mattis.offline.host.record_key gives the
   * worker to save under. */
  function recordKey(tableId, game) {
    return `${tableId}/${game}`;
  }

  /** This device's player, {player, key, name}, or null. */
  async function loadPlayer() {
    const database = await open();
    try {
      const found = await request(database.transaction("player"), "player", (store) => store.get(PLAYER_KEY));
      return found && typeof found.key === "string" ? found : null;
    } finally { database.close(); }
  }

  /** Keep this device's player (null forgets it). */
  async function savePlayer(player) {
    const database = await open();
    try {
      const transaction = database.transaction("player", "readwrite");
      await request(transaction, "player",
        (store) => (player ? store.put(player, PLAYER_KEY) : store.delete(PLAYER_KEY)));
    } finally { database.close(); }
  }

  return Object.freeze({ open, request, recordKey, loadPlayer, savePlayer });
})();
