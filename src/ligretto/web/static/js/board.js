// The board page: the edit token, sharing and printing, sending the round's
// entries (or keeping them on the phone offline), drafts, and the phone's
// offline keeping. The entry fields are entry_fields.js's, the live updates
// from other phones board_live.js's.
import { check, updatePreview } from "./entry_fields.js";
import { page, refresh, startLive } from "./board_live.js";
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
const offlineEntry = Boolean(gameId && token && document.getElementById("offline-texts") && window.indexedDB);
const live = document.getElementById("live");

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
      page.saving = true;
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
      page.leaving = true;
      dropDraft(gameId, form);
      // The board it leads to may be this very address: load it afresh then.
      const next = new URL(goTo || response.url, location.href);
      next.hash = "";
      const target = next.href + (kind === "stacks" ? "#entry-title" : "#status");
      if (next.href === location.href.split("#")[0]) {
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
    page.saving = false;
    // Not gone on to another page (kept offline): catch up with what was heard.
    if (page.missed && !page.leaving && !form.dataset.native) refresh();
    page.missed = false;
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

// --- live updates: the board follows what other phones save (T6) ---
startLive(info, token, offlineEntry);

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
