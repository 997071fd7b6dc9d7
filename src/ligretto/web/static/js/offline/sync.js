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

export async function sync() {
  if (S.sending || S.conflict || S.refused || !S.game?.token) return;
  S.sending = true; // one sender at a time: "online" and the live stream's return both ask
  S.entries = await outbox.pending(S.game.id);
  if (!S.entries.length) { S.sending = false; return; }
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
        return;
      }
      S.connected = true;
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
  }
  // Read afresh: a redraw during the sending may have read the list earlier.
  const left = await outbox.pending(S.game.id);
  if (sent && !left.length) {
    // Everything landed: the server's board is the board again.
    const key = { stacks: "opened", correct: "corrected", remove: "removed" }[S.lastSentKind] || "saved";
    reload(`${editBase()}?${key}=${S.lastSentRound}&undo=${expected}#status`);
  }
}
