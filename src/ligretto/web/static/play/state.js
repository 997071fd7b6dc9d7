// What this page knows about the table: one state object, changed through
// the functions below, and where the moves offered in a view start.
import { code } from "./page.js";

// How long a card that lost the race takes to fly back (table.css: .returning).
export const RETURN_MS = 450;

export const state = {
  seat: null,
  host: false,
  table: null,
  view: null,
  ref: 0,
  pending: new Map(), // ref -> {action, source}
  clockOffset: 0, // server clock minus local clock, ms
  news: { reports: "", at: 0 }, // the last message that changed the view (reader.js names it)
  startAt: null, // "Ligretto!" of the round counting down, on the server's clock (ms)
  joinName: null,
  chooser: null, // {source, card, actions, lost: Set of pile ids, drag}
  watchFallback: false,
  returning: null, // {source, until}: a card flying back after a lost race
  takenOver: false, // the seat is played on another device now: stay quiet
  keptOut: false, // the host removed this person: this page may only watch
};

// ---------------------------------------------------------------- the seat token

const tokenKey = `ligretto.play.${code}`;
const hostKey = `ligretto.play.${code}.host`;

export function takeTokenFromFragment() {
  // "#t=…" (the host's link: the host token) or "#seat=…" (a seat link from
  // another device): kept in localStorage, removed from the address bar.
  const match = location.hash.match(/(?:^#|&)(t|seat)=([A-Za-z0-9_-]+)/);
  if (match) {
    localStorage.setItem(match[1] === "t" ? hostKey : tokenKey, match[2]);
    history.replaceState(null, "", location.pathname + location.search);
  }
  // "#n=…": Join from the lobby's list (/play) under the name typed there;
  // the page sits down at once, unless this browser has a seat here already.
  const named = new URLSearchParams(location.hash.slice(1)).get("n");
  if (named !== null) {
    if (named.trim() && !localStorage.getItem(tokenKey)) state.joinName = named.trim();
    history.replaceState(null, "", location.pathname + location.search);
  }
}

const previousKey = `ligretto.play.${code}.previous`;

export const savedToken = () => localStorage.getItem(tokenKey);
export const savedHostToken = () => localStorage.getItem(hostKey);
// Every join gives a new seat token; the one before is kept too. A server
// that stopped abruptly comes back from its last batch, which may predate
// the newest token: then the one before still takes the seat
// (docs/online-play.md, "what a crash can lose").
export function keepToken(token) {
  const before = savedToken();
  if (before && before !== token) localStorage.setItem(previousKey, before);
  localStorage.setItem(tokenKey, token);
}
export function forgetToken() {
  localStorage.removeItem(tokenKey);
}
export function forgetHostToken() {
  localStorage.removeItem(hostKey);
}
// The host left and this page hosts the table now (a new host token).
export function becomeHost(token) {
  localStorage.setItem(hostKey, token);
  state.host = true;
}
// This page's own random id for the table, kept in the browser: the table
// keeps out a person the host removed when they try to sit down again
// from here (docs/protocol.md, join's `device`).
const deviceKey = `ligretto.play.${code}.device`;
export function deviceId() {
  let id = localStorage.getItem(deviceKey);
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(deviceKey, id);
  }
  return id;
}
// After a refused seat token: try the token before it, once.
export function fallBackToPreviousToken() {
  const previous = localStorage.getItem(previousKey);
  localStorage.removeItem(previousKey);
  if (!previous || previous === savedToken()) return false;
  localStorage.setItem(tokenKey, previous);
  return true;
}
// The join's tokens: the seat token and, on the host's page, the host token
// (with the page's own id for the table).
export function joinTokens() {
  const fields = { device: deviceId() };
  if (savedToken()) fields.token = savedToken();
  if (localStorage.getItem(hostKey)) fields.host_token = localStorage.getItem(hostKey);
  return fields;
}

// ---------------------------------------------------------------- updates

export function syncClock(serverNowSeconds) {
  state.clockOffset = serverNowSeconds * 1000 - Date.now();
}

// The server's clock now, in ms.
export const serverNow = () => Date.now() + state.clockOffset;

// Whether "Ligretto!" has come (R3): no move is offered before, since the
// server refuses every one ("not_started"). The countdown on this page ends
// with the server's clock; the table's "playing" follows a moment later.
export function started() {
  const t = state.table;
  if (!t) return false;
  if (t.phase === "playing") return true;
  return t.phase === "countdown" && state.startAt !== null && serverNow() >= state.startAt;
}

// The table's message that last changed what this page shows (its key and
// when it came, on this page's clock): the news the announcer reports.
export function hear(reports) {
  state.news = { reports, at: Date.now() };
}

export function welcome(m) {
  state.watchFallback = false;
  state.seat = m.seat;
  state.host = m.host;
  syncClock(m.server_now);
  if (m.token) keepToken(m.token); // a new seat token with every join
  if (m.host_token) localStorage.setItem(hostKey, m.host_token);
  state.joinName = null;
  state.table = m.table;
}

export function setTable(table) {
  state.table = table;
}

// A new view keeps a chosen card: input.js updates its piles in place.
export function setView(view) {
  state.view = view;
}

// A move on its way: its ref comes back with the answer.
export function startMove(action, source) {
  state.ref += 1;
  state.pending.set(state.ref, { action, source });
  return state.ref;
}

// The answer to a move of this page: the move is no longer pending.
export function settleMove(ref) {
  if (ref === null || ref === undefined || !state.pending.has(ref)) return null;
  const move = state.pending.get(ref);
  state.pending.delete(ref);
  return move;
}

export function sendBack(source) {
  state.returning = { source, until: Date.now() + RETURN_MS };
}

export function leaveSeat() {
  state.takenOver = true;
  state.seat = null;
  state.host = false;
  state.chooser = null;
  state.pending.clear();
}

// ---------------------------------------------------------------- the view's actions

// Each action in a view comes structured from the server (docs/protocol.md):
// {text, kind, card?, source?, slot?, pile?}; a move sends back its text.
// Which own place a tap on it starts from (board.js: data-source): the card
// a play or store takes, the gap a refill fills, the hand for turn/recycle.
export function placeOf(a) {
  if (a.kind === "play") return a.source === "row" ? `row${a.slot}` : a.source;
  if (a.kind === "store") return a.source;
  if (a.kind === "refill") return `row${a.slot}`;
  if (a.kind === "turn" || a.kind === "recycle") return "hand";
  return null;
}
