// The board page: steppers, the one-tap Ligretto Stop, the live preview of
// points (R5: middle − penalty × stack, the penalty per stack card rendered
// by the server as data-stack-penalty), sharing, and live updates from other phones.
import { rememberGame } from "./games.js";
import { editLink, editedGame, takeToken } from "./tokens.js";

// --- the edit token: from the link's fragment into the phone's keeping ---
// It goes into every form's hidden field and the live update's header,
// never into an address (docs/tafel-guide.md, "How the edit link is kept").
const gameId = editedGame();
const token = gameId ? takeToken(gameId) : null;
if (gameId && token) {
  for (const field of document.querySelectorAll("form input[name=token]")) field.value = token;
  const link = document.getElementById("edit-link");
  if (link) link.value = editLink(gameId, token);
  const missing = document.getElementById("no-token");
  if (missing) missing.hidden = true;
}

const MINUS = "\u2212";
const fmt = (n) => (n < 0 ? MINUS + String(-n) : String(n));
const signed = (n) => (n > 0 ? "+" + n : fmt(n));

function readNumber(input) {
  const text = input.value.trim();
  if (!/^\d+$/.test(text)) return null;
  return Number(text);
}

// --- steppers: big − / + buttons around each number field ---
function step(input, delta) {
  navigator.vibrate?.(8); // a tick under the thumb
  const min = Number(input.min || 0);
  const max = Number(input.max || 99);
  const current = readNumber(input);
  let next;
  if (current === null) next = delta > 0 ? Math.max(min, 1) : min;
  else next = Math.min(max, Math.max(min, current + delta));
  input.value = String(next);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-step]");
  if (!button) return;
  const input = button.parentElement.querySelector("input");
  if (input && !input.readOnly) step(input, Number(button.dataset.step));
});

// Holding a stepper repeats it, for the middle counts that run to 20 and more.
document.addEventListener("pointerdown", (event) => {
  const button = event.target.closest("[data-step]");
  if (!button) return;
  const input = button.parentElement.querySelector("input");
  let timer = setTimeout(function repeat() {
    step(input, Number(button.dataset.step));
    timer = setTimeout(repeat, 90);
  }, 450);
  const stop = () => clearTimeout(timer);
  button.addEventListener("pointerup", stop, { once: true });
  button.addEventListener("pointerleave", stop, { once: true });
  button.addEventListener("pointercancel", stop, { once: true });
});

// --- Ligretto Stop: one tap sets the caller's stack to 0 (T2) ---
function syncStop(checkbox) {
  const input = document.getElementById(checkbox.dataset.stopFor);
  const entry = checkbox.closest(".entry");
  if (!input) return;
  if (checkbox.checked) {
    if (input.value !== "0") input.dataset.before = input.value;
    input.value = "0";
  } else if (input.value === "0") {
    input.value = input.dataset.before || "";
  }
  entry?.classList.toggle("is-caller", checkbox.checked);
  updatePreview(input);
}

document.addEventListener("change", (event) => {
  if (event.target.matches("input[data-stop-for]")) syncStop(event.target);
});

// --- live preview of each player's points before saving ---
function updatePreview(input) {
  const entry = input.closest(".entry");
  const output = entry?.querySelector("output[data-preview]");
  if (!output) return;
  const value = readNumber(input);
  const kind = output.dataset.preview;
  const penalty = Number(output.dataset.stackPenalty);
  if (kind === "stack") {
    // Stacks only: what this round costs so far (−penalty per card, R5).
    const stop = entry.querySelector("input[data-stop-for]");
    if (stop && value !== null) {
      if (value === 0 && !stop.checked) { stop.checked = true; entry.classList.add("is-caller"); }
      if (value !== 0 && stop.checked) { stop.checked = false; entry.classList.remove("is-caller"); }
    }
    output.innerHTML = value === null ? "" : `<span class="points">${fmt(-penalty * value)}</span><span class="formula">−${penalty} × ${value}</span>`;
  } else {
    // On the correction page the stack is being edited in the same form.
    const stackInput = output.closest("form")?.querySelector(`#stack-${output.dataset.seat}`);
    const typed = stackInput ? readNumber(stackInput) : null;
    const stack = typed === null ? Number(output.dataset.stack) : typed;
    if (value === null) { output.textContent = ""; return; }
    const points = value - penalty * stack;
    const sum = output.dataset.total === undefined ? "" : ` · Σ ${fmt(Number(output.dataset.total) + points)}`;
    output.innerHTML = `<span class="points">${signed(points)}</span><span class="formula">${value} − ${penalty} × ${stack}${sum}</span>`;
  }
}

document.addEventListener("input", (event) => {
  if (!event.target.matches(".entry input[type=number]")) return;
  updatePreview(event.target);
  // A changed stack changes that player's points in the middle step too.
  const seat = event.target.id.startsWith("stack-") ? event.target.id.slice(6) : null;
  const middle = seat === null ? null : document.getElementById(`middle-${seat}`);
  if (middle) updatePreview(middle);
});
document.querySelectorAll(".entry input[type=number]").forEach(updatePreview);

// Enter in a count moves on to the next player's count (the phone's "next"
// key); only the last one saves, so a half-entered round is not sent.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || !event.target.matches(".stepper input")) return;
  const fields = [...event.target.form.querySelectorAll(".stepper input:not([readonly])")];
  const next = fields[fields.indexOf(event.target) + 1];
  if (next) {
    event.preventDefault();
    next.focus();
  }
});
for (const form of document.querySelectorAll("form[data-entry]")) {
  const fields = form.querySelectorAll(".stepper input");
  fields[fields.length - 1]?.setAttribute("enterkeyhint", "done");
}

// Select the whole number on focus so typing replaces it.
document.addEventListener("focusin", (event) => {
  if (event.target.matches(".stepper input")) event.target.select();
});

// Focus the first message after a refused entry, so it is read out.
document.getElementById("entry-errors")?.focus();

// --- sharing and printing ---
// Phones offer their own share sheet (messengers, AirDrop …) where they can.
for (const button of document.querySelectorAll("[data-share]")) {
  if (!navigator.share) continue;
  button.hidden = false;
  button.addEventListener("click", () => {
    const url = document.getElementById(button.dataset.share).value;
    navigator.share({ title: button.dataset.title, url }).catch(() => {});
  });
}

document.addEventListener("click", async (event) => {
  const copy = event.target.closest("[data-copy]");
  if (copy) {
    const field = document.getElementById(copy.dataset.copy);
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      field.select();
      document.execCommand?.("copy");
    }
    const label = copy.textContent;
    copy.textContent = copy.dataset.copied;
    setTimeout(() => { copy.textContent = label; }, 1500);
  }
  if (event.target.closest("[data-print]")) window.print();
});

// A form is sent once: a second tap while the page loads would only meet
// a version conflict. The submitter is disabled after the browser read it.
document.addEventListener("submit", (event) => {
  const button = event.submitter;
  if (button) setTimeout(() => { button.disabled = true; }, 0);
});
window.addEventListener("pageshow", () => {
  document.querySelectorAll("form button[type=submit]").forEach((b) => { b.disabled = false; });
});

// Keep the screen on while the board is open: the phone lies on the table
// between rounds (Screen Wake Lock, where the browser has it).
async function keepAwake() {
  try {
    if (document.visibilityState === "visible") await navigator.wakeLock?.request("screen");
  } catch {
    // Refused (battery saver, no permission): the screen just dims as usual.
  }
}
keepAwake();
document.addEventListener("visibilitychange", keepAwake);

// --- remember this game for the start page ---
const info = JSON.parse(document.getElementById("game-info")?.textContent || "null");
if (info) rememberGame(info);

// --- live updates: reload the board when another phone saves (T6) ---
const board = document.getElementById("board-top");
const live = document.getElementById("live");
const stale = document.getElementById("stale");
const editing = Boolean(document.querySelector("form[data-entry]") || (info && info.edit));
let shownVersion = Number(board?.dataset.version || 0);
let loading = null;

async function refresh() {
  if (loading) return loading;
  loading = (async () => {
    try {
      const headers = { Accept: "text/html" };
      if (token) headers["X-Edit-Token"] = token;
      const response = await fetch(board.dataset.fragment, { headers, cache: "no-store" });
      if (!response.ok) {
        // The edit page's board answers 404 to a wrong or missing token.
        const missing = document.getElementById("no-token");
        if (response.status === 404 && missing && editing) missing.hidden = false;
        return;
      }
      const version = Number(response.headers.get("X-Game-Version") || 0);
      if (version && version === shownVersion) return;
      const html = await response.text();
      const parts = document.createElement("template");
      parts.innerHTML = html;
      for (const part of parts.content.querySelectorAll("[data-part]")) {
        const target = document.getElementById(part.dataset.part);
        if (target) target.innerHTML = part.innerHTML;
      }
      shownVersion = version;
      board.dataset.version = String(version);
      // The entry forms carry the version they were made for; another
      // phone's save makes them stale: say so instead of failing later.
      if (editing && stale) stale.hidden = false;
      // The status was replaced with the board; a persistent live region
      // lets screen readers hear what changed (T6: several phones).
      const announce = document.getElementById("announce");
      const status = document.getElementById("status");
      if (announce && status) announce.textContent = status.textContent.replace(/\s+/g, " ").trim();
      const meta = response.headers.get("X-Game-Info");
      if (meta && info) rememberGame({ ...info, ...JSON.parse(decodeURIComponent(meta)) });
    } finally {
      loading = null;
    }
  })();
  return loading;
}

if (board && board.dataset.events && "EventSource" in window) {
  const source = new EventSource(board.dataset.events);
  source.addEventListener("open", () => {
    if (live) { live.dataset.state = "live"; live.textContent = live.dataset.live; }
  });
  source.addEventListener("error", () => {
    if (live) { live.dataset.state = "off"; live.textContent = live.dataset.offline; }
  });
  const onMessage = (event) => {
    let version = 0;
    try { version = Number(JSON.parse(event.data).version || 0); } catch { version = 0; }
    if (!version || version !== shownVersion) refresh();
  };
  // The API sends `event: version` with {"id", "version"} (docs/tafel-api.md).
  source.addEventListener("version", onMessage);
  window.addEventListener("pagehide", () => source.close());
}
