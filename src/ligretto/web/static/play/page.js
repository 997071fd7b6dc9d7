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

// The connection banner (#link, over the table: it never moves the player's
// own row). "lost": the socket is gone and the page reconnects; "back": the
// table answered again (shown for a moment); "": nothing to say. Its words
// come with the element (data-*), in the reader's language.
let linkTimer = null;
export function setLink(kind) {
  const box = $("link");
  if (!box) return;
  clearTimeout(linkTimer);
  box.dataset.kind = kind;
  box.textContent = kind ? box.dataset[kind] : "";
  box.hidden = !kind;
  if (kind === "back") linkTimer = setTimeout(() => setLink(""), 2500);
}

// The banner's other words: a move that could not be sent ("unsent") and
// moves that were on their way when the connection went ("unconfirmed").
export const linkText = (key) => ($("link") ? $("link").dataset[key] : "");

let toastTimer = null;

// Take the toast down at once if it says `kind` (the reconnected table
// ends what "Not sent: you were offline" said; it must not lie over the
// cards for seconds more).
export function clearToast(kind) {
  const box = $("toast");
  if (!box || box.hidden || box.dataset.kind !== kind) return;
  clearTimeout(toastTimer);
  box.hidden = true;
}

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
  }, kind === "offline" ? 4000 : 1800); // a card that went back for a lost connection: time to read why
}

// ---------------------------------------------------------------- sound and vibration

// Optional feedback for "Ligretto!", "Too slow" and a round's end: off by
// default, remembered in this browser. The sounds are made with the Web
// Audio API (no files); the context starts with the player's tap that
// switched sound on, as browsers require.
const settings = { sound: localStorage.getItem("ligretto.play.sound") === "on", vibrate: localStorage.getItem("ligretto.play.vibrate") === "on" };
let audio = null;

function audioContext() {
  if (!audio && window.AudioContext) audio = new AudioContext();
  if (audio && audio.state === "suspended") audio.resume();
  return audio;
}

// Notes: [frequency Hz, start s, length s]; one oscillator each, soft edges.
function tones(notes, type, volume) {
  const ctx = audioContext();
  if (!ctx) return;
  const t0 = ctx.currentTime + 0.02;
  for (const [freq, start, length, to] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, t0 + start);
    if (to) osc.frequency.exponentialRampToValueAtTime(to, t0 + start + length);
    gain.gain.setValueAtTime(0.0001, t0 + start);
    gain.gain.exponentialRampToValueAtTime(volume, t0 + start + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + length + 0.05);
  }
}

const SOUNDS = {
  go: () => tones([[523, 0, 0.12], [659, 0.1, 0.12], [784, 0.2, 0.3]], "triangle", 0.25),
  slow: () => tones([[300, 0, 0.28, 150]], "sawtooth", 0.08),
  end: () => tones([[392, 0, 0.2], [523, 0.15, 0.2], [659, 0.3, 0.2], [784, 0.45, 0.5]], "sine", 0.25),
};
const BUZZ = { go: [60, 40, 60], slow: [160], end: [100, 60, 100, 60, 220] };

export function feedback(kind) {
  if (settings.sound && SOUNDS[kind]) {
    try {
      SOUNDS[kind]();
    } catch {
      // no sound on this device
    }
  }
  if (settings.vibrate && navigator.vibrate) navigator.vibrate(BUZZ[kind]);
}

function showSetting(name) {
  const button = $(`${name}-toggle`);
  if (button) button.setAttribute("aria-pressed", String(settings[name]));
}

export function initFeedback() {
  for (const name of ["sound", "vibrate"]) {
    showSetting(name);
    const button = $(`${name}-toggle`);
    if (!button) continue;
    button.addEventListener("click", () => {
      settings[name] = !settings[name];
      localStorage.setItem(`ligretto.play.${name}`, settings[name] ? "on" : "off");
      showSetting(name);
      if (settings[name]) feedback(name === "sound" ? "go" : "slow"); // a sample
    });
  }
  if (!navigator.vibrate) $("vibrate-toggle").hidden = true;
}

// Why a person's seat is not played by them right now: gone for good (left
// the table, or removed by the host: a bot plays to the end), away for a
// while (a bot plays until they are back), or just offline.
export function absence(info) {
  if (info.gone) return T.gone[info.gone];
  return info.away ? T.away : T.offline;
}
