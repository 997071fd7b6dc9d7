// Conflicts: another phone changed the game while entries of this phone
// waited. Both versions are shown, nothing is overwritten and nothing is
// dropped unasked; the scorekeeper decides (keep both, keep mine for a
// round, or keep only theirs). A round the server refused is shown too.
import * as rules from "../rules.js";
import * as outbox from "../outbox.js";
import { showIndicator } from "./indicator.js";
import { S, baseState, editBase, reload, step, waitingBase } from "./state.js";
import { copy, fill, first, keepIf, keepOnly } from "./templates.js";
import { signed, t } from "./texts.js";

const panel = document.getElementById("sync");

async function fetchServer() {
  const response = await fetch(`/api/games/${S.game.id}`, { cache: "no-store" });
  if (!response.ok) throw new Error(String(response.status));
  const data = await response.json();
  return {
    version: data.version,
    players: data.players,
    mode: data.mode,
    target: data.target,
    agreed_rounds: data.agreed_rounds,
    row_storage: data.row_storage,
    closed: data.closed,
    scored: data.scored,
    rounds: data.rounds.map((r) => ({
      stacks: data.players.map((p) => r.stacks[p]),
      middle: r.middle ? data.players.map((p) => r.middle[p]) : null,
      confirmed: r.confirmed,
    })),
  };
}

// What the phone waits to send, as lines for the conflict panel: whole
// rounds (stacks and middle together), corrections and removals.
function myLines(base, list) {
  const phone = rules.copyGame(base);
  const lines = new Map();
  for (const entry of list) {
    if (entry.kind === "stacks") {
      lines.set(`r${entry.round}`, { number: entry.round, round: { stacks: entry.counts, middle: null } });
    } else if (entry.kind === "middle") {
      const stacks = phone.rounds[entry.round - 1]?.stacks || lines.get(`r${entry.round}`)?.round.stacks;
      lines.set(`r${entry.round}`, { number: entry.round, round: { stacks, middle: entry.counts } });
    } else if (entry.kind === "correct") {
      lines.set(`c${entry.id}`, { number: entry.round, label: "corrected", round: { stacks: entry.counts, middle: entry.middle } });
    } else if (entry.kind === "remove") {
      lines.set(`x${entry.id}`, { number: entry.round, label: "removed", round: null });
    }
    try { step(phone, entry); } catch { /* shown as it was kept */ }
  }
  return [...lines.values()];
}

// The server's answer was 409 (the game at version *current* now): show
// both sides (or nothing, when all that waits is on the server already).
// False when the server's game could not be read as it is now.
export async function showConflict(current = 0) {
  let server;
  try { server = await fetchServer(); } catch { S.connected = false; showIndicator(); return false; }
  if (server.version < current) {
    // The phone's kept copy answered, not the server: a panel drawn from it
    // would say the server has no change.
    S.connected = false;
    showIndicator();
    return false;
  }
  S.connected = true;
  const list = await outbox.pending(S.game.id);
  const plan = rebase(server, list, "both");
  if (plan && plan.length === 0) {
    // Everything waiting is on the server already (an answer was lost on
    // the way back): nothing to decide, nothing to send twice.
    await outbox.replace(S.game.id, []);
    reload(editBase());
    return true;
  }
  S.conflict = { server, list };
  drawPanel();
  return true;
}

function roundLine(players, round) {
  const parts = players.map((name, seat) => {
    if (!round.middle) return `${name}: ${t("stack_count", { count: round.stacks[seat] })}`;
    return `${name} ${signed(rules.points(round.middle[seat], round.stacks[seat]))}`;
  });
  return parts.join(", ");
}

function lineTitle(line) {
  if (line.label === "corrected") return t("round_corrected", { number: line.number });
  if (line.label === "removed") return t("round_removed", { number: line.number });
  return t("round", { number: line.number });
}

// One side's rounds, from copies of the panel's list and its empty note.
function side(players, lines) {
  if (!lines.length) return copy("conflict-none");
  const list = first("conflict-list");
  const sample = list.firstElementChild;
  for (const line of lines) {
    const item = sample.cloneNode(true);
    fill(item, "title", lineTitle(line));
    fill(item, "round", line.round ? `: ${roundLine(players, line.round)}` : "");
    list.append(item);
  }
  sample.remove();
  return list;
}

export function drawPanel() {
  if (!panel) return;
  showIndicator();
  if (S.refused) {
    const { entry, detail } = S.refused;
    const part = copy("refused");
    fill(part, "detail", detail);
    fill(part, "round", `${t("round", { number: entry.round })}: ${roundLine(baseState().players, { stacks: entry.counts, middle: null })}`);
    panel.hidden = false;
    panel.replaceChildren(part);
    return;
  }
  if (!S.conflict) { panel.hidden = true; panel.replaceChildren(); return; }
  const { server, list } = S.conflict;
  const base = waitingBase(list);
  const from = Math.min(...list.map((e) => e.round));
  // Theirs: every round the server has that the game the phone kept its
  // entries on did not have so (added, or changed by the other phone).
  const theirs = server.rounds.map((r, i) => ({ round: r, number: i + 1 }))
    .filter((r) => r.number >= from || !sameRound(r.round, base.rounds[r.number - 1]));
  const both = rebase(server, list, "both");
  const mineFirst = both ? null : rebase(server, list, "mine");
  const part = copy("conflict");
  part.querySelector('[data-side="server"]').append(side(server.players, theirs));
  part.querySelector('[data-side="mine"]').append(side(server.players, myLines(base, list)));
  keepIf(part, "same-round", !both && mineFirst);
  keepIf(part, "cannot-append", !both && !mineFirst);
  keepOnly(part, '[data-sync="keep-mine"]', Boolean(mineFirst));
  keepOnly(part, '[data-sync="keep-both"]', !mineFirst);
  const keepBoth = part.querySelector('[data-sync="keep-both"]');
  if (keepBoth) keepBoth.disabled = !both;
  panel.hidden = false;
  panel.replaceChildren(part);
  panel.querySelector("[role=alert]")?.focus();
}

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const sameRound = (a, b) => Boolean(a && b) && same(a.stacks, b.stacks) && same(a.middle, b.middle);
// The phone's waiting entries replayed on the server's board, as the
// entries still to send (the first with the server's version), or null
// when they do not fit it. An entry the server already has (its answer was
// lost on the way back, or the other phone entered the very same numbers)
// is recognised and not sent again: nothing is doubled. A round of mine
// that the server does not have follows theirs. Where both phones changed
// the same round differently, "both" gives null (one round cannot hold two
// versions) and "mine" keeps mine for that round, as a correction.
function rebase(server, list, mode) {
  const game = rules.copyGame(server);
  const phone = waitingBase(list);
  const planned = [];
  const at = new Map(); // the phone's round number → its number on the server's board
  try {
    for (const entry of list) {
      const n = at.get(entry.round) ?? entry.round;
      const there = game.rounds[n - 1];
      const mineBefore = phone.rounds[entry.round - 1];
      try { step(phone, entry); } catch { /* checked on the server's board below */ }
      if (entry.kind === "stacks") {
        if (there && same(there.stacks, entry.counts)) { at.set(entry.round, n); continue; }
        const number = rules.openRound(game, entry.counts);
        at.set(entry.round, number);
        planned.push({ kind: "stacks", round: number, counts: entry.counts, confirm: false });
      } else if (entry.kind === "middle") {
        const stacks = mineBefore?.stacks;
        if (there && same(there.stacks, stacks)) {
          if (!there.middle) {
            rules.completeRound(game, n, entry.counts, entry.confirm);
            planned.push({ kind: "middle", round: n, counts: entry.counts, confirm: entry.confirm });
          } else if (!same(there.middle, entry.counts)) {
            if (mode !== "mine") return null;
            rules.correctRound(game, n, { stacks, middle: entry.counts, confirm: entry.confirm });
            planned.push({ kind: "correct", round: n, counts: stacks, middle: entry.counts, confirm: entry.confirm, before: { ...there } });
          }
          continue;
        }
        // Their round n is another round: mine follows theirs, whole.
        const number = rules.openRound(game, stacks);
        at.set(entry.round, number);
        planned.push({ kind: "stacks", round: number, counts: stacks, confirm: false });
        rules.completeRound(game, number, entry.counts, entry.confirm);
        planned.push({ kind: "middle", round: number, counts: entry.counts, confirm: entry.confirm });
      } else if (entry.kind === "correct") {
        if (!there) return null;
        const after = { stacks: entry.counts, middle: entry.middle ?? (entry.before.middle || null) };
        if (sameRound(there, after)) continue;
        if (!sameRound(there, entry.before) && mode !== "mine") return null;
        rules.correctRound(game, n, { stacks: entry.counts, middle: entry.middle, confirm: entry.confirm });
        planned.push({ ...entry, round: n, before: { ...there } });
      } else if (entry.kind === "remove") {
        if (!there) {
          if (n === game.rounds.length + 1) continue; // gone already
          return null;
        }
        if (!sameRound(there, entry.before) && mode !== "mine") return null;
        rules.removeLastRound(game, n);
        planned.push({ ...entry, round: n, before: { ...there } });
      }
    }
  } catch {
    return null;
  }
  for (const entry of planned) { delete entry.id; delete entry.state; entry.base = null; }
  if (planned.length) {
    planned[0].base = server.version;
    planned[0].state = rules.copyGame(server); // the game the plan builds on
  }
  return planned;
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-sync]");
  if (!button || !S.game) return;
  const action = button.dataset.sync;
  if ((action === "keep-both" || action === "keep-mine") && S.conflict) {
    const plan = rebase(S.conflict.server, S.conflict.list, action === "keep-mine" ? "mine" : "both");
    if (!plan) return;
    await outbox.replace(S.game.id, plan);
  } else if (action === "keep-theirs" && S.conflict) {
    await outbox.replace(S.game.id, []);
  } else if (action === "discard-one" && S.refused) {
    await outbox.remove(S.refused.entry.id);
  } else return;
  // The server's board, with what the phone still has to send on top.
  reload(editBase());
});
