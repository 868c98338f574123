// Language: ?lang=, then the saved choice, then the browser's languages. Texts come from the
// server (/api/texts), which holds every word in bokmål and English (mattis.i18n).
const KEY = "mattis.lang";

export function currentLang() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked === "nb" || asked === "en") { saveLang(asked); return asked; }
  const saved = localStorage.getItem(KEY);
  if (saved === "nb" || saved === "en") return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const low = tag.toLowerCase();
    if (low.startsWith("nb") || low.startsWith("no") || low.startsWith("nn")) return "nb";
    if (low.startsWith("en")) return "en";
  }
  return "en";
}

export function saveLang(lang) {
  localStorage.setItem(KEY, lang);
}

export async function loadTexts(lang) {
  const response = await fetch(`/api/texts?lang=${lang}`);
  return response.json();
}

/** Fill {name} placeholders. */
export function fmt(template, params = {}) {
  return String(template).replace(/\{(\w+)\}/g, (_, key) => (key in params ? params[key] : `{${key}}`));
}

/** A language switch: two buttons, the current one pressed. */
export function langSwitch(container, lang, onChange) {
  container.replaceChildren();
  for (const [code, label] of [["nb", "Norsk"], ["en", "English"]]) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.lang = code;
    button.setAttribute("aria-pressed", String(code === lang));
    button.addEventListener("click", () => { saveLang(code); onChange(code); });
    container.append(button);
  }
}
