// The rules as a sheet over the table (issue 24, item 1): reading them loses nothing, since
// the page, its connection and its address stay. The sheet shows the rules page's own content
// (the /rules?lang= answer, from the server or the offline app's cache: one source for both),
// in the page's language, in a modal <dialog>: focus stays inside it, Escape or its close
// button closes it, and focus returns to what opened it. When the rules cannot be fetched,
// the link opens the rules page instead (it finds its way back: rules.js).
import { drawExampleCards, keepBackOnRulesLinks } from "../rules.js";
import { $ } from "../page.js";
import { store } from "./store.js";

async function rulesContent(lang) {
  const response = await fetch(`/rules?lang=${encodeURIComponent(lang)}`);
  if (!response.ok) throw new Error(`rules: ${response.status}`);
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const main = page.querySelector("main.rules-page");
  if (!main) throw new Error("rules: no content");
  for (const node of main.querySelectorAll(".cta")) node.remove();  // "back to the game" is the close button here
  for (const node of main.querySelectorAll("script")) node.remove();
  keepBackOnRulesLinks(main, location.pathname);
  return main;
}

/** Open the sheet; `link` is the rules link that asked (its page is the fallback). */
export async function openRules(link) {
  const sheet = $("rules-sheet");
  if (sheet.open) return;
  const { lang } = store.get();
  const body = $("rules-body");
  if (body.dataset.lang !== lang) {
    let content;
    try {
      content = await rulesContent(lang);
    } catch {
      location.href = link.href;
      return;
    }
    body.replaceChildren(...[...content.childNodes].map((node) => document.importNode(node, true)));
    body.dataset.lang = lang;
    body.lang = lang;
    drawExampleCards(body);
    sheet.setAttribute("aria-labelledby", "rules-title");  // the rules page's own title names the sheet
  }
  sheet.showModal();
  $("rules-close").focus();
}

const FOCUSABLE = "button, a[href], summary, input, select, textarea, [tabindex]:not([tabindex='-1'])";

/** Tab past the sheet's last control comes round to its first (and Shift+Tab back), rather
 * than leaving to the browser's own bar: the table behind is not there while the rules are.
 * (The review's sheet keeps its focus the same way: review.js.) */
export function keepFocusInside(event, sheet = $("rules-sheet")) {
  if (event.key !== "Tab") return;
  const shown = [...sheet.querySelectorAll(FOCUSABLE)].filter((node) => node.getClientRects().length);
  if (!shown.length) return;
  const [first, last] = [shown[0], shown[shown.length - 1]];
  if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
  else if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
}

/** Wire the sheet: its close button, a click beside it, Tab kept inside, and focus back to
 * the opener. */
export function wireRules() {
  const sheet = $("rules-sheet");
  sheet.addEventListener("keydown", keepFocusInside);
  $("rules-close").addEventListener("click", () => sheet.close());
  sheet.addEventListener("click", (event) => { if (event.target === sheet) sheet.close(); });
  sheet.addEventListener("close", () => {
    document.querySelector('[data-action="rules"]')?.focus({ preventScroll: true });  // what opened it
  });
  for (const link of document.querySelectorAll('[data-action="rules"]')) {
    link.addEventListener("click", (event) => {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      openRules(link);
    });
  }
}

/** Whether the sheet is open (the table's keys wait while it is). */
export function rulesOpen() {
  return $("rules-sheet").open;
}
