// Language: ?lang=, then the saved choice, then the browser's languages. Texts come from the
// server (/api/texts), which holds every word in every language (mattis.i18n).
const KEY = "mattis.lang";

/** The languages of the pages, in the order the switch shows them: the code the server
 * knows, the name on the switch, and the browser language tags that choose it. A language is
 * one more entry here (and its words in mattis.i18n). */
const LANGUAGES = [
  { code: "nb", name: "Norsk", tags: ["nb", "no", "nn"] },
  { code: "en", name: "English", tags: ["en"] },
];
const FALLBACK = "en";

function known(code) {
  return LANGUAGES.some((language) => language.code === code);
}

export function currentLang() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (known(asked)) { saveLang(asked); return asked; }
  const saved = localStorage.getItem(KEY);
  if (known(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || FALLBACK]) {
    const low = tag.toLowerCase();
    const match = LANGUAGES.find((language) => language.tags.some((prefix) => low.startsWith(prefix)));
    if (match) return match.code;
  }
  return FALLBACK;
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

/** A language switch: a button per language, the current one pressed. */
export function langSwitch(container, lang, onChange) {
  container.replaceChildren();
  for (const { code, name } of LANGUAGES) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = name;
    button.lang = code;
    button.setAttribute("aria-pressed", String(code === lang));
    button.addEventListener("click", () => { saveLang(code); onChange(code); });
    container.append(button);
  }
}
