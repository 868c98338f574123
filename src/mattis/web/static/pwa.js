// Makes a page part of the installable app: one line in its <head> is enough,
//   <script type="module" src="/static/pwa.js"></script>
// It links the web manifest, sets the theme colour, registers the service worker (/sw.js) and,
// when a new version has been installed while this one runs, says so with an "update" button
// (hooks: [data-pwa="update"] and its button [data-pwa="update-now"]; the page also gets a
// "mattis:update-ready" event). Updating reloads the page; a game on this device is kept in
// IndexedDB after every move, and a game on a server by the server, so nothing is lost.
import { currentLang, loadTexts } from "./i18n.js";

function addToHead(tag, attributes) {
  const selector = Object.entries(attributes).filter(([name]) => name !== "href" && name !== "content")
    .map(([name, value]) => `[${name}="${value}"]`).join("");
  if (document.head.querySelector(`${tag}${selector}`)) return;
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.head.append(element);
}

addToHead("link", { rel: "manifest", href: "/manifest.webmanifest" });
addToHead("meta", { name: "theme-color", content: "#1b5e3b" });
addToHead("link", { rel: "apple-touch-icon", href: "/static/app/icons/icon-192.png" });

let updating = false;

async function showUpdate(waiting) {
  window.dispatchEvent(new CustomEvent("mattis:update-ready", { detail: { apply: () => apply(waiting) } }));
  if (document.querySelector('[data-pwa="update"]')) return;
  let texts = {};
  try { texts = await loadTexts(currentLang()); } catch { texts = {}; }
  const bar = document.createElement("div");
  bar.dataset.pwa = "update";
  bar.setAttribute("role", "status");
  Object.assign(bar.style, {
    position: "fixed", left: "50%", bottom: "1rem", transform: "translateX(-50%)", zIndex: "1000",
    background: "#1b5e3b", color: "#fff", padding: "0.6rem 1rem", borderRadius: "0.5rem",
    boxShadow: "0 2px 8px rgba(0,0,0,0.3)", display: "flex", gap: "0.8rem", alignItems: "center",
  });
  const text = document.createElement("span");
  text.textContent = texts.update_ready || "A new version of Mattis is ready.";
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.pwa = "update-now";
  button.textContent = texts.update_now || "Update";
  button.addEventListener("click", () => apply(waiting));
  bar.append(text, button);
  document.body.append(bar);
}

function apply(waiting) {
  updating = true;
  waiting.postMessage({ type: "update" });
}

async function register() {
  if (!("serviceWorker" in navigator)) return;
  let registration;
  try {
    registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch {
    return; // not built, or not allowed here: the page works as before, online
  }
  navigator.serviceWorker.addEventListener("controllerchange", () => { if (updating) location.reload(); });
  const watch = (worker) => {
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) showUpdate(worker);
    });
  };
  if (registration.waiting && navigator.serviceWorker.controller) showUpdate(registration.waiting);
  if (registration.installing) watch(registration.installing);
  registration.addEventListener("updatefound", () => watch(registration.installing));
}

register();

// With no network, or opened as the installed app, start the engine at once on the pages that
// will need it (the start page, and the page of a table on this device), so the first deal
// does not wait for Python.
async function startEngine() {
  const path = location.pathname;
  const { TABLE_PAGE } = await import("./site.js");
  if (path !== "/" && !path.startsWith(TABLE_PAGE)) return;
  const transport = await import("./transport.js");
  if (path === "/" || transport.isLocal(decodeURIComponent(path.slice(TABLE_PAGE.length)))) await transport.engineReady();
}

if (navigator.onLine === false || matchMedia("(display-mode: standalone)").matches) startEngine().catch(() => {});
