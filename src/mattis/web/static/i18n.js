// Language: ?lang=, then the saved choice, then the browser's languages (the server, or the
// offline app's service worker, picks among the languages it speaks). Texts come from
// /api/texts, which reads the same compiled gettext catalogues as every other text
// (mattis.i18n): each label by its key, a counted one as its plural forms, with "_lang" (the
// language answered in), "_plural" (its gettext plural rule) and "_languages" (code and own
// name of every language, for the switch).
const KEY = "mattis.lang";

/** The language asked for: ?lang= (kept for next time), the saved choice, or "" to let the
 * server choose from the browser's languages. The answer's texts._lang is what it chose. */
export function currentLang() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked) { saveLang(asked); return asked; }
  return localStorage.getItem(KEY) || "";
}

export function saveLang(lang) {
  localStorage.setItem(KEY, lang);
}

export async function loadTexts(lang) {
  const response = await fetch(`/api/texts?lang=${encodeURIComponent(lang || "")}`);
  return response.json();
}

/** Fill {name} placeholders. */
export function fmt(template, params = {}) {
  return String(template).replace(/\{(\w+)\}/g, (_, key) => (key in params ? params[key] : `{${key}}`));
}

/** A counted text: the plural form for `count` (by the language's rule), with placeholders
 * filled: plural(texts, "table.cards", 3, { n: 3 }) is "3 kort". */
export function plural(texts, key, count, params = {}) {
  const forms = texts[key];
  if (!Array.isArray(forms)) return fmt(forms ?? "", params);
  const index = pluralIndex(texts._plural ?? "(n != 1)", count);
  return fmt(forms[Math.min(Math.max(index, 0), forms.length - 1)], params);
}

// ------------------------------------------------------------------ gettext plural rules

const rules = new Map();

/** Which plural form `n` takes under a gettext plural expression such as
 * "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)".
 * The expression is C: read here by a small parser (the page may not eval code), then kept. */
export function pluralIndex(expression, n) {
  if (!rules.has(expression)) rules.set(expression, parseRule(expression));
  return Number(rules.get(expression)(n));
}

function parseRule(expression) {
  const tokens = expression.match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%()?:<>!]/g) ?? [];
  if (tokens.join("") !== expression.replace(/\s+/g, "")) throw new Error(`plural rule: ${expression}`);
  let at = 0;
  const peek = () => tokens[at];
  const take = (token) => { if (tokens[at] !== token) throw new Error(`plural rule: ${expression}`); at += 1; };
  const binary = [
    ["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"],
  ];
  const apply = {
    "||": (a, b) => (a || b ? 1 : 0), "&&": (a, b) => (a && b ? 1 : 0),
    "==": (a, b) => (a === b ? 1 : 0), "!=": (a, b) => (a !== b ? 1 : 0),
    "<": (a, b) => (a < b ? 1 : 0), ">": (a, b) => (a > b ? 1 : 0),
    "<=": (a, b) => (a <= b ? 1 : 0), ">=": (a, b) => (a >= b ? 1 : 0),
    "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b,
    "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b,
  };
  function ternary() {
    const test = level(0);
    if (peek() !== "?") return test;
    take("?");
    const yes = ternary();
    take(":");
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  }
  function level(depth) {
    if (depth === binary.length) return unary();
    let left = level(depth + 1);
    while (binary[depth].includes(peek())) {
      const op = apply[tokens[at++]];
      const a = left;
      const b = level(depth + 1);
      left = (n) => op(a(n), b(n));
    }
    return left;
  }
  function unary() {
    const token = tokens[at++];
    if (token === "!") { const inner = unary(); return (n) => (inner(n) ? 0 : 1); }
    if (token === "-") { const inner = unary(); return (n) => -inner(n); }
    if (token === "(") { const inner = ternary(); take(")"); return inner; }
    if (token === "n") return (n) => n;
    if (/^\d+$/.test(token ?? "")) { const value = Number(token); return () => value; }
    throw new Error(`plural rule: ${expression}`);
  }
  const rule = ternary();
  if (at !== tokens.length) throw new Error(`plural rule: ${expression}`);
  return rule;
}

// ------------------------------------------------------------------ the switch

/** A language switch: one button per language the server speaks (texts._languages, each in its
 * own name), the current one pressed. */
export function langSwitch(container, lang, onChange, languages = []) {
  container.replaceChildren();
  for (const [code, label] of languages) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.lang = code;
    button.setAttribute("aria-pressed", String(code === lang));
    button.addEventListener("click", () => { saveLang(code); onChange(code); });
    container.append(button);
  }
}
