// The connection to the table (docs/protocol.md): one WebSocket, joined with
// a name or this page's seat token, reconnected after a growing pause, and
// watched by a heartbeat so that a socket that went silent without closing
// (a phone between networks, the browser's offline switch) counts as lost
// within two seconds, not after the operating system's timeout.
import { T, clearToast, code, setConnection, setLink } from "./page.js";
import { deviceId, joinTokens, state } from "./state.js";

// The heartbeat (docs/online-play.md, "A dropped connection"): after
// PING_AFTER ms without a message from the server the page sends `ping`;
// a ping left unanswered for SILENT_MS means the connection is gone.
// Judged from the ping's own send time, so a timer that a background tab
// runs late never counts as silence. Lost within PING_AFTER + SILENT_MS
// (+ one CHECK_MS) of the last message: well under the 2 s the page promises.
const PING_AFTER = 600;
const SILENT_MS = 850;
const CHECK_MS = 100;
// The round trip shown on request ("Connection"): a ping every RTT_EVERY ms
// besides the silence ping, and the median of the last RTT_KEEP answers, so
// a player can tell a slow connection from a slow hand.
const RTT_EVERY = 5000;
const RTT_KEEP = 10;
const rtts = [];
let lastPingAt = 0;
let rttListener = () => {};

let current = null;
let retry = 0;
let retryTimer = null;
let closedByUs = false;
let onMessage = () => {};
let hooks = { lost: () => {}, unsent: () => {} };

let up = false; // a welcome came on the current socket and it has not been lost
let lost = false; // the banner says so: a welcome ends it
let lastHeard = 0;
let pingSentAt = 0; // the oldest ping not answered yet (0: none)
let heartbeat = null;

// Every message from the server goes to `handler`.
export function listen(handler) {
  onMessage = handler;
}

// `lost()`: the connection was lost (moves on their way have no answer
// coming); `unsent(ref)`: a move made while it was lost was not sent.
export function onLink(handlers) {
  hooks = { ...hooks, ...handlers };
}

export function send(type, fields = {}) {
  if (type === "move" && !up) {
    // Not queued for later: the table moves on in a second, and a card
    // sent once the connection is back would land on a table this player
    // has not seen (docs/online-play.md). Refused here, visibly.
    hooks.unsent(fields.ref);
    return false;
  }
  if (current && current.readyState === WebSocket.OPEN) {
    current.send(JSON.stringify({ v: 1, type, ...fields }));
    return true;
  }
  return false;
}

// A ping counts for the heartbeat like the silence ping: unanswered, and
// nothing else heard since, it means the connection is gone.
function ping(ws, now) {
  if (!pingSentAt) pingSentAt = now;
  lastPingAt = now;
  ws.send(JSON.stringify({ v: 1, type: "ping", t: now / 1000 }));
}

function beat() {
  const ws = current;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  const now = Date.now();
  if (pingSentAt && lastHeard < pingSentAt && now - pingSentAt > SILENT_MS) {
    drop(ws);
    return;
  }
  if (!pingSentAt && (now - lastHeard >= PING_AFTER || now - lastPingAt >= RTT_EVERY)) ping(ws, now);
}

// The pong echoes the ping's own send time: the round trip needs no state.
function heardPong(message) {
  if (typeof message.t !== "number") return;
  const ms = Date.now() - message.t * 1000;
  if (!(ms >= 0) || ms > 60000) return;
  rtts.push(ms);
  if (rtts.length > RTT_KEEP) rtts.shift();
  rttListener(roundTrip());
}

// The median round trip of the last answers ({ms, n}), or null before the first.
export function roundTrip() {
  if (!rtts.length) return null;
  const sorted = [...rtts].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const ms = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { ms: Math.round(ms), n: sorted.length };
}

// `listener(roundTrip())` after every answer; a ping goes out now for a
// first number without waiting for the next one.
export function watchRoundTrip(listener) {
  rttListener = listener;
  if (current && current.readyState === WebSocket.OPEN) ping(current, Date.now());
}

function stopHeartbeat() {
  clearInterval(heartbeat);
  heartbeat = null;
  pingSentAt = 0;
}

function markLost() {
  up = false;
  if (!lost) {
    lost = true;
    setLink("lost");
  }
  hooks.lost();
}

// This socket is done (closed, or silent): say so and try again.
function drop(ws) {
  if (current !== ws) return;
  current = null;
  stopHeartbeat();
  try {
    ws.close(); // a silent socket may never report its close: it is left behind
  } catch {
    // closing a socket that never opened
  }
  markLost();
  scheduleRetry();
}

function scheduleRetry() {
  retry += 1;
  const delay = Math.min(5000, 300 * 2 ** Math.min(retry, 4));
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, delay);
}

export function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/play/${code}/ws`);
  current = ws;
  ws.addEventListener("open", () => {
    if (current !== ws) return;
    retry = 0;
    lastHeard = Date.now();
    pingSentAt = 0;
    heartbeat = setInterval(beat, CHECK_MS);
    if (state.joinName) send("join", { name: state.joinName, device: deviceId() });
    else send("join", joinTokens());
  });
  ws.addEventListener("message", (event) => {
    if (current !== ws) return;
    lastHeard = Date.now();
    pingSentAt = 0;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "pong") {
      heardPong(message);
      return;
    }
    if (message.type === "welcome") {
      up = true;
      if (lost) {
        lost = false;
        setLink("back");
      }
      // The table as it is now comes with the welcome: a card that was not
      // sent (or had no answer) shows where it is, and the toast that said
      // so goes, instead of lying over the cards for its last seconds.
      clearToast("offline");
    }
    onMessage(message);
  });
  ws.addEventListener("close", (event) => {
    if (current !== ws) return;
    stopHeartbeat();
    up = false;
    if (state.takenOver) return; // no reconnecting: that would take the seat back
    if (event.code === 4404) {
      setLink("");
      setConnection(T.refused.no_such_table); // the table has ended: stop trying
      return;
    }
    if (event.code === 4410) {
      setLink("");
      setConnection(T.refused.table_closed); // closed (e.g. not restorable): stop trying
      return;
    }
    if (closedByUs) {
      closedByUs = false; // joining again on purpose (a new name): at once, no banner
      connect();
      return;
    }
    drop(ws);
  });
}

// The browser knows before the heartbeat does: offline is lost at once,
// and back online tries at once instead of waiting out the pause.
window.addEventListener("offline", () => {
  if (current && !state.takenOver) drop(current);
});
window.addEventListener("online", () => {
  if (retryTimer !== null && !state.takenOver) connect();
});

// Join again at once (with a new name, say).
export function reconnect() {
  closedByUs = true;
  if (current) current.close();
}

// Close for good: the caller has set state.takenOver, so nothing reconnects.
export function disconnect() {
  if (current) current.close();
}
