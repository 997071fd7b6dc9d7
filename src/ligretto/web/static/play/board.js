// Drawing the table from the view: the others, the middle and my own cards.
// Only elements are made here; the clicks on them are handled by input.js
// on the stable containers (#middle, #mine).
import { $, T, fmt } from "./page.js";
import { RETURN_MS, placeOf, state } from "./state.js";

const COLOURS = { R: "red", G: "green", B: "blue", Y: "yellow", H: "hearts", D: "diamonds", C: "clubs", S: "spades" };
const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };

function cardEl(text, { source = null, small = false, count = null, label = null } = {}) {
  const el = document.createElement(source ? "button" : "div");
  if (source) {
    el.type = "button";
    el.dataset.source = source;
  }
  el.className = "card" + (small ? " small" : "");
  if (!text) {
    el.classList.add("empty");
    if (label) el.setAttribute("aria-label", label);
    return el;
  }
  const colour = text[0];
  const value = text.slice(1);
  el.classList.add(`c-${colour}`);
  el.dataset.card = text;
  const v = document.createElement("span");
  v.className = "v";
  v.textContent = value === "1" && SUITS[colour] ? "A" : value;
  el.append(v);
  if (SUITS[colour]) {
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SUITS[colour];
    el.append(suit);
  }
  if (count !== null) {
    const badge = document.createElement("span");
    badge.className = "count";
    badge.textContent = count;
    el.append(badge);
  }
  el.setAttribute("aria-label", `${label ? label + ": " : ""}${COLOURS[colour]} ${value}`);
  return el;
}

function backEl(count, source) {
  const el = document.createElement(source ? "button" : "div");
  if (source) {
    el.type = "button";
    el.dataset.source = source;
  }
  el.className = "card back";
  const badge = document.createElement("span");
  badge.className = "count";
  badge.textContent = count;
  el.append(badge);
  return el;
}

export function seatName(i) {
  const s = state.table && state.table.seats[i];
  return s ? s.name : `#${i + 1}`;
}

// Others: what a person at the table sees of them (R3).
function opponentEl(s, v, change) {
  const box = document.createElement("div");
  box.className = `opponent seat-${s.seat % 8}`;
  if (change && change.seat === s.seat) box.classList.add("acted");
  if (v.caller === s.seat) box.classList.add("caller");
  const head = document.createElement("div");
  head.className = "opp-head";
  const name = document.createElement("span");
  name.className = "opp-name";
  name.textContent = seatName(s.seat);
  const info = state.table && state.table.seats[s.seat];
  if (info && info.kind === "human" && !info.connected) {
    box.classList.add("offline");
    name.title = info.away ? T.away : T.offline;
    name.textContent += info.away ? " ⚙" : " …";
  }
  const counts = document.createElement("span");
  counts.className = "opp-counts";
  const handIcon = document.createElement("span");
  handIcon.className = "mini-back";
  const middleIcon = document.createElement("span");
  middleIcon.className = "mini-felt";
  counts.append(handIcon, String(s.hand_count), " ", middleIcon, String(s.middle_count));
  counts.title = `${fmt(T.hand_count, { n: s.hand_count })}, ${fmt(T.middle_count, { n: s.middle_count })}`;
  head.append(name, counts);
  const cards = document.createElement("div");
  cards.className = "opp-cards";
  cards.append(cardEl(s.stack_top, { small: true, count: s.stack_count, label: fmt(T.stack_count, { n: s.stack_count }) }));
  const row = document.createElement("div");
  row.className = "opp-row";
  row.append(...s.row.map((p) => cardEl(p.top, { small: true })));
  const discard = cardEl(s.discard_top, { small: true });
  discard.classList.add("opp-discard");
  cards.append(row, discard);
  box.append(head, cards);
  return box;
}

function renderMiddle(v, before) {
  const middle = $("middle");
  const oldTops = new Map((before ? before.middle : []).map((p) => [p.id, p.top]));
  const piles = v.middle.filter((p) => !p.closed);
  const closed = v.middle.filter((p) => p.closed);
  if (!v.middle.length) {
    const hint = document.createElement("p");
    hint.className = "muted middle-empty";
    hint.textContent = T.empty_middle;
    middle.replaceChildren(hint);
    return;
  }
  middle.replaceChildren(
    ...piles.map((p) => {
      // A pile's size is its top value (R3: ascending from 1), so no badge.
      const el = cardEl(p.top);
      el.classList.add("pile");
      el.dataset.pile = p.id; // a tap on it: input.js
      if (before && oldTops.get(p.id) !== p.top) el.classList.add("landed");
      return el;
    }),
  );
  if (closed.length) {
    const done = document.createElement("div");
    done.className = "closed-piles";
    done.append(
      ...closed.map((p) => {
        const el = cardEl(p.top, { small: true });
        el.classList.add("closed");
        if (before && oldTops.get(p.id) !== p.top) el.classList.add("landed");
        return el;
      }),
    );
    middle.append(done);
  }
}

// My own cards; each place is a button with data-source (a tap on it: input.js).
function renderMine(v) {
  const mine = $("mine");
  const me = v.viewer === null ? null : v.seats[v.viewer];
  mine.hidden = !me;
  if (!me) return;
  $("my-name").textContent = seatName(v.viewer);
  $("my-counts").textContent = `${fmt(T.stack_count, { n: me.stack_count })} · ${fmt(T.middle_count, { n: me.middle_count })}`;
  const playable = new Set(v.actions.map(placeOf));
  const mark = (el) => {
    if (playable.has(el.dataset.source)) el.classList.add("can");
    const back = state.returning;
    if (back && back.source === el.dataset.source && Date.now() < back.until) {
      el.classList.add("returning");
      el.style.animationDelay = `${back.until - RETURN_MS - Date.now()}ms`; // carry on, not restart
    }
    for (const { source } of state.pending.values()) if (source === el.dataset.source) el.classList.add("flying");
    return el;
  };
  $("my-stack").replaceChildren(mark(cardEl(me.stack_top, { source: "stack", count: me.stack_count, label: T.stack_count.replace("{n}", me.stack_count) })));
  $("row-last-key").textContent = me.row.length;
  $("my-row").replaceChildren(
    ...me.row.map((p, i) => {
      const el = mark(cardEl(p.top, { source: `row${i}`, label: p.top ? null : fmt(T.row_empty, { n: i + 1 }) }));
      const key = document.createElement("kbd");
      key.className = "slot-key";
      key.textContent = i + 1;
      el.append(key);
      if (p.depth > 1) el.classList.add("deep");
      return el;
    }),
  );
  $("my-discard").replaceChildren(mark(cardEl(me.discard_top, { source: "discard", count: me.discard_count || null, label: me.discard_top ? null : T.discard_empty })));
  const hand = me.hand_count ? backEl(me.hand_count, "hand") : cardEl(null, { source: "hand" });
  hand.title = me.hand_count ? T.turn : T.recycle;
  hand.setAttribute("aria-label", `${me.hand_count ? T.turn : T.recycle} (${fmt(T.hand_count, { n: me.hand_count })})`);
  if (v.actions.some((a) => a.kind === "turn" || a.kind === "recycle")) hand.classList.add("can");
  $("my-hand").replaceChildren(hand);
}

// `change` ({before, seat}) marks what moved since the view before; null redraws.
export function renderBoard(change) {
  const v = state.view;
  if (!v) return;
  $("others").replaceChildren(...v.seats.filter((s) => s.seat !== v.viewer).map((s) => opponentEl(s, v, change)));
  renderMiddle(v, change && change.before);
  renderMine(v);
}
