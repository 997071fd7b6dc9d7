// The board page: steppers, the one-tap Ligretto Stop, the live preview of
// points (R5: middle − penalty × stack, the penalty per stack card rendered
// by the server as data-stack-penalty), sharing, and live updates from other phones.
import { rememberGame } from "./games.js";
import { editLink, editedGame, takeToken } from "./tokens.js";
import { dropDraft, dropStale, restoreDraft, saveDraft } from "./drafts.js";
import * as offline from "./offline.js";
import * as undo from "./undo.js";

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
// Only one player calls a round (T2): ticking a second Stop moves it there,
// and the first caller's field gets back what it held before.
function stopBoxes(form) {
  return [...(form?.querySelectorAll("input[data-stop-for]") || [])];
}

function syncStop(checkbox) {
  const input = document.getElementById(checkbox.dataset.stopFor);
  const entry = checkbox.closest(".entry");
  if (!input) return;
  if (checkbox.checked) {
    for (const other of stopBoxes(checkbox.form)) {
      if (other !== checkbox && other.checked) {
        other.checked = false;
        syncStop(other);
      }
    }
    if (input.value !== "0") input.dataset.before = input.value;
    input.value = "0";
  } else if (input.value === "0") {
    input.value = input.dataset.before || "";
  }
  entry?.classList.toggle("is-caller", checkbox.checked);
  check(input);
  updatePreview(input);
}

document.addEventListener("change", (event) => {
  if (event.target.matches("input[data-stop-for]")) syncStop(event.target);
});

// --- each field is checked as soon as it is typed (T2, T3) ---
// The messages are the server's own (rendered into the entry's data
// attributes), so the page and the server say the same thing.
function fieldLimit(input) {
  const entry = input.closest(".entry");
  if (input.id.startsWith("middle-") && entry?.dataset.cards) {
    // T3: 0 to the deck minus the stack; on the correction page the stack
    // is typed in the same form.
    const stackInput = input.form?.querySelector(`#stack-${entry.dataset.player}`);
    const typed = stackInput ? readStack(stackInput) : null;
    const stack = typed === null ? Number(entry.querySelector("output")?.dataset.stack || 0) : typed;
    input.max = String(Number(entry.dataset.cards) - stack);
  }
  return Number(input.max);
}

function readStack(input) {
  const value = readNumber(input);
  return value !== null && value <= Number(input.max) ? value : null;
}

// What is wrong with a field, as { message, blocking }: a number out of
// range cannot be saved; two empty stacks go to the server, whose refusal
// names both fields (as it does without JavaScript).
function problem(input) {
  const fine = { message: "", blocking: false };
  const entry = input.closest(".entry");
  const text = input.value.trim();
  // A row without the server's sentences (none is drawn so today) keeps the browser's own checks.
  if (!entry?.dataset.rangeError || !entry.dataset.wholeError) return fine;
  const whole = { message: entry.dataset.wholeError, blocking: true };
  if (input.validity.badInput) return whole;
  if (text === "") return fine;
  if (!/^[-\u2212]?\d+$/.test(text)) return whole;
  const max = fieldLimit(input);
  const value = Number(text.replace(MINUS, "-"));
  if (value < 0 || value > max) {
    return { message: entry.dataset.rangeError.replace("{max}", String(max)), blocking: true };
  }
  if (value === 0 && input.id.startsWith("stack-")) {
    // T2: a second empty stack is a second caller.
    const list = input.closest(".entry-list");
    const empty = [...list.querySelectorAll(".entry")].filter((other) => {
      const field = other.querySelector("input[type=number]");
      return field && field.value.trim() === "0";
    });
    if (empty.length > 1 && list.dataset.twoCallers) {
      const names = empty.map((e) => e.dataset.name).join(" & ");
      return { message: list.dataset.twoCallers.replace("{names}", names), blocking: false };
    }
  }
  return fine;
}

function check(input) {
  const { message, blocking } = problem(input);
  input.setCustomValidity(blocking ? message : "");
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
  const note = document.getElementById(`${input.id}-error`);
  if (note) note.textContent = message;
  return !message;
}

// --- live preview of each player's points before saving ---
// Only for a valid number: never "−2 × 11".
function updatePreview(input) {
  const entry = input.closest(".entry");
  const output = entry?.querySelector("output[data-preview]");
  if (!output) return;
  const value = problem(input).blocking || input.validity.rangeOverflow ? null : readNumber(input);
  const kind = output.dataset.preview;
  const penalty = Number(output.dataset.stackPenalty);
  if (kind === "stack") {
    // Stacks only: what this round costs so far (−penalty per card, R5).
    const stop = entry.querySelector("input[data-stop-for]");
    if (stop && value !== null) {
      // A typed 0 is a call, unless another player called already (then
      // the message above says two stacks are empty).
      const called = stopBoxes(input.form).some((box) => box !== stop && box.checked);
      if (value === 0 && !stop.checked && !called) { stop.checked = true; entry.classList.add("is-caller"); }
      if (value !== 0 && stop.checked) { stop.checked = false; entry.classList.remove("is-caller"); }
    }
    output.innerHTML = value === null ? "" : `<span class="points">${fmt(-penalty * value)}</span><span class="formula">−${penalty} × ${value}</span>`;
  } else {
    // On the correction page the stack is being edited in the same form.
    const stackInput = output.closest("form")?.querySelector(`#stack-${output.dataset.seat}`);
    const typed = stackInput ? readStack(stackInput) : null;
    if (stackInput && typed === null && stackInput.value.trim() !== "") { output.textContent = ""; return; }
    const stack = typed === null ? Number(output.dataset.stack) : typed;
    if (value === null) { output.textContent = ""; return; }
    const points = value - penalty * stack;
    const sum = output.dataset.total === undefined ? "" : ` · Σ ${fmt(Number(output.dataset.total) + points)}`;
    output.innerHTML = `<span class="points">${signed(points)}</span><span class="formula">${value} − ${penalty} × ${stack}${sum}</span>`;
  }
}

document.addEventListener("input", (event) => {
  if (!event.target.matches(".entry input[type=number]")) return;
  check(event.target);
  updatePreview(event.target);
  // A changed stack changes that player's points in the middle step too,
  // and whether another empty stack is still a second caller.
  const seat = event.target.id.startsWith("stack-") ? event.target.id.slice(6) : null;
  const middle = seat === null ? null : document.getElementById(`middle-${seat}`);
  if (middle) {
    if (middle.value.trim() !== "") check(middle);
    updatePreview(middle);
  }
  if (seat !== null) {
    for (const other of event.target.form?.querySelectorAll(".entry input[id^=stack-]") || []) {
      if (other !== event.target && other.getAttribute("aria-invalid") === "true" && other.value.trim() !== "") check(other);
    }
  }
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
  if (button && !event.target.matches("form[data-entry]")) setTimeout(() => { button.disabled = true; }, 0);
});
window.addEventListener("pageshow", () => {
  document.querySelectorAll("form button[type=submit]").forEach((b) => { b.disabled = false; });
});

// --- entries: sent to the server, or kept on the phone when it cannot be reached ---
// The round's forms are sent by the script: a save that lands goes on to
// the board as the plain form would; a refused one is sent again as the
// plain form, so the server's page shows why; one that cannot reach the
// server is kept on the phone (offline.js) instead of ending on the
// browser's "This site can't be reached".
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!form.matches("form[data-entry]") || !gameId || !token || form.dataset.native) return;
  event.preventDefault();
  const submitter = event.submitter;
  const confirm = submitter?.name === "confirm";
  const kind = form.dataset.entry;
  // Kept on the phone while it is offline or rounds wait to be sent before
  // it (corrections and removals too, in the same order).
  const local = Boolean(form.dataset.local) || (offlineEntry && (offline.waiting() || !navigator.onLine));
  if (submitter) submitter.disabled = true;
  try {
    if (local) {
      await offline.keep(form, confirm);
      return;
    }
    let response;
    try {
      const body = new FormData(form, submitter?.name ? submitter : undefined);
      saving = true;
      // Named, the server answers a save with where to go (204 and
      // X-Entry-Location) instead of a redirect that fetch would follow,
      // drawing the whole board once for nothing (web/pages/saving.py).
      response = await fetch(form.action, {
        method: "POST",
        body,
        headers: { "X-Edit-Token": token, "X-Requested-With": "ligretto-entry" },
      });
    } catch {
      offline.setConnected(false);
      if (offlineEntry) await offline.keep(form, confirm);
      else {
        const note = form.querySelector(".offline-note") || form.insertAdjacentElement("afterbegin", document.createElement("p"));
        note.className = "message error offline-note";
        note.setAttribute("role", "alert");
        note.textContent = `${live?.dataset.offline || "offline"}: ${form.querySelector("button[type=submit]:not(.visually-hidden)")?.textContent || ""} ✗`;
      }
      return;
    }
    // (A 204 without the address, its header lost on the way: this page afresh.)
    const goTo = response.headers.get("X-Entry-Location") || (response.status === 204 ? location.pathname : null);
    if (response.ok && (goTo || response.redirected)) {
      // This phone's own save comes back as a change: the page it leads to
      // shows it, so the board here is not redrawn (nor called stale) meanwhile.
      leaving = true;
      dropDraft(gameId, form);
      // The board it leads to may be this very address: load it afresh then.
      const page = new URL(goTo || response.url, location.href);
      page.hash = "";
      const target = page.href + (kind === "stacks" ? "#entry-title" : "#status");
      if (page.href === location.href.split("#")[0]) {
        history.replaceState(history.state, "", target);
        location.reload();
      } else {
        location.assign(target);
      }
      return;
    }
    // Refused (a message, a conflict): the plain form shows the server's page.
    form.dataset.native = "1";
    form.requestSubmit(submitter?.name ? submitter : undefined);
  } finally {
    if (submitter) submitter.disabled = false;
    saving = false;
    // Not gone on to another page (kept offline): catch up with what was heard.
    if (missed && !leaving && !form.dataset.native) refresh();
    missed = false;
  }
});

// --- drafts: what is typed survives a reload, a closed tab, a locked phone ---
function restoreForms() {
  if (!gameId) return;
  const forms = [...document.querySelectorAll("form[data-entry]")];
  for (const form of forms) {
    if (!restoreDraft(gameId, form)) continue;
    form.querySelectorAll("input[data-stop-for]").forEach((box) => box.closest(".entry")?.classList.toggle("is-caller", box.checked));
    form.querySelectorAll(".entry input[type=number]").forEach((input) => { if (input.value.trim() !== "") check(input); });
    form.querySelectorAll(".entry input[type=number]").forEach(updatePreview);
  }
  if (forms.some((form) => form.dataset.entry === "stacks" || form.dataset.entry === "middle")) dropStale(gameId, forms);
}
document.addEventListener("input", (event) => {
  const form = event.target.closest?.("form[data-entry]");
  if (form && gameId) saveDraft(gameId, form);
});
document.addEventListener("change", (event) => {
  const form = event.target.closest?.("form[data-entry]");
  if (form && gameId) saveDraft(gameId, form);
});
document.addEventListener("entry-drawn", () => {
  restoreForms();
  // A correction drawn offline comes filled: its previews as on the served page.
  document.querySelectorAll(".entry input[type=number]").forEach(updatePreview);
  for (const form of document.querySelectorAll("form[data-entry]")) {
    const fields = form.querySelectorAll(".stepper input");
    fields[fields.length - 1]?.setAttribute("enterkeyhint", "done");
  }
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
// A change heard while the board is being fetched may be newer than what
// that fetch brings: asked once more when it is done.
let askedAgain = false;
let leaving = false; // a save landed and the page is on its way to the next one
let saving = false; // a save was sent and has no answer yet
let missed = false; // a change was heard meanwhile
// Back to this page from the browser's history: it is shown again, and live.
window.addEventListener("pageshow", (event) => { if (event.persisted) leaving = false; });
const offlineEntry = Boolean(gameId && token && document.getElementById("offline-texts") && window.indexedDB);

// A pushed board's HTML, gzipped and in base64 (`?z=gzip`).
async function gunzip(base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

// The news of the board shown (templates/_board_news.html): its complete
// rounds, totals and the sentences that tell a change, in the page's language.
function boardNews() {
  const el = document.querySelector("#board-news [data-rounds]");
  return el ? { ...el.dataset } : null;
}

// What a listener hears about a new board: a round saved, or the points
// changed otherwise (a correction, a removal, an Undo), with the standing;
// "" when neither rounds nor totals moved.
function whatChanged(before, after) {
  if (!before || !after) return "";
  const rounds = Number(after.rounds);
  const was = Number(before.rounds);
  if (rounds > was) return `${after.saved} ${after.standing}`;
  if (rounds < was || after.totals !== before.totals) return `${after.changed} ${after.standing}`;
  return "";
}

// Put a board (the fragment's HTML) in place of the shown one.
async function showBoard(html, version, meta) {
  if (leaving || (version && version <= shownVersion)) return;
  const before = boardNews();
  const parts = document.createElement("template");
  parts.innerHTML = html;
  for (const part of parts.content.querySelectorAll("[data-part]")) {
    const target = document.getElementById(part.dataset.part);
    if (target) target.innerHTML = part.innerHTML;
  }
  shownVersion = version;
  board.dataset.version = String(version);
  // Rounds still on the phone stay on top of the fresh board.
  if (offlineEntry) await offline.redraw();
  // The entry forms carry the version they were made for; another
  // phone's save makes them stale: say so instead of failing later.
  if (editing && stale) stale.hidden = false;
  // The status was replaced with the board; a persistent live region
  // lets screen readers hear what changed (T6: several phones): a saved
  // round or new totals in words, else the new status line. Only for a
  // newer board (above), so never on the first drawing and never twice.
  const announce = document.getElementById("announce");
  const status = document.getElementById("status");
  const text = whatChanged(before, boardNews()) || (status ? status.textContent.replace(/\s+/g, " ").trim() : "");
  if (announce && text && announce.textContent !== text) announce.textContent = text;
  if (meta && info) rememberGame({ ...info, ...meta });
}

async function refresh() {
  if (leaving) return null;
  // A change heard while this phone's own save is on its way is mostly that
  // save: the page it leads to shows it. Asked again should the save not land.
  if (saving) { missed = true; return null; }
  if (loading) { askedAgain = true; return loading; }
  loading = (async () => {
    try {
      const headers = { Accept: "text/html" };
      if (token) headers["X-Edit-Token"] = token;
      // The board shown: the server answers 304 instead of drawing it again.
      if (shownVersion) headers["If-None-Match"] = `"${shownVersion}-${document.documentElement.lang}"`;
      const response = await fetch(board.dataset.fragment, { headers, cache: "no-store" });
      if (response.status === 304) return;
      if (!response.ok) {
        // The edit page's board answers 404 to a wrong or missing token.
        const missing = document.getElementById("no-token");
        if (response.status === 404 && missing && editing) missing.hidden = false;
        return;
      }
      const version = Number(response.headers.get("X-Game-Version") || 0);
      if (version && version === shownVersion) return;
      const meta = response.headers.get("X-Game-Info");
      await showBoard(await response.text(), version, meta ? JSON.parse(decodeURIComponent(meta)) : null);
    } finally {
      loading = null;
      if (askedAgain) { askedAgain = false; refresh(); }
    }
  })();
  return loading;
}

// The indicator says what is true: live, offline (the browser has no
// network or the server does not answer), rounds waiting to be sent, or a
// conflict to decide (offline.js draws the last two on the edit page).
function connection(up) {
  if (offlineEntry) { offline.setConnected(up); return; }
  if (!live) return;
  const state = up && navigator.onLine ? "live" : "offline";
  live.dataset.state = state;
  live.textContent = state === "live" ? live.dataset.live : live.dataset.offline;
}
window.addEventListener("online", () => connection(true));
window.addEventListener("offline", () => connection(false));

if (board && board.dataset.events && "EventSource" in window) {
  // A watch page is sent the board itself (`event: board`), also the one it
  // missed while the connection was gone; the edit page fetches its own.
  // Gzipped where the browser can unpack it: a sixth of the bytes.
  const pushed = board.dataset.push === "board";
  const packed = pushed && "DecompressionStream" in window;
  const source = new EventSource(board.dataset.events + (packed ? "&z=gzip" : ""));
  source.addEventListener("open", () => {
    connection(true);
    if (!pushed) refresh(); // catch up with what changed while the connection was gone
  });
  source.addEventListener("error", () => connection(false));
  const onMessage = (event) => {
    let version = 0;
    try { version = Number(JSON.parse(event.data).version || 0); } catch { version = 0; }
    if (!version || version !== shownVersion) refresh();
  };
  // The API sends `event: version` with {"id", "version"} (docs/tafel-api.md).
  source.addEventListener("version", onMessage);
  source.addEventListener("board", (event) => {
    let sent = null;
    try { sent = JSON.parse(event.data); } catch { sent = null; }
    if (sent && (sent.html || sent.gz)) {
      (sent.gz ? gunzip(sent.gz) : Promise.resolve(sent.html))
        .then((html) => showBoard(html, Number(sent.version || 0), sent.info || null))
        .catch(() => refresh());
    } else {
      refresh();
    }
  });
  window.addEventListener("pagehide", () => source.close());
}

// --- offline: the phone keeps the board, its scripts and the game's state ---
// (the service worker, /sw.js), and the rounds that wait to be sent.
async function keepForOffline() {
  if (!("serviceWorker" in navigator)) return;
  try {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    const ready = await navigator.serviceWorker.ready;
    const map = JSON.parse(document.querySelector("script[type=importmap]")?.textContent || "{}");
    const keep = [
      location.pathname,
      ...[...document.querySelectorAll("script[src], link[rel=stylesheet], link[rel=icon], link[rel=manifest], img[src]")]
        .map((el) => el.getAttribute("src") || el.getAttribute("href")),
      ...Object.values(map.imports || {}).filter((url) => url.startsWith("/static/js/")),
      // The images of the board's pieces the offline board copies (the trophy).
      ...[...document.querySelectorAll("template")].flatMap((tpl) => [...tpl.content.querySelectorAll("img[src]")])
        .map((img) => img.getAttribute("src")),
    ];
    const id = info?.id;
    if (id) keep.push(`/api/games/${id}`);
    keep.push("/offline"); // what a page not kept answers without a network
    ready.active?.postMessage({ keep: [...new Set(keep)] });
  } catch {
    // No service worker (private mode, an old browser): the page still works online.
  }
}
keepForOffline();

// The Undo bar at once (it must not appear late under a finger that is
// already reaching for something else); gone again if rounds wait to be sent.
undo.start(token);
if (offlineEntry) {
  offline.start(gameId, token).then(() => {
    restoreForms();
    if (offline.waiting()) undo.withdraw();
    offline.offerKeptUndo();
  });
} else {
  restoreForms();
}
