// The replay page of a finished round (docs/online-play.md, "The replay
// page"): fetches the round's one JSON document and replays it here, so
// stepping never reloads. The applier below follows the action grammar the
// document's readers are given (play / turn / recycle / refill / store /
// stuck, R3-R6); the deal and the shuffles give every card, so the whole
// table is shown face up -- the round is over.

const $ = (id) => document.getElementById(id);
const root = $("replay");
const T = JSON.parse($("replay-text").textContent);
const fmt = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ""));
const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };
const SYMBOLS = new Map();
for (const box of $("card-symbols") ? $("card-symbols").content.children : []) SYMBOLS.set(box.dataset.colour, box.firstElementChild);
const PACKET = 3; // R3: three hand cards are turned together

// ---- the applier -------------------------------------------------------

// The table as dealt (R2): per seat its stack (bottom to top), row cells
// (each a pile, R6 storage puts cards on top), discard and hand (bottom to
// top), and the middle piles (each a list of [card, seat]).
export function dealt(doc) {
  return {
    seats: doc.deal.map((d) => ({
      stack: [...d.stack],
      row: d.row.map((c) => (c ? [c] : [])),
      discard: [],
      hand: [...d.hand],
      middle: 0,
    })),
    piles: [],
  };
}

function copy(state) {
  return {
    seats: state.seats.map((s) => ({
      stack: [...s.stack],
      row: s.row.map((c) => [...c]),
      discard: [...s.discard],
      hand: [...s.hand],
      middle: s.middle,
    })),
    piles: state.piles.map((p) => [...p]),
  };
}

function take(seat, src) {
  if (src === "stack") return seat.stack.pop();
  if (src === "discard") return seat.discard.pop();
  const m = /^row(\d+)$/.exec(src);
  if (!m) throw new Error(`unknown place ${src}`);
  return seat.row[Number(m[1])].pop();
}

// Apply action `index` of the document to `state` (in place); returns the
// middle pile it played onto, if any.
export function apply(doc, state, index) {
  const { seat: s, action } = doc.actions[index];
  const words = action.split(" ");
  let pile = null;
  if (words[0] === "play") {
    const seat = state.seats[s];
    const card = take(seat, words[2]);
    if (card !== words[1]) throw new Error(`action ${index}: ${words[1]} is not at ${words[2]}`);
    if (words[3] === "new") {
      pile = state.piles.length;
      state.piles.push([[card, s]]);
    } else {
      pile = Number(words[3].slice(1));
      state.piles[pile].push([card, s]);
    }
    seat.middle += 1;
    const m = /^row(\d+)$/.exec(words[2]);
    if (m && doc.options.row_refill === "auto" && !seat.row[Number(m[1])].length && seat.stack.length) {
      seat.row[Number(m[1])].push(seat.stack.pop());
    }
  } else if (words[0] === "turn") {
    const seat = state.seats[s];
    const k = Math.min(PACKET, seat.hand.length);
    // The packet is flipped as one: its third card ends on top.
    seat.discard.push(...seat.hand.splice(seat.hand.length - k, k).reverse());
  } else if (words[0] === "recycle") {
    const seat = state.seats[s];
    seat.hand = seat.discard.reverse(); // shuffled ones come from `shuffles`
    seat.discard = [];
  } else if (words[0] === "refill") {
    const seat = state.seats[s];
    seat.row[Number(words[1].slice(3))].push(seat.stack.pop());
  } else if (words[0] === "store") {
    const seat = state.seats[s];
    const card = take(seat, words[2]);
    seat.row[Number(words[3].slice(3))].push(card);
  } else if (words[0] !== "stuck") {
    throw new Error(`unknown action ${action}`);
  }
  for (const shuffle of doc.shuffles || []) {
    if (shuffle.after === index) {
      state.seats[shuffle.seat].hand = [...shuffle.hand];
      state.seats[shuffle.seat].discard = [];
    }
  }
  return pile;
}

// Every position of the round: 0 is the deal, i the table after action i-1.
export function positions(doc) {
  let state = dealt(doc);
  const out = [{ state, pile: null }];
  for (let i = 0; i < doc.actions.length; i++) {
    state = copy(state);
    const pile = apply(doc, state, i);
    out.push({ state, pile });
  }
  return out;
}

// ---- drawing -----------------------------------------------------------

function card(text, { small = false, count = null, label = "" } = {}) {
  const el = document.createElement("div");
  el.className = "card" + (small ? " small" : "");
  if (!text) {
    el.classList.add("empty");
    if (label) el.setAttribute("aria-label", label);
  } else {
    el.classList.add(`c-${text[0]}`);
    el.dataset.card = text;
    const symbol = SYMBOLS.get(text[0]);
    if (symbol) el.append(symbol.cloneNode(true));
    const v = document.createElement("span");
    v.className = "v";
    v.textContent = text.slice(1) === "1" && SUITS[text[0]] ? "A" : text.slice(1);
    el.append(v);
    el.setAttribute("aria-label", `${label ? label + ": " : ""}${text}`);
  }
  if (count !== null) {
    const badge = document.createElement("span");
    badge.className = "count";
    badge.textContent = count;
    el.append(badge);
  }
  el.setAttribute("role", "img");
  return el;
}

function place(title, ...cards) {
  const box = document.createElement("div");
  box.className = "replay-place";
  const label = document.createElement("div");
  label.className = "place-label";
  label.textContent = title;
  box.append(label, ...cards);
  return box;
}

let doc = null;
let all = [];
let at = 0;
let timer = null;
let racesAt = new Map(); // position -> races won by its action

function seatName(i) {
  return doc.seats[i].name; // a bot's name says it is one
}

function describe(i) {
  const { seat, action } = doc.actions[i];
  const w = action.split(" ");
  const name = seat === null ? "" : seatName(seat);
  if (w[0] === "play") return fmt(T.played, { name, card: w[1] });
  if (w[0] === "turn") return fmt(T.turned, { name });
  if (w[0] === "recycle") return fmt(T.recycled, { name });
  if (w[0] === "refill") return fmt(T.refilled, { name });
  if (w[0] === "store") return fmt(T.stored, { name, card: w[1] });
  return T.stuck;
}

function draw() {
  const { state, pile } = all[at];
  const follow = $("replay-follow").value;
  const followed = follow === "" ? null : Number(follow);
  root.dataset.position = String(at);
  const middle = $("replay-middle");
  middle.replaceChildren(
    ...state.piles.map((p, i) => {
      const el = card(p[p.length - 1][0], { small: followed !== null, count: p.length });
      el.dataset.pile = String(i);
      if (i === pile) el.classList.add("landed");
      if (i === pile && racesAt.has(at)) el.classList.add("race-won");
      return el;
    }),
  );
  const order = doc.seats.map((_, i) => i);
  if (followed !== null) order.sort((a, b) => (a === followed ? -1 : b === followed ? 1 : a - b));
  $("replay-seats").replaceChildren(
    ...order.map((i) => {
      const s = state.seats[i];
      const small = followed !== null && i !== followed;
      const box = document.createElement("div");
      box.className = "replay-seat" + (i === followed ? " followed" : "");
      box.dataset.seat = String(i);
      box.dataset.stack = String(s.stack.length);
      box.dataset.middle = String(s.middle);
      const head = document.createElement("div");
      head.className = "replay-seat-name";
      head.textContent = seatName(i);
      const cards = document.createElement("div");
      cards.className = "replay-cards";
      cards.append(
        place(T.stack, card(s.stack[s.stack.length - 1], { small, count: s.stack.length, label: T.stack })),
        place(T.row, ...s.row.map((c) => card(c[c.length - 1], { small, label: T.row }))),
        place(T.discard, card(s.discard[s.discard.length - 1], { small, count: s.discard.length, label: T.discard })),
        place(T.hand, card(s.hand[s.hand.length - 1], { small, count: s.hand.length, label: T.hand })),
      );
      box.append(head, cards);
      return box;
    }),
  );
  const n = doc.actions.length;
  if (at === 0) {
    $("replay-now").textContent = T.deal;
  } else {
    const t = (doc.actions[at - 1].t_ms / 1000).toFixed(1);
    $("replay-now").textContent = `${fmt(T.action, { i: at, n })} · ${fmt(T.at, { s: t })} · ${describe(at - 1)}`;
  }
  const race = $("replay-race");
  const races = racesAt.get(at) || [];
  race.hidden = !races.length;
  race.textContent = races
    .map((r) => fmt(T.race, { winner: seatName(r.refused_by_seat), loser: seatName(r.seat), ms: r.margin_ms }))
    .join(" ");
  $("replay-result").hidden = at !== n;
  $("replay-back").disabled = $("replay-start").disabled = at === 0;
  $("replay-step").disabled = $("replay-end").disabled = $("replay-next-play").disabled = at === n;
}

function go(position) {
  at = Math.max(0, Math.min(all.length - 1, position));
  draw();
  if (at === all.length - 1) pause();
}

function playing() {
  return timer !== null;
}

function pause() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  const button = $("replay-play");
  button.setAttribute("aria-pressed", "false");
  button.setAttribute("aria-label", T.play);
  button.title = T.play;
  button.firstChild.textContent = "▶ ";
}

// Real time: the next action comes after the gap between the two play
// times, divided by the speed.
function schedule() {
  if (at >= all.length - 1) return pause();
  const now = at === 0 ? 0 : doc.actions[at - 1].t_ms;
  const gap = Math.max(0, doc.actions[at].t_ms - now) / Number($("replay-speed").value);
  timer = setTimeout(() => {
    go(at + 1);
    if (playing()) schedule();
  }, gap);
}

function play() {
  if (at >= all.length - 1) go(0);
  const button = $("replay-play");
  button.setAttribute("aria-pressed", "true");
  button.setAttribute("aria-label", T.pause);
  button.title = T.pause;
  button.firstChild.textContent = "⏸ ";
  timer = -1;
  schedule();
}

function toggle() {
  if (playing()) pause();
  else play();
}

function nextPlay() {
  for (let i = at; i < doc.actions.length; i++) {
    if (doc.actions[i].action.startsWith("play ")) return go(i + 1);
  }
  go(all.length - 1);
}

function result() {
  const rows = doc.result.seats.map((r) => {
    const tr = document.createElement("tr");
    tr.dataset.seat = String(r.seat);
    for (const value of [seatName(r.seat), r.stack, r.middle, r.points]) {
      const td = document.createElement("td");
      td.textContent = value;
      tr.append(td);
    }
    return tr;
  });
  $("replay-result-rows").replaceChildren(...rows);
}

// A lost race is shown at the winning play: the winner's action played
// margin_ms before the refused one.
function placeRaces() {
  racesAt = new Map();
  for (const race of doc.races || []) {
    const won = race.t_ms - race.margin_ms;
    let best = null;
    for (let i = 0; i < doc.actions.length; i++) {
      const a = doc.actions[i];
      if (a.t_ms > race.t_ms) break;
      if (a.seat === race.refused_by_seat && a.action.startsWith("play ")) {
        if (best === null || Math.abs(a.t_ms - won) <= Math.abs(doc.actions[best].t_ms - won)) best = i;
      }
    }
    const position = best === null ? 0 : best + 1;
    racesAt.set(position, [...(racesAt.get(position) || []), race]);
  }
}

async function start() {
  try {
    const response = await fetch(root.dataset.src, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(String(response.status));
    doc = await response.json();
    all = positions(doc);
  } catch (error) {
    $("replay-status").textContent = T.failed;
    return;
  }
  $("replay-status").hidden = true;
  $("replay-controls").hidden = false;
  const follow = $("replay-follow");
  doc.seats.forEach((_, i) => follow.append(new Option(seatName(i), String(i))));
  placeRaces();
  result();
  $("replay-start").addEventListener("click", () => go(0));
  $("replay-back").addEventListener("click", () => go(at - 1));
  $("replay-step").addEventListener("click", () => go(at + 1));
  $("replay-next-play").addEventListener("click", nextPlay);
  $("replay-end").addEventListener("click", () => go(all.length - 1));
  $("replay-play").addEventListener("click", toggle);
  follow.addEventListener("change", draw);
  $("replay-speed").addEventListener("change", () => {
    if (playing()) {
      clearTimeout(timer);
      schedule();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
    if (event.key === " " && !(event.target instanceof HTMLButtonElement)) {
      event.preventDefault();
      toggle();
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      go(at - 1);
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      go(at + 1);
    }
  });
  root.dataset.ready = "1";
  draw();
}

start();
