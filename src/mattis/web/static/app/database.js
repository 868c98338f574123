// The device's storage, IndexedDB database "mattis", opened the same way by the offline app's
// two workers: its Web Worker (worker.js, a module worker: `import "./database.js"`) and the
// service worker (/sw.js, a classic worker: importScripts). So it is a classic script, with
// no import or export, that adds one name to the worker's global scope: mattisDatabase.
//
// Version 2, three stores, keys given by the caller:
//   "tables"     each table's rows, saved whole after every change (key: the table id)
//   "records"    each finished game's engine record as JSON text (key: recordKey below)
//   "snapshots"  one memory snapshot of the interpreter with our package imported (key: the
//                Pyodide version and the package zip's digest)
self.mattisDatabase = (() => {
  const NAME = "mattis";
  const VERSION = 2;
  const STORES = ["tables", "records", "snapshots"];

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

  return Object.freeze({ open, request, recordKey });
})();
