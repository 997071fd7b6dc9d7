// The top of the offline board: the status and the players' cards, or the
// final ranking, drawn from the phone's state as the server draws them
// (_board_top.html), from copies of the server's own pieces.
import * as rules from "../rules.js";
import { copy, fill, first, keepIf } from "./templates.js";
import { fmt, signed, t, tn } from "./texts.js";

// Whether the winners are announced (BoardView.show_outcome): a target
// game when decided (T4), a rounds game once scored (T5).
const showOutcome = (local, derived) =>
  derived.winners.length > 0 && (local.mode === "target" || Boolean(local.scored));

function bigLine(text, trophy = false) {
  const line = first(trophy ? "trophy-line" : "big-line");
  fill(line, "big-line", text);
  return line;
}

function line(text) {
  const div = first("line");
  div.textContent = text;
  return div;
}

// The status lines, in the order and with the words of _board_top.html.
function statusParts(local, derived, leaders, top) {
  const parts = [];
  const text = (value) => parts.push(document.createTextNode(value));
  if (showOutcome(local, derived)) {
    const winners = derived.winners;
    parts.push(bigLine(winners.length === 1
      ? t("wins", { name: winners[0], points: top })
      : t("shared", { names: winners.join(" & "), points: top }), true));
  } else if (derived.status === "tiebreak") {
    parts.push(bigLine(t("tie", { names: leaders.join(" & ") })));
    text(t("tie_hint"));
  } else if (local.closed) {
    parts.push(bigLine(t("game_over")));
    text(t("closed_hint"));
  } else if (local.mode === "rounds" && derived.roundsLeft === 0) {
    parts.push(bigLine(tn("all_played", local.agreed_rounds)));
    text(t("all_played_hint"));
  } else {
    text(local.mode === "target"
      ? t("target", { target: local.target })
      : tn("rounds_left", derived.roundsLeft, { total: local.agreed_rounds }));
    if (derived.pending) text(` · ${t("waiting_middle", { number: derived.pending })}`);
    parts.push(copy("variant"));
    if (leaders.length && derived.completeRounds) {
      parts.push(line(leaders.length === 1 ? t("leads", { name: leaders[0] }) : t("share_lead", { names: leaders.join(" & ") })));
    }
  }
  return parts;
}

// How often each seat called Ligretto Stop (complete and waiting rounds).
const callsOf = (local) => local.players.map((_, seat) => local.rounds.filter((r) => r.stacks[seat] === 0).length);

function cards(local, derived, top) {
  const part = copy("players");
  const lastComplete = [...local.rounds].reverse().find((r) => r.middle);
  const calls = callsOf(local);
  for (const card of part.querySelectorAll(".player[data-seat]")) {
    const seat = Number(card.dataset.seat);
    const total = derived.totals[seat];
    const leader = derived.completeRounds > 0 && total === top;
    card.classList.toggle("leader", leader);
    card.querySelector("[data-total]").textContent = fmt(total);
    keepIf(card, "rank", derived.completeRounds > 0);
    fill(card, "rank", t("rank", { rank: derived.ranks[seat] }));
    fill(card, "place", t("place", { rank: derived.ranks[seat] }));
    keepIf(card, "leading", leader);
    if (lastComplete) fill(card, "last-round", t("last_round", { points: signed(rules.points(lastComplete.middle[seat], lastComplete.stacks[seat])) }));
    else card.querySelector('[data-fill="last-round"]')?.remove();
    const toGo = local.mode === "target" && local.target !== null ? Math.max(local.target - total, 0) : 0;
    keepIf(card, "to-go", toGo > 0);
    fill(card, "to-go", t("to_go", { points: toGo }));
    keepIf(card, "calls", calls[seat] > 0);
    fill(card, "calls", tn("calls", calls[seat]));
  }
  return part;
}

function ranking(local, derived) {
  const part = copy("ranking");
  const winners = copy("ranking-winners");
  const list = part.querySelector("ol");
  const calls = callsOf(local);
  // Sorted by place; seats of the same place keep their order (as the server's sort).
  const seats = local.players.map((_, seat) => seat).sort((a, b) => derived.ranks[a] - derived.ranks[b]);
  const items = seats.map((seat) => {
    const winner = derived.winners.includes(local.players[seat]);
    const item = (winner ? winners : part).querySelector(`li[data-seat="${seat}"]`);
    fill(item, "rank", `${derived.ranks[seat]}.`);
    fill(item, "place", t("place", { rank: derived.ranks[seat] }));
    keepIf(item, "calls", calls[seat] > 0);
    fill(item, "calls", tn("calls", calls[seat]));
    fill(item, "score", fmt(derived.totals[seat]));
    return item;
  });
  list.replaceChildren(...items);
  return part;
}

// The status, then the cards or the ranking, in place of the served ones.
export function drawTop(local, derived) {
  const status = document.getElementById("status");
  if (!status) return;
  const top = Math.max(...derived.totals);
  const leaders = derived.completeRounds > 0 ? local.players.filter((_, seat) => derived.totals[seat] === top) : [];
  status.className = `status ${derived.status}`;
  status.replaceChildren(...statusParts(local, derived, leaders, top), copy("unsent-line"));
  while (status.nextSibling) status.nextSibling.remove();
  status.after(showOutcome(local, derived) ? ranking(local, derived) : cards(local, derived, top));
}
