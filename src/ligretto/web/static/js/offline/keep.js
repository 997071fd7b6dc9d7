// Checking an entry by the phone's rules and keeping it on the phone
// (the outbox), with the server's own messages when the rules refuse it,
// and Undo for an entry just kept while it is still on the phone.
import * as outbox from "../outbox.js";
import * as rules from "../rules.js";
import { dropDraft } from "../drafts.js";
import { offerLocal } from "../undo.js";
import { redraw } from "./draw.js";
import { S, apply, baseState, editBase, reload, waitingBase } from "./state.js";
import { sync } from "./sync.js";
import { first } from "./templates.js";
import { t } from "./texts.js";

function readCounts(form, prefix, players) {
  return players.map((_, seat) => {
    const input = form.querySelector(`#${prefix}-${seat}`);
    const text = (input?.value || "").trim();
    return /^\d+$/.test(text) ? Number(text) : null;
  });
}

// The entry's messages, as the server shows them (copies of its own).
function showErrors(form, messages, invalid, implausible = false) {
  form.querySelectorAll("[aria-invalid]").forEach((f) => f.removeAttribute("aria-invalid"));
  for (const field of invalid) form.querySelector(`#${field}`)?.setAttribute("aria-invalid", "true");
  form.querySelectorAll("#entry-errors").forEach((shown) => shown.remove());
  const message = first(implausible ? "entry-check" : "entry-error");
  const list = message.querySelector("ul");
  const sample = list.firstElementChild;
  for (const text of messages) {
    const item = sample.cloneNode(true);
    item.textContent = text;
    list.append(item);
  }
  sample.remove();
  const anchor = form.querySelector(":scope > p.muted, :scope > h2");
  if (anchor) anchor.before(message);
  else form.append(message);
  message.focus();
}

// Keep the entry of *form* on the phone; false (with the messages shown)
// when the rules refuse it.
export async function keep(form, confirm) {
  const base = S.entries.length ? waitingBase(S.entries) : baseState();
  const view = apply(base, S.entries);
  const local = view.local;
  const players = local.players;
  const kind = form.dataset.entry;
  let entry;
  try {
    if (kind === "stacks") {
      const counts = readCounts(form, "stack", players);
      form.querySelectorAll("input[data-stop-for]:checked").forEach((box) => { counts[Number(box.value)] = 0; });
      const missing = counts.flatMap((c, seat) => (c === null ? [seat] : []));
      if (missing.length) {
        showErrors(form, missing.map((seat) => t("stack_range", { name: players[seat], max: rules.STACK_CARDS })), missing.map((s) => `stack-${s}`));
        return false;
      }
      const trial = rules.copyGame(local);
      const number = rules.openRound(trial, counts);
      entry = { game: S.game.id, kind, round: number, counts, confirm: false };
    } else if (kind === "correct") {
      const number = Number(form.dataset.round);
      const before = local.rounds[number - 1];
      if (!before) throw new rules.RuleError("no_such_round");
      const counts = readCounts(form, "stack", players);
      form.querySelectorAll("input[data-stop-for]:checked").forEach((box) => { counts[Number(box.value)] = 0; });
      const missing = counts.flatMap((c, seat) => (c === null ? [seat] : []));
      if (missing.length) {
        showErrors(form, missing.map((seat) => t("stack_range", { name: players[seat], max: rules.STACK_CARDS })), missing.map((s) => `stack-${s}`));
        return false;
      }
      let middle = readCounts(form, "middle", players);
      if (middle.every((c) => c === null) && !before.middle) middle = null; // still waiting for it
      const gaps = middle ? middle.flatMap((c, seat) => (c === null ? [seat] : [])) : [];
      if (gaps.length) {
        showErrors(form, gaps.map((seat) => t("middle_range", { name: players[seat], max: rules.middleLimit(counts[seat]) })), gaps.map((s) => `middle-${s}`));
        return false;
      }
      rules.correctRound(rules.copyGame(local), number, { stacks: counts, middle, confirm });
      entry = { game: S.game.id, kind, round: number, counts, middle, confirm, before: { ...before } };
    } else if (kind === "remove") {
      const number = Number(form.dataset.round);
      const before = local.rounds[number - 1];
      rules.removeLastRound(rules.copyGame(local), number);
      entry = { game: S.game.id, kind, round: number, counts: before.stacks, before: { ...before } };
    } else {
      const number = Number(form.dataset.round);
      const round = local.rounds[number - 1];
      const counts = readCounts(form, "middle", players);
      const missing = counts.flatMap((c, seat) => (c === null ? [seat] : []));
      if (missing.length) {
        showErrors(form, missing.map((seat) => t("middle_range", { name: players[seat], max: rules.middleLimit(round.stacks[seat]) })), missing.map((s) => `middle-${s}`));
        return false;
      }
      rules.completeRound(rules.copyGame(local), number, counts, confirm);
      entry = { game: S.game.id, kind, round: number, counts, confirm };
    }
  } catch (error) {
    const d = error.detail || {};
    const field = kind === "stacks" ? "stack" : "middle";
    if (error.code === "two_callers") showErrors(form, [t("two_callers")], d.seats.map((s) => `stack-${s}`));
    else if (error.code === "implausible") {
      showErrors(form, d.seats.map((s) => players[s]), d.seats.map((s) => `middle-${s}`), true);
    } else if (d.seat !== undefined) {
      showErrors(form, [t(`${field}_range`, { name: players[d.seat], max: d.high })], [`${field}-${d.seat}`]);
    } else showErrors(form, [error.code], []);
    return false;
  }
  const onTop = S.entries.length === 0;
  entry.base = onTop ? Number(base.version) : null;
  // The game it builds on, kept with the first entry: what a conflict is
  // measured against, whatever the page hears live meanwhile.
  if (onTop) entry.state = base;
  const id = await outbox.add(entry);
  dropDraft(S.game.id, form);
  if (kind === "correct" || kind === "remove") {
    // Back to the board, which shows the change as not sent yet.
    reload(`${editBase()}?kept=${entry.round}`);
    return true;
  }
  await redraw();
  document.getElementById("entry-title")?.scrollIntoView({ block: "start" });
  document.querySelector("#entry .stepper input")?.focus({ preventScroll: true });
  offerUndo(id, entry);
  sync();
  return true;
}

const KEPT_TEXT = { stacks: "kept_stacks", middle: "kept_round", correct: "kept_correction", remove: "kept_removal" };

// Undo for an entry just kept: while it is still on the phone, it goes.
function offerUndo(id, entry) {
  offerLocal(t(KEPT_TEXT[entry.kind] || "kept_round", { number: entry.round }), async () => {
    const list = await outbox.pending(S.game.id);
    if (!list.some((e) => e.id === id) || S.sending) return; // sent meanwhile: the board offers its own Undo
    await outbox.remove(id);
    const left = await outbox.pending(S.game.id);
    if (!left.length) reload(editBase());
    else await redraw();
  });
}

// After a correction or removal kept offline, the board offers its Undo.
export function offerKeptUndo() {
  const kept = new URLSearchParams(location.search).get("kept");
  if (!kept || !S.entries.length) return;
  const last = S.entries[S.entries.length - 1];
  if (String(last.round) === kept) offerUndo(last.id, last);
  history.replaceState(history.state, "", location.pathname + location.hash);
}

