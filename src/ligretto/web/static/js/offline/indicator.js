// The honest connection indicator of the edit page: live, offline, rounds
// waiting (being sent), or a conflict to decide; and the board's words on
// what waits, as the connection is now.
import { S } from "./state.js";
import { t } from "./texts.js";

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
