// The whole offline board: the server's game with what waits on the phone,
// drawn over the served board (top, rounds, entry) and redrawn after each
// change; a correction asked for offline is drawn on the kept board.
import * as outbox from "../outbox.js";
import * as rules from "../rules.js";
import { drawPanel } from "./conflict.js";
import { correctionAsked, drawCorrection, drawEntry } from "./entry.js";
import { showIndicator } from "./indicator.js";
import { S, apply, baseState, editBase, waitingBase } from "./state.js";
import { drawTable } from "./table.js";
import { drawTop } from "./view.js";

function drawBoard({ local, unsent }) {
  const derived = rules.derive(local);
  drawTop(local, derived);
  drawTable(local, derived, unsent);
  drawEntry(local, derived);
  // "Round 3 saved." of the page as it was served no longer tells the state.
  document.querySelectorAll(".message.ok.notice").forEach((notice) => { notice.hidden = true; });
  // The winner moment (_board_end.html) is the server's alone: the next served board brings it back.
  document.getElementById("board-end")?.replaceChildren();
}

export async function redraw() {
  const base = baseState();
  if (!base || !S.game) return;
  S.entries = await outbox.pending(S.game.id);
  showIndicator();
  const asked = correctionAsked();
  if (!S.entries.length && asked === null) return;
  // On the game the entries were kept on, not on a live update's (conflict.js decides).
  const view = apply(waitingBase(S.entries), S.entries);
  if (S.entries.length) drawBoard(view);
  if (asked !== null && !drawCorrection(view.local, asked)) {
    history.replaceState(history.state, "", editBase());
  }
  drawPanel();
}
