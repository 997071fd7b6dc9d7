// The screen-reader mode: a live region (#announce, aria-live="polite")
// that says what changed on the table, in the page's language. Turned on
// with the "Screen reader" toggle in the table's tools and remembered in
// this browser. A four-bot table moves several times a second, so the
// sentences are merged and spoken at most once per GAP_MS; the level
// setting chooses how much is said (my cards only, piles I can use, all).
import { afterRender, cardName, seatName } from "./board.js";
import { play } from "./input.js";
import { $, T, fmt, root } from "./page.js";
import { placeOf, state } from "./state.js";

const KEY = "ligretto.play.reader";
const LEVEL_KEY = "ligretto.play.reader-level";
const GAP_MS = 1500;

let queue = [];
let timer = null;
let last = 0;

const on = () => root.dataset.reader === "on";
const level = () => localStorage.getItem(LEVEL_KEY) || "usable";

// Queue a sentence; a burst of them is spoken as one, once per GAP_MS.
export function announce(text) {
  if (!on() || !text) return;
  queue.push(text);
  if (timer) return;
  // Busy while a sentence waits for its turn (ARIA: the region is being
  // updated), so nothing reads half of a merge.
  $("announce").setAttribute("aria-busy", "true");
  const wait = Math.max(0, last + GAP_MS - Date.now());
  timer = setTimeout(flush, wait);
}

function flush() {
  timer = null;
  last = Date.now();
  const text = queue.join(" ");
  queue = [];
  $("announce").textContent = text;
  $("announce").setAttribute("aria-busy", "false");
}

// What my seat shows: stack top, row, discard top.
export function describeMine(v) {
  const me = v && v.viewer !== null ? v.seats[v.viewer] : null;
  if (!me) return "";
  const row = me.row.map((p) => (p && p.top ? cardName(p.top) : T.reader.empty)).join(", ");
  return fmt(T.reader.mine, {
    stack: me.stack_top ? cardName(me.stack_top) : T.reader.empty,
    row,
    discard: me.discard_top ? cardName(me.discard_top) : T.reader.empty,
  });
}

// After each new view: what changed, said as much as the level asks for.
export function announceChange(v, change) {
  if (!on() || !v || !change || !change.before) return;
  const before = change.before;
  const me = v.viewer !== null ? v.seats[v.viewer] : null;
  const oldTops = new Map(before.middle.map((p) => [p.id, p.top]));
  const usable = new Set(v.actions.filter((a) => a.kind === "play" && a.pile !== null).map((a) => a.pile));
  const mine = change.seat !== undefined && change.seat !== null && change.seat === v.viewer;
  const who = change.seat !== undefined && change.seat !== null ? seatName(change.seat) : "";
  for (const p of v.middle) {
    if (oldTops.get(p.id) === p.top || !p.top) continue;
    const wanted = mine || level() === "all" || (level() === "usable" && usable.has(p.id));
    if (!wanted) continue;
    const n = v.middle.indexOf(p) + 1;
    announce(fmt(mine ? T.reader.you_played : T.reader.played, { name: who, card: cardName(p.top), pile: n }));
  }
  if (me && before.viewer === v.viewer) {
    const old = before.seats[v.viewer];
    if (old && (old.stack_top !== me.stack_top || old.discard_top !== me.discard_top || JSON.stringify(old.row) !== JSON.stringify(me.row))) {
      announce(describeMine(v));
    }
  }
}

// A button's spoken name for an action: "Play red 5 from row 2 on pile 3",
// "Fill row place 2 from the stack", "Turn three (12 in hand)".
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
  const n = v.middle.findIndex((p) => p.id === a.pile) + 1;
  return fmt(T.reader.play_on, { card: cardName(a.card), from, pile: n });
}

export function initReader() {
  const button = $("reader-toggle");
  const choices = [...$("reader-level").querySelectorAll("input[type=radio]")];
  const show = () => {
    const active = localStorage.getItem(KEY) === "on";
    root.dataset.reader = active ? "on" : "off";
    button.setAttribute("aria-pressed", String(active));
    $("reader-tools").hidden = !active;
    // The practice hint changes with every view: in this mode the moves
    // below and the announcements say what it says, so it is not spoken.
    $("hint").setAttribute("aria-live", active ? "off" : "polite");
    renderActions();
  };
  show();
  for (const choice of choices) choice.checked = choice.value === level();
  button.addEventListener("click", () => {
    localStorage.setItem(KEY, on() ? "off" : "on");
    show();
    if (on()) announce(describeMine(state.view));
  });
  afterRender(renderActions);
  for (const choice of choices) {
    choice.addEventListener("change", () => {
      if (choice.checked) localStorage.setItem(LEVEL_KEY, choice.value);
    });
  }
}

// The round's end: who called Ligretto Stop (R4) and my points (R5).
export function announceRound(m) {
  const v = state.view;
  const lines = [m.caller !== null ? fmt(T.stop_by, { name: seatName(m.caller) }) : T.deadlock];
  if (v && v.viewer !== null && m.points) lines.push(fmt(T.reader.points, { points: m.points[v.viewer], total: m.totals[v.viewer] }));
  announce(lines.join(" "));
}

// In the screen-reader mode every legal action is a button of its own,
// named in words ("Play red 5 from row 2 on pile 3", "Turn three (12 in
// hand)"), in the engine's order: plays, refills, row storage (R6), then
// turning or picking up. A card already on its way offers nothing more until
// the table has answered, so a second press cannot send it twice.
export function renderActions() {
  const box = $("reader-actions");
  if (!on()) {
    if (box.childElementCount) box.replaceChildren();
    delete box.dataset.key;
    return;
  }
  const v = state.view;
  const moving = new Set([...state.pending.values()].map((m) => m.source));
  const offered = v && v.viewer !== null && !state.takenOver ? v.actions.filter((a) => !moving.has(placeOf(a))) : [];
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
