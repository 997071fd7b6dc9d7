// The table page's fixed parts: its root element, its words (rendered by the
// server in the reader's language, #play-text) and the short notices it shows.

export const $ = (id) => document.getElementById(id);
export const root = $("play");
export const code = root.dataset.code;
export const T = JSON.parse($("play-text").textContent);

export function fmt(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, key) => (key in values ? values[key] : `{${key}}`));
}

export function setConnection(text) {
  $("connection").textContent = text || "";
  $("connection").hidden = !text;
}

let toastTimer = null;

export function toast(text, kind) {
  const box = $("toast");
  box.textContent = text;
  box.dataset.kind = kind || "";
  box.hidden = false;
  box.classList.remove("show");
  void box.offsetWidth;
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.hidden = true;
  }, 1800);
}
