// The entry of the offline board: the next round's stacks, the waiting
// round's middle, or a round's correction, as copies of the server's own
// forms (_entry.html) filled from the phone's state.
import * as rules from "../rules.js";
import { S, editBase } from "./state.js";
import { copy, fill, keepIf } from "./templates.js";
import { t } from "./texts.js";

// The caller's note in the middle's row is the game's call, in every language.
const STOP = "Ligretto Stop";

// A copy's form made for round *number*, kept on the phone when saved.
function prepare(panel, number, action) {
  const form = panel.querySelector("form[data-entry]");
  form.dataset.round = String(number);
  form.dataset.local = "1";
  if (action) form.setAttribute("action", `${editBase()}${action}`);
  const token = document.querySelector("form input[name=token]")?.value || S.game.token || "";
  panel.querySelectorAll("input[name=token]").forEach((input) => { input.value = token; });
  panel.querySelectorAll("input[name=version]").forEach((input) => { input.value = ""; });
  panel.querySelectorAll("input[name=round]").forEach((input) => { input.value = String(number); });
  fill(panel, "save-round", t("save_round", { number }));
  return form;
}

// The middle's rows for the stacks of *round* (T3: 0 to the deck minus the stack).
function middleRows(panel, stacks, totals = null) {
  for (const preview of panel.querySelectorAll("output[data-preview=middle]")) {
    const entry = preview.closest("li.entry");
    const seat = Number(entry.dataset.player);
    const stack = stacks[seat];
    entry.classList.toggle("is-caller", stack === 0);
    entry.querySelector(".stack-note").textContent = stack === 0 ? STOP : t("stack_count", { count: stack });
    entry.querySelector("input").max = String(rules.middleLimit(stack));
    preview.dataset.stack = String(stack);
    if (totals) preview.dataset.total = String(totals[seat]);
  }
}

const drawn = (box) => box.dispatchEvent(new CustomEvent("entry-drawn", { bubbles: true }));

export function drawEntry(local, derived) {
  const box = document.getElementById("entry");
  if (!box) return;
  let panel = null;
  if (derived.pending) {
    const number = derived.pending;
    panel = copy("middle");
    prepare(panel, number);
    middleRows(panel, local.rounds[number - 1].stacks, derived.totals);
    const link = panel.querySelector('[data-fill="change-stacks"]');
    link.href = `${editBase()}/rounds/${number}`;
    link.textContent = t("change_stacks", { number });
  } else if (derived.acceptsNewRound) {
    panel = copy("stacks");
    prepare(panel, local.rounds.length + 1);
  }
  const title = panel?.querySelector("#entry-title");
  if (title) title.textContent = t("round", { number: derived.pending || local.rounds.length + 1 });
  box.replaceChildren(...(panel ? [panel] : []));
  drawn(box);
}

// The number of the round whose correction this address asks for
// (/g/{id}/edit/rounds/3, answered offline with the kept board), or null.
export function correctionAsked() {
  const match = /^\/g\/[\w-]+\/edit\/rounds\/(\d+)$/.exec(location.pathname);
  return match && document.getElementById("board-rest") ? Number(match[1]) : null;
}

// Offline, the correction of a round is drawn on the kept board: the
// correction page's form, filled from the phone's state.
export function drawCorrection(local, number) {
  const box = document.getElementById("entry");
  const round = local.rounds[number - 1];
  if (!box || !round) return false;
  const panel = copy("correct");
  prepare(panel, number, `/rounds/${number}`);
  fill(panel, "correct-round", t("correct_round", { number }));
  keepIf(panel, "waiting", !round.middle);
  round.stacks.forEach((stack, seat) => {
    const field = panel.querySelector(`#stack-${seat}`);
    if (field) field.value = String(stack);
    const stop = panel.querySelector(`input[data-stop-for="stack-${seat}"]`);
    if (stop) stop.checked = stack === 0;
    const middle = panel.querySelector(`#middle-${seat}`);
    if (middle) middle.value = round.middle ? String(round.middle[seat]) : "";
  });
  middleRows(panel, round.stacks);
  const parts = [panel];
  if (number === local.rounds.length) {
    const removal = copy("removal");
    prepare(removal, number, `/rounds/${number}/remove`);
    fill(removal, "remove-round", t("remove_round", { number }));
    parts.push(removal);
  }
  box.replaceChildren(...parts);
  drawn(box);
  return true;
}
