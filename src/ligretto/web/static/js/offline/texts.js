// The words and numbers the offline board writes (offline.js): the page's
// own sentences with {placeholders}, from the JSON of the edit page's
// script texts and from the board's messages (_offline_messages.html).
export const MINUS = "\u2212";
export const fmt = (n) => (n < 0 ? MINUS + String(-n) : String(n));
export const signed = (n) => (n > 0 ? "+" + n : fmt(n));

export function readJson(id) {
  try { return JSON.parse(document.getElementById(id)?.textContent || "null"); } catch { return null; }
}

const texts = readJson("offline-texts") || {};
const messages = document.getElementById("offline-messages")?.dataset || {};
const camel = (key) => key.replace(/[_-](\w)/g, (_, c) => c.toUpperCase());

export const t = (key, values = {}) =>
  (texts[key] ?? messages[camel(key)] ?? key).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");

// A plural: its form for one, or for more (so in German, English and
// Norwegian alike; the page carries both forms of each sentence).
export const tn = (key, n, values = {}) => t(`${key}_${n === 1 ? "one" : "other"}`, { n, ...values });
