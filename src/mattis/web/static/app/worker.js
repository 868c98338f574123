// The offline app's Web Worker: Pyodide runs our package here (mattis.offline.LocalTables),
// so the page never waits on Python. It speaks the messages of mattis/offline/host.py: the
// page posts JSON text, the worker hands it to Python, and Python's answers (replies,
// and each open seat's socket messages) go back to the page as they are.
//
// The device's storage is IndexedDB, database "mattis": "tables" holds each table's rows
// (saved whole after every change, before anyone hears of it), "records" each finished
// game's engine record (the service worker serves it at /api/tables/ID/record?game=N).
import { loadPyodide } from "./pyodide/pyodide.mjs";

const settings = Object.fromEntries(new URL(self.location.href).searchParams);
const queued = [];
let tables = null;

self.addEventListener("message", (event) => {
  if (tables) tables.receive(event.data); else queued.push(event.data);
});

function openDatabase() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open("mattis", 1);
    opening.onupgradeneeded = () => {
      opening.result.createObjectStore("tables");
      opening.result.createObjectStore("records");
    };
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

function request(transaction, store, call) {
  return new Promise((resolve, reject) => {
    const asked = call(transaction.objectStore(store));
    asked.onsuccess = () => resolve(asked.result);
    asked.onerror = () => reject(asked.error);
  });
}

async function makeDevice() {
  const db = await openDatabase();
  return {
    load(tableId) {
      return request(db.transaction("tables"), "tables", (store) => store.get(tableId));
    },
    save(tableId, data, recordKey, record) {
      return new Promise((resolve, reject) => {
        const transaction = db.transaction(["tables", "records"], "readwrite", { durability: "strict" });
        transaction.objectStore("tables").put(data, tableId);
        if (recordKey) transaction.objectStore("records").put(record, recordKey);
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () => reject(transaction.error || new Error("aborted"));
      });
    },
    tableIds() {
      return request(db.transaction("tables"), "tables", (store) => store.getAllKeys());
    },
  };
}

async function start() {
  const started = performance.now();
  const phases = {};
  const zip = fetch(new URL("./mattis.zip", import.meta.url)).then((response) => {
    if (!response.ok) throw new Error(`mattis.zip: ${response.status}`);
    return response.arrayBuffer();
  });
  const [pyodide, device] = await Promise.all([
    loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href }),
    makeDevice(),
  ]);
  phases.runtime = seconds(started);
  pyodide.unpackArchive(await zip, "zip", { extractDir: "/home/pyodide/app" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/app')");
  const offline = pyodide.pyimport("mattis.offline");
  phases.package = seconds(started) - phases.runtime;
  const options = {};
  for (const name of ["bot_delay", "hard_seconds", "hint_seconds"]) {
    if (settings[name] !== undefined && Number.isFinite(Number(settings[name]))) options[name] = Number(settings[name]);
  }
  tables = offline.LocalTables(
    { load: device.load, save: device.save, table_ids: device.tableIds },
    (text) => self.postMessage(text),
    offline.LocalSettings.callKwargs(options),
  );
  self.postMessage(JSON.stringify({ ready: true, seconds: seconds(started), phases }));
  for (const text of queued.splice(0)) tables.receive(text);
}

function seconds(since) {
  return (performance.now() - since) / 1000;
}

start().catch((error) => self.postMessage(JSON.stringify({ failed: String(error && error.stack || error) })));
