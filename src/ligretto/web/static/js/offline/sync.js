// Sending what waits on the phone, in order, each entry with the game
// version it builds on (If-Match); a 409 becomes a conflict to decide.
import * as outbox from "../outbox.js";
import { drawPanel, showConflict } from "./conflict.js";
import { showIndicator } from "./indicator.js";
import * as rules from "../rules.js";
import { S, baseState, editBase, reload, step, waitingBase } from "./state.js";

function asNames(players, counts) {
  return Object.fromEntries(players.map((name, seat) => [name, counts[seat]]));
}

function request(entry, players) {
  let body;
  if (entry.kind === "stacks") body = { stacks: asNames(players, entry.counts) };
  else if (entry.kind === "middle") body = { middle: asNames(players, entry.counts), confirm: Boolean(entry.confirm) };
  else if (entry.kind === "correct") {
    body = { stacks: asNames(players, entry.counts), confirm: Boolean(entry.confirm) };
    if (entry.middle) body.middle = asNames(players, entry.middle);
  } else body = null;
  const url = entry.kind === "stacks"
    ? `/api/games/${S.game.id}/rounds`
    : `/api/games/${S.game.id}/rounds/${entry.round}`;
  const method = { stacks: "POST", remove: "DELETE" }[entry.kind] || "PUT";
  return { url, method, body };
}

const RETRY_MS = 2000;
// A sending the network broke is tried again by itself while the browser
// says it is online (the server restarting, a Wi-Fi that dropped a request):
// 2 s, then twice as long each time, at most 30 s. Offline, the "online"
// event asks instead.
const BACKOFF_MAX_MS = 30000;
let backoffMs = RETRY_MS;
let retryTimer = null;
let askedAgain = false;

// A server that says "not now" (429 over the bounds of stored keys, 503
// busy) changed nothing: the entry is sent again after its Retry-After,
// at most 2 minutes later, instead of being shown as refused.
const WAIT_MAX_MS = 120000;

function retryAfter(response) {
  if (retryTimer !== null) clearTimeout(retryTimer);
  const seconds = Number(response.headers.get("Retry-After")) || RETRY_MS / 1000;
  retryTimer = setTimeout(() => { retryTimer = null; sync(); }, Math.min(seconds * 1000, WAIT_MAX_MS));
}

function retryLater() {
  if (retryTimer !== null || !navigator.onLine) return;
  retryTimer = setTimeout(() => { retryTimer = null; sync(); }, backoffMs);
  backoffMs = Math.min(backoffMs * 2, BACKOFF_MAX_MS);
}

export async function sync() {
  if (S.conflict || S.refused || !S.game?.token) return;
  // One sender at a time: "online", the live stream's return and a kept
  // round all ask. Asked while a sending runs, it runs once more after it:
  // the one running may have started before the network came back.
  if (S.sending) { askedAgain = true; return; }
  if (retryTimer !== null) { clearTimeout(retryTimer); retryTimer = null; }
  askedAgain = false;
  S.sending = true;
  S.entries = await outbox.pending(S.game.id);
  if (!S.entries.length) {
    S.sending = false;
    if (askedAgain) setTimeout(sync, 0);
    return;
  }
  showIndicator();
  const players = baseState().players;
  const list = S.entries; // this sending's own list: a redraw meanwhile reads its own
  let expected = list[0].base;
  let state = list[0].state ? waitingBase(list) : null; // the game the next entry builds on
  let sent = 0;
  try {
    for (const [index, entry] of list.entries()) {
      const { url, method, body } = request(entry, players);
      let response;
      try {
        response = await fetch(url, {
          method,
          headers: {
            "Content-Type": "application/json",
            Authorization: `Bearer ${S.game.token}`,
            ...(expected === null || expected === undefined ? {} : { "If-Match": `"${expected}"` }),
            ...(entry.key ? { "Idempotency-Key": entry.key } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      } catch {
        S.connected = false;
        if (!askedAgain) retryLater();
        return;
      }
      S.connected = true;
      backoffMs = RETRY_MS;
      if (response.ok) {
        const answer = await response.json();
        expected = answer.version;
        S.lastSentRound = answer.round?.n || entry.round;
        S.lastSentKind = entry.kind;
        await outbox.remove(entry.id);
        sent += 1;
        // The next entry builds on this version and this game (kept, should the phone stop now).
        try { if (state) step(state, entry); } catch { state = null; }
        const next = list[index + 1];
        if (next) {
          next.base = expected;
          if (state) next.state = rules.copyGame(state);
          else delete next.state;
          await outbox.update(next);
        }
        continue;
      }
      if (response.status === 429 || response.status === 503) {
        retryAfter(response);
        return;
      }
      if (response.status === 409) {
        // The server's version now (the answer's ETag): a state read after
        // it that is older came from the phone's kept copy (sw.js answers it
        // when the network fails on the way): asked again shortly.
        const current = Number((response.headers.get("ETag") || "").replace(/\D/g, "")) || 0;
        if (!(await showConflict(current))) setTimeout(sync, RETRY_MS);
        return;
      }
      let detail = "";
      try { detail = (await response.json()).detail || ""; } catch { detail = String(response.status); }
      S.refused = { entry, detail };
      drawPanel();
      return;
    }
  } finally {
    S.sending = false;
    S.entries = await outbox.pending(S.game.id);
    showIndicator();
    if (askedAgain) setTimeout(sync, 0);
  }
  // Read afresh: a redraw during the sending may have read the list earlier.
  const left = await outbox.pending(S.game.id);
  if (sent && !left.length) {
    // Everything landed: the server's board is the board again.
    const key = { stacks: "opened", correct: "corrected", remove: "removed" }[S.lastSentKind] || "saved";
    reload(`${editBase()}?${key}=${S.lastSentRound}&undo=${expected}#status`);
  }
}
