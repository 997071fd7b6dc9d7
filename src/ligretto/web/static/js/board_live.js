// The board's live updates (T6: several phones): another phone's save
// reaches this one as an event, and the board is fetched (the edit page) or
// pushed whole (a watch page) and put in place, with a sentence for screen
// readers; the indicator says live or offline. board.js starts it and tells
// it, through `page`, when this phone's own save is on its way.
import * as offline from "./offline.js";
import { rememberGame } from "./games.js";

const board = document.getElementById("board-top");
const live = document.getElementById("live");
const stale = document.getElementById("stale");
let shownVersion = Number(board?.dataset.version || 0);
let loading = null;
// A change heard while the board is being fetched may be newer than what
// that fetch brings: asked once more when it is done.
let askedAgain = false;
// What the page is doing, set by board.js's entry sending.
export const page = {
  leaving: false, // a save landed and the page is on its way to the next one
  saving: false, // a save was sent and has no answer yet
  missed: false, // a change was heard meanwhile
};
// Back to this page from the browser's history: it is shown again, and live.
window.addEventListener("pageshow", (event) => { if (event.persisted) page.leaving = false; });
// The game (its #game-info), the edit token and whether rounds are kept
// offline: given by startLive.
let info = null;
let token = null;
let offlineEntry = false;
let editing = false;

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
  if (page.leaving || (version && version <= shownVersion)) return;
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

export async function refresh() {
  if (page.leaving) return null;
  // A change heard while this phone's own save is on its way is mostly that
  // save: the page it leads to shows it. Asked again should the save not land.
  if (page.saving) { page.missed = true; return null; }
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

/** Listen for changes to the board shown; `game` is the page's #game-info. */
export function startLive(game, editToken, keptOffline) {
  info = game;
  token = editToken;
  offlineEntry = keptOffline;
  editing = Boolean(document.querySelector("form[data-entry]") || (info && info.edit));
  window.addEventListener("online", () => connection(true));
  window.addEventListener("offline", () => connection(false));
  if (!board || !board.dataset.events || !("EventSource" in window)) return;
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

