// The honest connection indicator of the edit page: live, offline, rounds
// waiting (being sent), or a conflict to decide; the board's words on what
// waits, as the connection is now; and, once a conflict is settled and all
// of the choice has landed, what the board kept (conflict.js decides).
import { S } from "./state.js";
import { copy, fill } from "./templates.js";
import { t, tn } from "./texts.js";

const live = document.getElementById("live");

export function showIndicator() {
  if (!live) return;
  const waiting = new Set(S.entries.map((e) => e.round)).size;
  let state;
  let text;
  if (S.conflict || S.refused) { state = "conflict"; text = t("conflict"); }
  else if (waiting) {
    state = S.sending ? "sending" : "waiting";
    text = waiting === 1 ? t("waiting_one") : t("waiting", { count: waiting });
    if (!S.connected) text += ` · ${live.dataset.offline}`;
  } else if (!navigator.onLine || !S.connected) { state = "offline"; text = live.dataset.offline; }
  else { state = "live"; text = live.dataset.live; }
  live.dataset.state = state;
  live.textContent = text;
  // The words under the board and in a conflict follow the connection too:
  // "sent when the connection is back" only while it is not.
  const offline = !navigator.onLine || !S.connected;
  const kept = S.conflict ? "kept_conflict" : offline ? "kept" : "kept_sending";
  document.querySelectorAll(".unsent-line").forEach((line) => { line.textContent = t(kept); });
  document.querySelectorAll("[data-conflict-offline]").forEach((note) => { note.hidden = !offline; });
}

// What the board says once a conflict is settled: kept on the phone over
// the reloads until everything chosen has landed. *shown* holds the round
// numbers of the conflict as drawn (theirs, mine, both phones'); the new
// rounds of the server's board (after its *count*) in *plan* are mine
// following theirs.
const SETTLED = "ligretto.settled.";

export function rememberSettled(action, shown, plan, count) {
  const added = [...new Set(plan.filter((e) => e.kind === "stacks" && e.round > count).map((e) => e.round))];
  const note = { theirs: [], mine: [], clash: [], ...shown, action, added };
  try { sessionStorage.setItem(SETTLED + S.game.id, JSON.stringify(note)); } catch { /* shown nothing then */ }
}

const sentence = (key, rounds) => (rounds.length ? tn(key, rounds.length, { rounds: rounds.join(", ") }) : "");

// The confirmation of the choice made, once nothing of it waits any more.
export function showSettled() {
  const panel = document.getElementById("sync");
  if (!panel || !S.game || S.entries.length || S.conflict || S.refused) return;
  let note = null;
  try { note = JSON.parse(sessionStorage.getItem(SETTLED + S.game.id) || "null"); } catch { note = null; }
  if (!note) return;
  try { sessionStorage.removeItem(SETTLED + S.game.id); } catch { /* read once anyway */ }
  let parts;
  if (note.action === "keep-mine") {
    parts = [sentence("kept_mine", note.mine), sentence("dropped_theirs", note.clash)];
  } else if (note.action === "keep-theirs") {
    parts = [sentence("kept_theirs", note.theirs), sentence("dropped_mine", note.mine)];
  } else {
    parts = [sentence("kept_theirs", note.theirs), sentence("added_mine", note.added.length ? note.added : note.mine)];
  }
  const part = copy("settled");
  fill(part, "settled", parts.filter(Boolean).join(" "));
  panel.classList.add("settled");
  panel.hidden = false;
  panel.replaceChildren(part);
}
