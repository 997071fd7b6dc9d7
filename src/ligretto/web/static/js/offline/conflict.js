// Conflicts: another phone changed the game while entries of this phone
// waited. Both versions are shown, nothing is overwritten or dropped
// unasked; the scorekeeper keeps mine (replacing theirs where both phones
// have the round), theirs, or both (mine after theirs). The same round
// number on both phones is mostly one real round typed twice: the page
// recommends keeping one. A round the server refused is shown too.
import * as rules from "../rules.js";
import * as outbox from "../outbox.js";
import { withdrawLocal } from "../undo.js";
import { rememberSettled, showIndicator } from "./indicator.js";
import { S, baseState, editBase, reload, step, waitingBase } from "./state.js";
import { copy, fill, first, keepIf, keepOnly } from "./templates.js";
import { signed, t, tn } from "./texts.js";

const panel = document.getElementById("sync");

async function fetchServer() {
  const response = await fetch(`/api/games/${S.game.id}`, { cache: "no-store" });
  if (!response.ok) throw new Error(String(response.status));
  const data = await response.json();
  const { version, players, mode, target, agreed_rounds, row_storage, closed, scored } = data;
  const rounds = data.rounds.map((r) => ({
    stacks: players.map((p) => r.stacks[p]),
    middle: r.middle ? players.map((p) => r.middle[p]) : null,
    confirmed: r.confirmed,
  }));
  return { version, players, mode, target, agreed_rounds, row_storage, closed, scored, rounds };
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
  panel.classList.remove("settled");
  if (!S.conflict) { panel.hidden = true; panel.replaceChildren(); return; }
  withdrawLocal();
  const { server, list } = S.conflict;
  const base = waitingBase(list);
  const from = Math.min(...list.map((e) => e.round));
  // Theirs: every round the server has that the game the phone kept its
  // entries on did not have so (added, or changed by the other phone).
  const theirs = server.rounds.map((r, i) => ({ round: r, number: i + 1 }))
    .filter((r) => r.number >= from || !sameRound(r.round, base.rounds[r.number - 1]));
  const mine = myLines(base, list);
  const clash = clashes(theirs, mine);
  const both = rebase(server, list, "both");
  const minePlan = clash.length || !both ? rebase(server, list, "mine") : null;
  const part = copy("conflict");
  part.querySelector('[data-side="server"]').append(side(server.players, theirs));
  part.querySelector('[data-side="mine"]').append(side(server.players, mine));
  // New rounds of the same number on both phones: mostly one real round
  // typed twice (a correction or removal on both: "changed differently").
  const entered = clash.filter((n) => mine.some((line) => line.number === n && !line.label));
  fill(part, "same-number", tn("same_number", entered.length, { rounds: entered.join(", ") }));
  keepIf(part, "same-number", entered.length > 0);
  keepIf(part, "both-hint", entered.length > 0 && Boolean(both));
  keepIf(part, "same-round", !entered.length && Boolean(minePlan));
  keepIf(part, "cannot-append", !both && !minePlan);
  keepOnly(part, '[data-sync="keep-mine"]', Boolean(minePlan));
  part.querySelector('[data-sync="keep-both"]').disabled = !both;
  // The recommended choice: one version where both phones have the same
  // round (never both: that would count one real round twice), else both.
  const recommended = minePlan ? "keep-mine" : both ? "keep-both" : "keep-theirs";
  part.querySelector(`[data-sync="${recommended}"]`)?.classList.add("primary");
  if (!minePlan && both) part.querySelector('[data-sync="keep-theirs"]')?.classList.add("danger");
  S.conflict.shown = { theirs: theirs.map((r) => r.number), mine: numbers(mine), clash };
  panel.hidden = false;
  panel.replaceChildren(part);
  showIndicator();
  panel.querySelector("[role=alert]")?.focus();
}

const numbers = (lines) => [...new Set(lines.map((line) => line.number))].sort((a, b) => a - b);

// The round numbers both phones have different versions of; the server's
// round that is this phone's own (its answer was lost, or the very same
// numbers typed, perhaps without the middle yet) is none.
function clashes(theirs, mine) {
  const found = new Set();
  for (const line of mine) {
    const there = theirs.find((r) => r.number === line.number)?.round;
    if (!there) continue;
    const own = line.round && !line.label && same(there.stacks, line.round.stacks)
      && (!there.middle || !line.round.middle || same(there.middle, line.round.middle));
    if (!own) found.add(line.number);
  }
  return [...found].sort((a, b) => a - b);
}

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const sameRound = (a, b) => Boolean(a && b) && same(a.stacks, b.stacks) && same(a.middle, b.middle);
// The phone's waiting entries replayed on the server's board, as the
// entries still to send (the first with the server's version), or null
// when they do not fit it. An entry the server already has (its answer was
// lost on the way back, or the other phone entered the very same numbers)
// is recognised and not sent again: nothing is doubled. With "both", a
// round of mine that the server does not have follows theirs, and where
// both phones changed the same round differently the plan is null (one
// round cannot hold two versions). With "mine", mine replaces theirs where
// both phones have the round: a correction of their round (stacks and
// middle together, T6), or, for a round of mine still waiting for its
// middle, their last round removed and mine opened in its place.
function rebase(server, list, mode) {
  const game = rules.copyGame(server);
  const phone = waitingBase(list);
  const planned = [];
  const at = new Map(); // the phone's round number → its number on the server's board
  const taken = new Set(); // entries already planned with an earlier one
  try {
    for (const [index, entry] of list.entries()) {
      const n = at.get(entry.round) ?? entry.round;
      const there = game.rounds[n - 1];
      const mineBefore = phone.rounds[entry.round - 1];
      try { step(phone, entry); } catch { /* checked on the server's board below */ }
      if (taken.has(index)) continue;
      if (entry.kind === "stacks") {
        if (there && same(there.stacks, entry.counts)) { at.set(entry.round, n); continue; }
        if (there && mode === "mine") {
          // Their round n is another version of my round n: mine replaces it.
          at.set(entry.round, n);
          const later = list.findIndex((e, i) => i > index && e.kind === "middle" && e.round === entry.round);
          if (later >= 0) {
            const middle = list[later];
            taken.add(later);
            rules.correctRound(game, n, { stacks: entry.counts, middle: middle.counts, confirm: middle.confirm });
            planned.push({ kind: "correct", round: n, counts: entry.counts, middle: middle.counts, confirm: middle.confirm, before: { ...there } });
          } else if (!there.middle) {
            rules.correctRound(game, n, { stacks: entry.counts });
            planned.push({ kind: "correct", round: n, counts: entry.counts, middle: null, confirm: false, before: { ...there } });
          } else {
            // A correction keeps a round's middle: mine, still waiting for
            // its middle, takes the place of their last round instead.
            rules.removeLastRound(game, n);
            planned.push({ kind: "remove", round: n, counts: there.stacks, before: { ...there } });
            rules.openRound(game, entry.counts);
            planned.push({ kind: "stacks", round: n, counts: entry.counts, confirm: false });
          }
          continue;
        }
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
        if (there && mode === "mine") {
          // They changed the stacks of the round whose middle I entered: mine replaces it.
          rules.correctRound(game, n, { stacks, middle: entry.counts, confirm: entry.confirm });
          planned.push({ kind: "correct", round: n, counts: stacks, middle: entry.counts, confirm: entry.confirm, before: { ...there } });
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
    rememberSettled(action, S.conflict.shown, plan, S.conflict.server.rounds.length);
    await outbox.replace(S.game.id, plan);
  } else if (action === "keep-theirs" && S.conflict) {
    rememberSettled(action, S.conflict.shown, [], S.conflict.server.rounds.length);
    await outbox.replace(S.game.id, []);
  } else if (action === "discard-one" && S.refused) {
    await outbox.remove(S.refused.entry.id);
  } else return;
  // The server's board, with what the phone still has to send on top.
  reload(editBase());
});
