// The offline app's Web Worker: Pyodide runs our package here (mattis.offline.DeviceHost),
// so the page never waits on Python. It speaks the messages of mattis/offline/host.py: the
// page posts JSON text, the worker hands it to Python, and Python's answers (replies,
// and each open seat's socket messages) go back to the page as they are.
//
// The device's storage is IndexedDB, opened through database.js, which the service worker
// shares: "tables" holds each table's rows (saved whole after every change, before anyone
// hears of it), "records" each finished game's engine record (the service worker serves it at
// /api/tables/ID/record?game=N) and "results" its result for the device owner's seat (for
// "Min statistikk"), "snapshots" one memory snapshot of the interpreter with our
// package imported, made on the first start of each version and loaded on the next ones (a
// start then skips Python's own start-up and our imports: a few hundred milliseconds instead
// of seconds).
//
// The master bot's network (network.js, network.bin) is not loaded at start: the start only
// reads network.json, a few bytes saying the app has one, so the table offers master; its code
// and weights are fetched when a master bot first moves (mattis/offline/network.py).
import "./database.js";
import { loadPyodide, version as pyodideVersion } from "./pyodide/pyodide.mjs";

const { open: openDatabase, request } = self.mattisDatabase;

const settings = Object.fromEntries(new URL(self.location.href).searchParams);
const queued = [];
let tables = null;

self.addEventListener("message", (event) => {
  if (tables) tables.receive(event.data); else queued.push(event.data);
});

function makeDevice(db) {
  const held = new Map();  // table id -> the function that lets its Web Lock go
  return {
    load(tableId) {
      return request(db.transaction("tables"), "tables", (store) => store.get(tableId));
    },
    save(tableId, data, finished) {  // finished: "" or JSON text {key, record, result}
      return new Promise((resolve, reject) => {
        const stores = ["tables", "records", "results"];
        const transaction = db.transaction(stores, "readwrite", { durability: "strict" });
        transaction.objectStore("tables").put(data, tableId);
        if (finished) {
          const { key, record, result } = JSON.parse(finished);
          transaction.objectStore("records").put(record, key);
          transaction.objectStore("results").put(result, key);
        }
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () => reject(transaction.error || new Error("aborted"));
      });
    },
    tableIds() {
      return request(db.transaction("tables"), "tables", (store) => store.getAllKeys());
    },
    results() {
      // Every finished game's result for the owner's seat: "Min statistikk" (myStats).
      return request(db.transaction("results"), "results", (store) => store.getAll());
    },
    claim(tableId) {
      // A Web Lock held until this worker ends (or release): one tab plays a table at a time.
      if (!navigator.locks) return Promise.resolve(true);
      return new Promise((resolve) => {
        navigator.locks.request(`mattis-table-${tableId}`, { ifAvailable: true }, (lock) => {
          resolve(lock !== null);
          return lock === null ? undefined : new Promise((letGo) => held.set(tableId, letGo));
        });
      });
    },
    release(tableId) {
      // A table that could not be loaded (damaged): another tab may try it.
      const letGo = held.get(tableId);
      held.delete(tableId);
      if (letGo) letGo();
    },
  };
}

const APP_DIR = "/home/pyodide/app";
const IMPORT = `import sys; sys.path.insert(0, '${APP_DIR}'); import mattis.offline`;

async function snapshotKey(zip) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", zip));
  return `${pyodideVersion}/${Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function startPython(db, zip) {
  // From this version's snapshot when there is one; else a plain start, which makes it.
  const indexURL = new URL("./pyodide/", import.meta.url).href;
  const key = await snapshotKey(zip);
  const snapshot = await request(db.transaction("snapshots"), "snapshots", (store) => store.get(key)).catch(() => null);
  if (snapshot) {
    try {
      const pyodide = await loadPyodide({ indexURL, _loadSnapshot: snapshot });
      pyodide.unpackArchive(zip, "zip", { extractDir: APP_DIR }); // for anything imported later
      return { pyodide, from: "snapshot" };
    } catch {
      // a snapshot this runtime does not take: start plainly and make a new one
    }
  }
  const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
  pyodide.unpackArchive(zip, "zip", { extractDir: APP_DIR });
  pyodide.runPython(IMPORT);
  const made = pyodide.makeMemorySnapshot();
  const saving = db.transaction("snapshots", "readwrite");
  saving.objectStore("snapshots").clear();
  saving.objectStore("snapshots").put(made, key);
  return { pyodide, from: "start" };
}

async function start() {
  const started = performance.now();
  const phases = {};
  const zip = fetch(new URL("./mattis.zip", import.meta.url)).then((response) => {
    if (!response.ok) throw new Error(`mattis.zip: ${response.status}`);
    return response.arrayBuffer();
  });
  const network = networkInfo();
  const db = await openDatabase();
  const { pyodide, from } = await startPython(db, await zip);
  phases.python = seconds(started);
  pyodide.runPython(IMPORT);
  const offline = pyodide.pyimport("mattis.offline");
  const device = makeDevice(db);
  const info = await network;
  pyodide.registerJsModule("mattis_network", makeNetworkModule(info));
  const options = { network: info !== null };
  for (const name of ["bot_delay", "hard_seconds", "master_seconds", "hint_seconds"]) {
    if (settings[name] !== undefined && Number.isFinite(Number(settings[name]))) options[name] = Number(settings[name]);
  }
  tables = offline.DeviceHost(
    { load: device.load, save: device.save, table_ids: device.tableIds, results: device.results,
      claim: device.claim, release: device.release },
    (text) => self.postMessage(text),
    offline.device_config.callKwargs(options),
  );
  phases.package = seconds(started) - phases.python;
  self.postMessage(JSON.stringify({ ready: true, seconds: seconds(started), phases, from }));
  for (const text of queued.splice(0)) tables.receive(text);
}

function makeNetworkModule(info) {
  // What Python imports as mattis_network: the network's arithmetic, in JavaScript.
  let loading = null;
  let code = null;
  const module = async () => (code ??= await import("./network.js"));
  return {
    available: () => info !== null,
    load() {
      // The shipped network, fetched and read once (a Promise of it).
      loading ??= (async () => {
        const { parseNetwork } = await module();
        const response = await fetch(new URL(`./${info.file}`, import.meta.url));
        if (!response.ok) throw new Error(`${info.file}: ${response.status}`);
        return parseNetwork(await response.arrayBuffer());
      })();
      return loading;
    },
    async parse(base64) {
      // A network handed in as base64 text (the tests' and the benchmark's).
      return (await module()).fromBase64(base64);
    },
    share(net, array) {
      // The evaluation of net for a Python array('d') that each call reads its input from and
      // writes its answer into (evaluateShared): the calls pass two numbers, and no list
      // crosses over.
      const kept = array.copy(); // a proxy of our own: the call's own is let go when it returns
      let buffer = kept.getBuffer("f64");
      return (count, legal) => {
        if (buffer.data.byteLength === 0) { // Python's memory grew: the old view is gone
          buffer.release();
          buffer = kept.getBuffer("f64");
        }
        code.evaluateShared(net, buffer.data, count, legal);
      };
    },
  };
}

async function networkInfo() {
  // network.json, if the app was built with a network; null if not (or an older build).
  try {
    const response = await fetch(new URL("./network.json", import.meta.url));
    const info = response.ok ? await response.json() : null;
    return info && info.file ? info : null;
  } catch {
    return null;
  }
}

function seconds(since) {
  return (performance.now() - since) / 1000;
}

start().catch((error) => self.postMessage(JSON.stringify({ failed: String(error && error.stack || error) })));
