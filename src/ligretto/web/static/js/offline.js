// Offline-first entry on the edit page (docs/tafel-guide.md, "Scoring
// without a network").
//
// Every round saved while rounds wait, or while the server cannot be
// reached, goes into the phone's outbox (IndexedDB, outbox.js) and shows in
// the table at once, marked "not sent yet", with points, totals and the
// outcome computed by the phone's copy of the rules (rules.js). When the
// server answers again, the entries are sent in order, each with the game
// version it builds on (If-Match). If another phone changed the game
// meanwhile, the server refuses (409) and the scorekeeper decides: both
// versions are shown, nothing is overwritten and nothing is dropped unasked.
// Corrections and removals of rounds made offline wait in the same outbox
// ("correct", "remove"), in the same order. An entry just kept can be taken
// back with Undo (undo.js) while it is still on the phone.
//
// The board is drawn from copies of the server's own pieces (<template>
// elements of the page), never from markup of the script's own:
//   offline/state.js      the session and the phone's state of the game
//   offline/texts.js      the page's words and numbers
//   offline/templates.js  copying and filling the server's pieces
//   offline/indicator.js  the connection indicator
//   offline/view.js       status, cards and ranking
//   offline/table.js      the rounds table
//   offline/entry.js      the entry forms and the correction
//   offline/draw.js       the whole board, redrawn
//   offline/keep.js       checking and keeping an entry, its Undo
//   offline/sync.js       sending what waits, in order
//   offline/conflict.js   deciding a conflict
import { showIndicator, showSettled } from "./offline/indicator.js";
import { redraw } from "./offline/draw.js";
import { S } from "./offline/state.js";
import { sync } from "./offline/sync.js";

export { keep, offerKeptUndo } from "./offline/keep.js";
export { redraw, sync };

export function setConnected(value) {
  S.connected = value && navigator.onLine;
  showIndicator();
  if (S.connected) sync();
}
window.addEventListener("online", () => setConnected(true));
window.addEventListener("offline", () => setConnected(false));

export const waiting = () => S.entries.length > 0;

export function start(id, token) {
  S.game = { id, token };
  showIndicator();
  return redraw().then(() => {
    showSettled(); // a conflict settled before this page: what the board kept
    if (navigator.onLine) sync();
  });
}
