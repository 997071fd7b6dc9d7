// The rounds table of the offline board, as the server draws it
// (_board_rest.html, pages/cells.py): a row per round, or from seven
// players turned, a row per player; rounds not sent yet are marked.
import * as rules from "../rules.js";
import { editBase } from "./state.js";
import { copy, first, keepIf } from "./templates.js";
import { fmt, readJson, t } from "./texts.js";

// One cell: points and running total, or the stack while the middle waits.
function cell(round, after, seat) {
  const caller = round.stacks[seat] === 0;
  const td = first(round.middle ? "cell" : "pending-cell");
  if (round.middle) {
    const p = rules.points(round.middle[seat], round.stacks[seat]);
    td.setAttribute("class", (caller ? "caller" : "") + (p < 0 ? " neg" : ""));
    td.querySelector(".pts").textContent = fmt(p);
    td.querySelector(".sum").textContent = fmt(after[seat]);
  } else {
    td.setAttribute("class", caller ? "caller" : "");
    td.querySelector(".sum").textContent = t("stack_count", { count: round.stacks[seat] });
  }
  if (!caller) td.querySelector(".visually-hidden")?.remove();
  return td;
}

// The replay page of each round an online table kept (the server's, by number).
const replays = () => readJson("game-state")?.replays || {};

// The round number's link to its correction, its replay's (an online
// game's round, as the server draws it: pages/cells.py), and "not sent
// yet" if so.
function numbered(head, number, unsent, kept) {
  const link = head.querySelector("a.round-link");
  if (link) {
    link.href = `${editBase()}/rounds/${number}`;
    link.setAttribute("aria-label", t("correct_round", { number }));
    link.textContent = String(number);
  }
  const replay = kept[String(number)];
  if (replay && !unsent.has(number)) {
    const a = first("replay-link");
    if (a) {
      a.href = replay;
      a.setAttribute("aria-label", t("replay_round", { number }));
      a.title = t("replay_round", { number });
      head.append(" ", a);
    }
  }
  if (unsent.has(number)) head.append(copy("unsent-badge"));
}

function rowsByRound(table, local, derived, unsent) {
  const body = table.tBodies[0];
  const kept = replays();
  local.rounds.forEach((round, index) => {
    const number = index + 1;
    const row = copy("row").querySelector("tr");
    const classes = [round.middle ? "" : "pending", unsent.has(number) ? "unsent" : ""].join(" ").trim();
    if (classes) row.className = classes;
    else row.removeAttribute("class");
    numbered(row.querySelector("th"), number, unsent, kept);
    row.append(...local.players.map((_, seat) => cell(round, derived.running[index], seat)));
    body.append(row);
  });
}

function rowsByPlayer(table, local, derived, unsent) {
  const sum = table.tHead.querySelector(".sum-col");
  const kept = replays();
  local.rounds.forEach((round, index) => {
    const head = copy("round-head").querySelector("th");
    if (unsent.has(index + 1)) head.classList.add("unsent");
    numbered(head, index + 1, unsent, kept);
    sum.before(head);
  });
  [...table.tBodies[0].rows].forEach((row, seat) => {
    const total = row.querySelector("td.sum-col");
    total.before(...local.rounds.map((round, index) => cell(round, derived.running[index], seat)));
  });
}

// Everything after the heading "Rounds" anew (the served chart goes too:
// its lines are the server's rounds, not the phone's).
export function drawTable(local, derived, unsent) {
  const title = document.getElementById("rounds-title");
  if (!title) return;
  while (title.nextSibling) title.nextSibling.remove();
  if (!local.rounds.length) { title.after(copy("no-rounds")); return; }
  const frame = copy("rounds");
  const table = frame.querySelector("table");
  if (table.classList.contains("transposed")) rowsByPlayer(table, local, derived, unsent);
  else rowsByRound(table, local, derived, unsent);
  frame.querySelectorAll('[data-fill="total"]').forEach((el, seat) => { el.textContent = fmt(derived.totals[seat]); });
  const legend = copy("rounds-legend");
  keepIf(legend, "pending", Boolean(derived.pending));
  title.after(frame, legend);
}
