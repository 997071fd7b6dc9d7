// The screen-reader mode's moves: every legal action a button of its own,
// named in words ("Play red 5 from row 2 on pile 3", "Turn three (12 in
// hand)"), in the engine's order: plays, refills, row storage (R6), then
// turning or picking up. Nothing is offered before "Ligretto!" (the server
// would refuse it), and a card already on its way offers nothing more until
// the table has answered, so a second press cannot send it twice.
import { cardName } from "./board.js";
import { play } from "./input.js";
import { $, T, fmt, root } from "./page.js";
import { placeOf, started, state } from "./state.js";

const on = () => root.dataset.reader === "on";

// A pile's number as the table shows it (board.js labels the piles so).
export const pileNumber = (v, id) => v.middle.findIndex((p) => p.id === id) + 1;

// A button's spoken name for an action.
export function actionName(a, v) {
  const me = v.viewer !== null ? v.seats[v.viewer] : null;
  if (a.kind === "turn" || a.kind === "recycle") {
    return `${a.kind === "turn" ? T.turn : T.recycle} (${fmt(T.hand_count, { n: me ? me.hand_count : 0 })})`;
  }
  if (a.kind === "refill") return fmt(T.reader.refill, { n: a.slot + 1 });
  const from =
    a.source === "row" ? fmt(T.reader.from_row, { n: a.slot + 1 }) : a.source === "stack" ? T.reader.from_stack : T.reader.from_discard;
  if (a.kind === "store") return fmt(T.reader.store, { card: cardName(a.card), from, n: a.slot + 1 });
  if (a.kind === "play" && a.pile === null) return fmt(T.reader.play_new, { card: cardName(a.card), from });
  return fmt(T.reader.play_on, { card: cardName(a.card), from, pile: pileNumber(v, a.pile) });
}

export function renderActions() {
  const box = $("reader-actions");
  if (!on()) {
    if (box.childElementCount) box.replaceChildren();
    delete box.dataset.key;
    return;
  }
  const v = state.view;
  const moving = new Set([...state.pending.values()].map((m) => m.source));
  const open = v && v.viewer !== null && !state.takenOver && started();
  const offered = open ? v.actions.filter((a) => !moving.has(placeOf(a))) : [];
  const named = offered.map((a) => [a, actionName(a, v)]);
  const key = named.map(([a, name]) => `${a.text}=${name}`).join("|");
  if (box.dataset.key === key) return; // unchanged: keep the focus where it is
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.action : null;
  box.dataset.key = key;
  box.replaceChildren(
    ...named.map(([a, name]) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "small";
      b.dataset.action = a.text;
      b.textContent = name;
      b.addEventListener("click", () => {
        play(a, placeOf(a));
        renderActions();
      });
      return b;
    }),
  );
  const again = focused && [...box.children].find((b) => b.dataset.action === focused);
  if (again) again.focus();
  else if (focused && box.firstElementChild) box.firstElementChild.focus();
  else if (focused) box.focus(); // nothing to do for now: the focus stays in the moves
}
