// The connection to the table (docs/protocol.md): one WebSocket, joined with
// a name or this page's seat token, reconnected after a growing pause.
import { T, code, setConnection } from "./page.js";
import { joinTokens, state } from "./state.js";

let current = null;
let retry = 0;
let closedByUs = false;
let onMessage = () => {};

// Every message from the server goes to `handler`.
export function listen(handler) {
  onMessage = handler;
}

export function send(type, fields = {}) {
  if (current && current.readyState === WebSocket.OPEN) {
    current.send(JSON.stringify({ v: 1, type, ...fields }));
  }
}

export function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/play/${code}/ws`);
  current = ws;
  ws.addEventListener("open", () => {
    retry = 0;
    if (state.joinName) send("join", { name: state.joinName });
    else send("join", joinTokens());
  });
  ws.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    onMessage(message);
  });
  ws.addEventListener("close", (event) => {
    if (current !== ws) return;
    if (state.takenOver) return; // no reconnecting: that would take the seat back
    if (event.code === 4404) {
      setConnection(T.refused.no_such_table); // the table has ended: stop trying
      return;
    }
    if (event.code === 4410) {
      setConnection(T.refused.table_closed); // closed (e.g. not restorable): stop trying
      return;
    }
    setConnection(T.reconnecting);
    retry += 1;
    const delay = closedByUs ? 0 : Math.min(5000, 300 * 2 ** Math.min(retry, 4));
    closedByUs = false;
    setTimeout(connect, delay);
  });
}

// Join again at once (with a new name, say).
export function reconnect() {
  closedByUs = true;
  if (current) current.close();
}

// Close for good: the caller has set state.takenOver, so nothing reconnects.
export function disconnect() {
  if (current) current.close();
}
