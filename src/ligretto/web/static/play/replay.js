// The replay page of a finished round (docs/online-play.md, "The replay
// page"): plays back the positions the rules engine computed for the round
// (the replay document's route with ?positions=1, ligretto.rules.positions)
// and draws them with the table's own card painter (cards.js). This page
// knows no rule: it steps, plays in real time, follows a seat and shows the
// races. The round is over, so every card is shown face up.
import { cardPainter, initCardTheme, newCard } from "./cards.js";

const $ = (id) => document.getElementById(id);
const root = $("replay");
const T = JSON.parse($("replay-text").textContent);
const fmt = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ""));
const { cardName, paintCard } = cardPainter(T.colours);
const lang = document.documentElement.lang || undefined;
const seconds = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const number = new Intl.NumberFormat(lang);
// A race's margin as the table writes it: "1200 ms", never grouped.
const ms = new Intl.NumberFormat(lang, { useGrouping: false });

let doc = null;
let all = []; // every position: 0 the deal, i the table after action i-1
let at = 0;
let timer = null;
let racesAt = new Map(); // position -> races won by its action

// The engine's answer unfolded: each step replaces the seats' places and
// the piles it names; its action's kind, card and pile come with it.
function unfold(served) {
  let table = served.start;
  const out = [{ table, step: null }];
  for (const step of served.steps) {
    const seats = [...table.seats];
    for (const [s, changed] of step.seats || []) seats[s] = { ...seats[s], ...changed };
    const piles = [...table.piles];
    for (const [p, ...view] of step.piles || []) piles[p] = view;
    table = { seats, piles };
    out.push({ table, step });
  }
  return out;
}

// A seat's name as the table says it: a bot by its number and its style in
// the page's language ("Bot 3 (sharp)").
function seatName(i) {
  const seat = doc.seats[i];
  if (seat.bot && /^Bot \d+ \(/.test(seat.name)) {
    const style = (T.strategies && T.strategies[seat.bot.strategy]) || seat.bot.strategy;
    return fmt(T.bot_name, { n: i + 1, style });
  }
  return seat.name || `#${i + 1}`;
}

function card(text, options) {
  return paintCard(newCard(null), text, options);
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

function describe(i) {
  const step = all[i + 1].step;
  const seat = doc.actions[i].seat;
  const name = seat === null ? "" : seatName(seat);
  const words = { name, card: step.card ? cardName(step.card) : "" };
  const said = { play: T.played, turn: T.turned, recycle: T.recycled, refill: T.refilled, store: T.stored };
  return said[step.kind] ? fmt(said[step.kind], words) : T.stuck;
}

function draw() {
  const { table, step } = all[at];
  const pile = step && step.pile !== undefined ? step.pile : null;
  const follow = $("replay-follow").value;
  const followed = follow === "" ? null : Number(follow);
  root.dataset.position = String(at);
  $("replay-middle").replaceChildren(
    ...table.piles.map(([top, , closed], i) => {
      // Named and drawn as the table draws a pile; its size is its top
      // value (R3: ascending from 1), so no badge.
      const label = fmt(closed ? T.pile_closed : T.pile, { n: number.format(i + 1) });
      const el = card(top, { small: followed !== null, label });
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
      const s = table.seats[i];
      const small = followed !== null && i !== followed;
      const box = document.createElement("div");
      box.className = "replay-seat" + (i === followed ? " followed" : "");
      box.dataset.seat = String(i);
      box.dataset.stack = String(s.stack[1]);
      box.dataset.middle = String(s.middle);
      const head = document.createElement("div");
      head.className = "replay-seat-name";
      head.textContent = seatName(i);
      const cards = document.createElement("div");
      cards.className = "replay-cards";
      const counted = ([top, count], label) => card(top, { small, count, label });
      cards.append(
        place(T.stack, counted(s.stack, T.stack)),
        place(T.row, ...s.row.map((top) => card(top, { small, label: T.row }))),
        place(T.discard, counted(s.discard, T.discard)),
        place(T.hand, counted(s.hand, T.hand)),
      );
      box.append(head, cards);
      return box;
    }),
  );
  const n = doc.actions.length;
  if (at === 0) {
    $("replay-now").textContent = T.deal;
  } else {
    const s = seconds.format(doc.actions[at - 1].t_ms / 1000);
    $("replay-now").textContent = `${fmt(T.action, { i: number.format(at), n: number.format(n) })} · ${fmt(T.at, { s })} · ${describe(at - 1)}`;
  }
  const race = $("replay-race");
  const races = racesAt.get(at) || [];
  race.hidden = !races.length;
  race.textContent = races
    .map((r) => {
      // A tie is told as one: the server took the card that arrived first (R3).
      const words = { winner: seatName(r.refused_by_seat), loser: seatName(r.seat), ms: ms.format(r.margin_ms) };
      return fmt(r.margin_ms === 0 ? T.race_tie : T.race, words);
    })
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
  for (let i = at + 1; i < all.length; i++) {
    if (all[i].step.kind === "play") return go(i);
  }
  go(all.length - 1);
}

function result() {
  const rows = doc.result.seats.map((r) => {
    const tr = document.createElement("tr");
    tr.dataset.seat = String(r.seat);
    for (const value of [seatName(r.seat), ...[r.stack, r.middle, r.points].map((x) => number.format(x))]) {
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
      if (a.seat === race.refused_by_seat && all[i + 1].step.kind === "play") {
        if (best === null || Math.abs(a.t_ms - won) <= Math.abs(doc.actions[best].t_ms - won)) best = i;
      }
    }
    const position = best === null ? 0 : best + 1;
    racesAt.set(position, [...(racesAt.get(position) || []), race]);
  }
}

async function fetchJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

async function start() {
  initCardTheme(root);
  try {
    const src = root.dataset.src;
    const [kept, served] = await Promise.all([fetchJson(src), fetchJson(`${src}?positions=1`)]);
    doc = kept;
    all = unfold(served);
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
