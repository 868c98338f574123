// The offline app's service worker, served at /sw.js (scope /). The server (or the static
// export) writes BUILD below: the app's version and every file it keeps, as [the address the
// pages ask for, where to fetch it on this host, a digest of its bytes], the table page's path
// and the languages (mattis/web/pwa.py).
//
// - install: fetch every file into a cache named after the version (a file whose digest is
//   unchanged is copied from the version before, so an update downloads what changed); it then
//   waits, and the pages are told (pwa.js shows "a new version is ready"). It takes over only
//   when a page asks (the person pressed "update") or when no page of the old one is open,
//   so nothing is swapped under a game; games live in IndexedDB anyway, not in a page.
//   Every file kept, fetched or carried over, must have the SHA-256 named below, or the
//   install fails and nothing of it stays: the version before goes on (a proxy that alters a
//   file on the way, on plain-HTTP --lan, cannot plant code in the app).
// - fetch: the pages, /static/*, /rules, /learn and the /api/options, /api/texts and
//   /api/learn answers come from the cache (the network only for what is not kept); a finished game's record of a
//   table on this device comes from IndexedDB; everything else (server tables, sockets) goes
//   to the network untouched.
importScripts("/static/app/database.js");  // mattisDatabase: the device's IndexedDB, as the app's worker opens it

const BUILD = /*BUILD*/{"version": "source", "exported": false, "files": [], "table_page": "/t/", "languages": {"codes": ["en"], "aliases": {}, "default": "en"}}/*BUILD*/;
const CACHE = `mattis-${BUILD.version}`;
const KEPT = new Set(BUILD.files.map(([url]) => url));

const DIGEST = "x-mattis-digest";

async function sha256(bytes) {
  // The SHA-256 of `bytes` in hex, as BUILD names each file's.
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function kept(url, digest) {
  // The same file from an earlier version, so an update downloads only what changed; its
  // bytes are checked again (a version before this check may have kept a file altered on the
  // way under its right digest): a file that fails is fetched anew.
  for (const name of await caches.keys()) {
    if (!name.startsWith("mattis-") || name === CACHE) continue;
    const found = await (await caches.open(name)).match(url);
    if (!found || found.headers.get(DIGEST) !== digest) continue;
    const body = await found.arrayBuffer();
    if (await sha256(body) === digest) return new Response(body, { status: found.status, headers: found.headers });
  }
  return null;
}

async function fetched(source, digest) {
  // The file from the network, only if its bytes are the ones BUILD names. "reload": never
  // the browser's HTTP cache, which may hold what a proxy altered.
  const response = await fetch(source, { cache: "reload" });
  if (!response.ok) throw new Error(`${source}: ${response.status}`);
  const body = await response.arrayBuffer();
  if (await sha256(body) !== digest) throw new Error(`${source}: not the file this version names`);
  const headers = new Headers(response.headers);
  headers.set(DIGEST, digest);
  headers.delete("content-encoding");  // the body kept is the decoded one
  headers.delete("content-length");
  return new Response(body, { status: response.status, headers });
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    try {
      await Promise.all(BUILD.files.map(async ([url, source, digest]) => {
        await cache.put(url, (await kept(url, digest)) || (await fetched(source, digest)));
      }));
    } catch (error) {
      await caches.delete(CACHE);  // the cache is this version's alone (sw.js is in its version)
      throw error;
    }
  })());
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "update") self.skipWaiting();
  if (event.data && event.data.type === "version" && event.ports[0]) event.ports[0].postMessage(BUILD.version);
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    const first = !names.some((name) => name.startsWith("mattis-") && name !== CACHE);
    await Promise.all(names.filter((name) => name.startsWith("mattis-") && name !== CACHE).map((name) => caches.delete(name)));
    await self.clients.claim();
    if (BUILD.exported && first) {
      // On a static host the first visit read /api/* before this worker could answer (in English):
      // open the pages again, now through the cache, in the reader's language.
      for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url);
    }
  })());
});

function cacheKey(url) {
  const path = url.pathname;
  if (path === "/" || path === "/index.html") return "/";
  if (path.startsWith(BUILD.table_page)) return BUILD.table_page;
  if (path === "/rules" || path === "/rules/") return `/rules?lang=${langOf(url)}`;
  if (path === "/learn/") return "/learn";  // the export's folder address of the tutorial
  if (path === "/api/options" || path === "/api/texts") return `${path}?lang=${langOf(url)}`;
  if (KEPT.has(path)) return path;
  return null;
}

// The language of a cached answer: ?lang= if the app speaks it, else the device's first language
// it speaks, else the default, as the server's pick_lang does (the languages come from BUILD).
function langOf(url) {
  const { codes, aliases, default: fallback } = BUILD.languages;
  const match = (tag) => {
    const primary = String(tag).toLowerCase().split(/[-_.@]/)[0];
    const code = aliases[primary] ?? primary;
    return codes.includes(code) ? code : null;
  };
  const asked = url.searchParams.get("lang");
  if (asked && match(asked)) return match(asked);
  for (const tag of self.navigator.languages || []) if (match(tag)) return match(tag);
  return fallback;
}

async function fromCache(key, request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(key);
  if (kept) return kept;
  return fetch(request);
}

async function deviceRecord(tableId, game) {
  const db = await mattisDatabase.open();
  try {
    const text = await mattisDatabase.request(db.transaction("records"), "records",
      (store) => store.get(mattisDatabase.recordKey(tableId, game)));
    if (typeof text !== "string") {
      return new Response(JSON.stringify({ type: "error", code: "game_not_over" }),
        { status: 409, headers: { "content-type": "application/json" } });
    }
    return new Response(text, { headers: { "content-type": "application/json",
      "content-disposition": `attachment; filename="mattis-${tableId}-${game}.json"` } });
  } finally {
    db.close();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const record = url.pathname.match(/^\/api\/tables\/(local-[A-Za-z0-9_-]+)\/record$/);
  if (record) {
    event.respondWith(deviceRecord(record[1], Number(url.searchParams.get("game")) || 1));
    return;
  }
  const key = cacheKey(url);
  if (key === null) return;
  if (key.startsWith("/api/") && !BUILD.exported) {
    // The server's answer when it is there (its own hard bot budget); the device's otherwise.
    event.respondWith(fetch(request).catch(() => fromCache(key, request)));
    return;
  }
  event.respondWith(fromCache(key, request));
});
