// The lobby's open public tables on /play: the server draws the list, this
// keeps it live (GET /api/lobby/events: the server sends the list whenever
// it changes) and makes Join one tap: the name typed in the quick-game field
// goes along in the fragment (#n=…), which no server log sees, and the
// table's page sits down under it. Only when the stream fails does the page
// read GET /api/lobby every few seconds instead (and tries the stream again
// now and then).
import { replaceKeeping } from "./redraw.js";

const section = document.getElementById("open-tables");
const list = document.getElementById("open-table-list");
// Polling, when the stream fails: often enough that a table that filled
// leaves the list soon; within the lobby's rate limit (60 a minute) with
// room for the rest of the page.
const EVERY_MS = 4000;
// A stream that failed is tried again after this long (while polling).
const RETRY_STREAM_MS = 60000;
// Failures of the stream in a row, without a list between them, before
// the page polls instead (the browser reconnects by itself until then).
const FAILURES = 3;

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));

function nameTyped() {
  for (const id of ["quick-name", "host-name"]) {
    const field = document.getElementById(id);
    if (field && field.value.trim()) return field.value.trim();
  }
  return "";
}

function item(t) {
  const d = section.dataset;
  const li = document.createElement("li");
  li.className = "open-table";
  li.dataset.code = t.code;
  const who = document.createElement("span");
  who.className = "open-table-who";
  const names = document.createElement("strong");
  names.textContent = t.players.join(", ") || "—";
  who.append(names);
  if (t.bots) who.append(` · ${fill(d.bots, { bots: t.bots })}`);
  const rules = document.createElement("span");
  rules.className = "open-table-rules muted";
  const parts = [t.language.toUpperCase()];
  parts.push(
    t.rules.end === "rounds"
      ? fill(d.rounds, { rounds: t.rules.rounds })
      : fill(d.target, { target: t.rules.target }),
  );
  if (t.rules.deck === "cards") parts.push(d.cards);
  if (t.rules.row_storage) parts.push(d.storage);
  parts.push(fill(d.free, { free: t.free_seats, seats: t.seats }));
  // The list comes when it changes; the wait goes on counting here.
  const waited = t.waiting_seconds + (Date.now() - drawnAt) / 1000;
  parts.push(fill(d.waiting, { minutes: Math.floor(waited / 60) }));
  rules.textContent = parts.join(" · ");
  const join = document.createElement("a");
  join.className = "button primary";
  join.href = `/play/${t.code}`;
  join.dataset.joinTable = t.code;
  join.textContent = d.join;
  li.append(who, rules, join);
  return li;
}

// The last list heard (null: the server's own drawing is still shown).
let shown = null;
let drawnAt = Date.now();

function draw(tables) {
  shown = tables;
  drawnAt = Date.now();
  redraw();
}

function redraw() {
  const tables = shown;
  if (tables === null) return;
  if (!tables.length) {
    const empty = document.createElement("li");
    empty.className = "muted";
    empty.id = "open-tables-empty";
    empty.textContent = section.dataset.empty;
    replaceKeeping(list, [empty]);
    return;
  }
  replaceKeeping(list, tables.map(item));
}

async function refresh() {
  if (document.hidden || stream) return;
  try {
    const response = await fetch("/api/lobby", { cache: "no-store" });
    if (response.ok) draw((await response.json()).tables);
  } catch {
    // Offline for a moment: the list stays as it was until the next look.
  }
}

// The stream: open while the page is seen (a hidden tab holds no
// connection); the browser reconnects it by itself after a break.
let stream = null;
let failures = 0;
let poller = null;
let streamAgainAt = 0;

function setFeed(kind) {
  section.dataset.feed = kind; // "stream" or "poll": how the list stays fresh
}

function openStream() {
  if (stream || document.hidden || typeof EventSource === "undefined") return false;
  if (Date.now() < streamAgainAt) return false;
  const source = new EventSource("/api/lobby/events");
  stream = source;
  source.addEventListener("lobby", (event) => {
    failures = 0;
    stopPolling();
    setFeed("stream");
    draw(JSON.parse(event.data).tables);
  });
  source.addEventListener("error", () => {
    if (source !== stream) return;
    failures += 1;
    if (source.readyState === EventSource.CLOSED || failures >= FAILURES) {
      // Refused (too many streams, a proxy that does not pass it) or
      // broken again and again: read the list every few seconds instead.
      closeStream();
      streamAgainAt = Date.now() + RETRY_STREAM_MS;
      startPolling();
    }
  });
  return true;
}

function closeStream() {
  if (!stream) return;
  stream.close();
  stream = null;
}

function startPolling() {
  setFeed("poll");
  if (poller === null) poller = setInterval(tick, EVERY_MS);
  refresh();
}

function stopPolling() {
  if (poller === null) return;
  clearInterval(poller);
  poller = null;
}

function tick() {
  if (!openStream()) refresh();
}

list.addEventListener("click", (event) => {
  const join = event.target.closest("[data-join-table]");
  if (!join) return;
  const name = nameTyped();
  if (!name) return; // the table's page asks for the name
  event.preventDefault();
  location.href = `/play/${join.dataset.joinTable}#n=${encodeURIComponent(name)}`;
});

// Quick match: the server picks a table others wait at, or opens one; the
// page then sits down there under the name (#n=…) and shows the wait.
const match = document.getElementById("quick-match");
if (match) {
  match.hidden = false;
  document.getElementById("match-note").hidden = false;
  match.addEventListener("click", async () => {
    const field = document.getElementById("quick-name");
    const name = field.value.trim();
    if (!name) {
      field.reportValidity();
      return;
    }
    const response = await fetch("/api/lobby/match", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name, language: document.documentElement.lang }),
    });
    if (response.ok) location.href = new URL((await response.json()).page_url).pathname + `#n=${encodeURIComponent(name)}`;
  });
}

document.addEventListener("visibilitychange", () => {
  if (document.hidden) {
    closeStream();
    failures = 0;
  } else if (!openStream()) {
    refresh();
  }
});
// The waits shown go on counting between two lists.
setInterval(redraw, 30000);
if (!openStream()) startPolling();
