// The rules as a sheet over the table ([data-rules-sheet], opened by [data-action="rules"],
// closed by Escape or its close button): the rules page's own content (/rules?lang=X, which
// the service worker keeps for the offline app), without leaving the page, so the address and
// the game stay. The link still leads to /rules?back=… for a new tab or a page without scripts.
import { showExampleCards } from "../cards.js";
import { $ } from "../page.js";
import { store } from "./store.js";

/** Open the sheet, with the rules in the page's language (fetched once per language). */
export async function openRules(opener) {
  const sheet = $("rules-sheet");
  const body = $("rules-body");
  const { lang } = store.get();
  if (body.dataset.lang !== lang) {
    body.dataset.lang = lang;
    body.replaceChildren();
    try {
      const response = await fetch(`/rules?lang=${encodeURIComponent(lang)}`);
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const main = page.querySelector("main");
      // headings one level down: the sheet's own title is the <h2>
      for (const link of main.querySelectorAll("a[data-back], .cta")) link.remove();
      body.replaceChildren(...[...main.children].map((node) => document.importNode(node, true)));
      for (const id of body.querySelectorAll("[id]")) id.id = `sheet-${id.id}`;
      for (const node of body.querySelectorAll("[aria-labelledby]")) {
        node.setAttribute("aria-labelledby", node.getAttribute("aria-labelledby").split(" ").map((id) => `sheet-${id}`).join(" "));
      }
      for (const link of body.querySelectorAll('a[href^="#"]')) link.setAttribute("href", `#sheet-${link.getAttribute("href").slice(1)}`);
      showExampleCards(body);
    } catch {
      delete body.dataset.lang;
      const note = document.createElement("p");
      note.textContent = store.get().texts.disconnected ?? "";
      body.replaceChildren(note);
    }
  }
  if (!sheet.open) sheet.showModal();
  sheet.dataset.opener = opener?.id ?? "";
  $("rules-close").focus();
}

export function closeRules() {
  const sheet = $("rules-sheet");
  if (sheet.open) sheet.close();
}

/** Wire the links and the close button; Escape closes the sheet (the dialog's own cancel). */
export function wireRules() {
  for (const link of document.querySelectorAll('[data-action="rules"]')) {
    link.addEventListener("click", (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;  // a new tab: the page
      event.preventDefault();
      openRules(link);
    });
  }
  $("rules-close").addEventListener("click", closeRules);
  $("rules-sheet").addEventListener("close", () => {
    document.querySelector('[data-action="rules"]')?.focus({ preventScroll: true });
  });
}
