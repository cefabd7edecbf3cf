// The message catalogues (web/i18n/en.json, ja.json): every visible string of the client
// comes from here. The language is the one the person chose (remembered), else the
// browser's first supported one, else English; <html lang> follows it.

export const LANGS = ["en", "ja"];
const KEY = "stoptable:lang";

function pick() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGS.includes(asked)) return asked;
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  if (LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

async function load(lang) {
  const res = await fetch(`/static/i18n/${lang}.json`, { cache: "no-cache" });
  return res.ok ? res.json() : {};
}

export const lang = pick();
const catalogues = { en: await load("en") };
if (lang !== "en") catalogues[lang] = await load(lang);
document.documentElement.lang = lang;

const plural = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

/** The number `n` as this language writes it. */
export function num(n) {
  return typeof n === "number" ? numbers.format(n) : String(n ?? "");
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? (typeof params[name] === "number" ? num(params[name]) : String(params[name])) : m));
}

/** The message `key` with `{name}` filled from `params`; a missing key shows itself
 * (tests fail on that). With `params.count`, `key.one`/`key.other` by the language's
 * plural rules. */
export function t(key, params = {}) {
  let k = key;
  if (typeof params.count === "number") {
    // the language's plural form, else its "other", else a message without plural forms
    const form = `${key}.${plural.select(params.count)}`;
    const other = `${key}.other`;
    const known = (x) => x in catalogues[lang] || x in catalogues.en;
    k = known(form) ? form : known(other) ? other : key;
  }
  const text = catalogues[lang][k] ?? catalogues.en[k];
  return text === undefined ? `⟦${key}⟧` : fill(text, params);
}

/** True if the catalogue has `key` (for optional per-kind messages). */
export function has(key) {
  return key in catalogues[lang] || key in catalogues.en;
}

/** Switch language: remembered, and the page is drawn again in it. */
export function setLang(next) {
  if (!LANGS.includes(next)) return;
  try {
    localStorage.setItem(KEY, next);
  } catch {
    /* private mode: the switch holds for this page only */
  }
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  location.replace(url.toString());
}

/** Fill the static page: `data-i18n` (text), `data-i18n-aria` (aria-label),
 * `data-i18n-title` (document title), and mount the language switch. */
export function localizePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-aria]")) node.setAttribute("aria-label", t(node.dataset.i18nAria));
  const title = root.querySelector("[data-i18n-title]");
  if (title) document.title = t(title.dataset.i18nTitle);
  const bar = document.querySelector("header.bar");
  if (bar && !bar.querySelector(".lang-switch")) {
    const label = document.createElement("label");
    label.className = "lang-switch";
    const span = document.createElement("span");
    span.className = "sr-only";
    span.textContent = t("lang.label");
    const select = document.createElement("select");
    select.id = "lang";
    for (const code of LANGS) {
      const opt = document.createElement("option");
      opt.value = code;
      opt.textContent = t(`lang.${code}`);
      opt.lang = code;
      opt.selected = code === lang;
      select.append(opt);
    }
    select.addEventListener("change", () => setLang(select.value));
    label.append(span, select);
    bar.append(label);
  }
}
