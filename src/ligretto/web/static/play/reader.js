// The screen-reader mode: what changed for this player, in a few words, in
// the page's language ("Anna: red 5 on pile 2. You can: yellow 3."), said
// by the announcer (announcer.js: merged, paced to speech, stale news
// dropped); the whole table only when asked ("Where am I?", the W key). On
// with the "Screen reader" toggle in the table's tools, remembered in this
// browser. "Announce" chooses whose plays are news:
//   mine    my own plays, what came up in my places, what I can play now;
//   usable  also the others' plays on a pile I could use or can use now
//           (the first choice);
//   all     every play.
import { RANK, clearPending, forget, pendingData, say, sayNow } from "./announcer.js";
import { afterRender, cardName, seatName } from "./board.js";
import { onHint } from "./input.js";
import { $, T, fmt, root } from "./page.js";
import { pileNumber, renderActions } from "./reader_moves.js";
import { stopLine } from "./scores.js";
import { state } from "./state.js";

const KEY = "ligretto.play.reader";
const LEVEL_KEY = "ligretto.play.reader-level";

const on = () => root.dataset.reader === "on";
const level = () => localStorage.getItem(LEVEL_KEY) || "usable";
const practice = () => root.dataset.practice === "1";
const name = (card) => (card ? cardName(card) : T.reader.empty);

// The cards I can play to the middle in a view, and the piles they go to.
const playable = (v) => new Set(v.actions.filter((a) => a.kind === "play").map((a) => a.card));
const usablePiles = (v) => new Set(v.actions.filter((a) => a.kind === "play" && a.pile !== null).map((a) => a.pile));

// "You can: yellow 3." for the cards that fit now and did not before,
// merged with what waits to be said of it (still fitting) — the practice
// round's hint says the same, so it is not said there.
function sayPlayable(v, fresh, news) {
  if (practice()) return;
  const now = playable(v);
  const waiting = pendingData("can");
  const kept = waiting ? waiting.cards.filter((c) => now.has(c)) : [];
  const cards = [...kept, ...fresh.filter((c) => !kept.includes(c))];
  if (!cards.length) return forget("can");
  const since = kept.length ? waiting.news : news;
  say("can", fmt(T.reader.can, { cards: cards.map(cardName).join(", ") }), { ...since, rank: RANK.can, data: { cards, news: since } });
}

// My places after a move: only the ones that changed.
function sayMyPlaces(old, me, news) {
  const opts = { ...news, rank: RANK.mine };
  // The row first: a row card played is replaced by the stack's top (R3),
  // which the stack's new top then follows.
  me.row.forEach((p, i) => {
    const was = old.row[i] ? old.row[i].top : null;
    if (was !== p.top) say(`row${i}`, fmt(T.reader.row_now, { n: i + 1, card: name(p.top) }), opts);
  });
  if (old.stack_top !== me.stack_top) say("stack", fmt(T.reader.stack_now, { card: name(me.stack_top) }), opts);
  if (old.discard_top !== me.discard_top) say("discard", fmt(T.reader.discard_now, { card: name(me.discard_top) }), opts);
}

// After each accepted move (`change`: {before, seat, seq}): what it changed
// for me, as much as the level asks for.
export function announceChange(v, change) {
  if (!on() || !v || !change || !change.before || v.viewer === null || change.before.viewer !== v.viewer) return;
  const before = change.before;
  const news = { reports: `seq:${change.seq}`, at: Date.now() };
  const mine = change.seat === v.viewer;
  const oldTops = new Map(before.middle.map((p) => [p.id, p.top]));
  const could = usablePiles(before);
  const can = usablePiles(v);
  for (const p of v.middle) {
    if (oldTops.get(p.id) === p.top || !p.top) continue;
    const pile = pileNumber(v, p.id);
    if (mine) {
      // My newest play is the news; an earlier one of mine that waited is not.
      say("played", fmt(T.reader.you_played, { card: cardName(p.top), pile }), { ...news, rank: RANK.played });
    } else if (level() === "all" || (level() === "usable" && (could.has(p.id) || can.has(p.id)))) {
      const who = change.seat !== null && change.seat !== undefined ? seatName(change.seat) : "";
      say(`pile${p.id}`, fmt(T.reader.played, { name: who, card: cardName(p.top), pile }), news);
    }
  }
  const me = v.seats[v.viewer];
  const old = before.seats[v.viewer];
  // What an earlier move of mine changed in my places and is still unsaid
  // is no news either: said together, several of my moves would name every
  // place I have, the whole state nobody asked for ("Where am I?" says it).
  if (mine && me) {
    me.row.forEach((_, i) => forget(`row${i}`));
    forget("stack");
    forget("discard");
  }
  if (me && old) sayMyPlaces(old, me, news);
  const had = playable(before);
  sayPlayable(v, [...playable(v)].filter((c) => !had.has(c)), news);
}

// "Ligretto!" (the table's "playing"): what I can play from the start.
export function announceStart(roundNo) {
  const v = state.view;
  if (!on() || !v || v.viewer === null) return;
  sayPlayable(v, [...playable(v)], { reports: `go:${roundNo}`, at: Date.now() });
}

// The practice round's hint, when it says something new (input.js).
export function announceHint(text) {
  if (!on() || !text) return;
  say("hint", text, { ...state.news, rank: RANK.hint });
}

// The round's end: who called Ligretto Stop (R4) and my points (R5). What
// waited about the round is no news any more.
export function announceRound(m) {
  if (!on()) return;
  const v = state.view;
  const lines = [stopLine(m)];
  if (v && v.viewer !== null && m.points) lines.push(fmt(T.reader.points, { points: m.points[v.viewer], total: m.totals[v.viewer] }));
  sayNow(lines.join(" "), `round:${m.round_no}`);
}

// "Where am I?": my cards, the piles, the others' stacks, what I can play.
export function whereAmI(v) {
  const me = v && v.viewer !== null ? v.seats[v.viewer] : null;
  if (!me) return T.watching;
  const parts = [
    fmt(T.reader.where_mine, {
      stack: name(me.stack_top),
      n: me.stack_count,
      row: me.row.map((p) => name(p.top)).join(", "),
      discard: name(me.discard_top),
      hand: me.hand_count,
    }),
  ];
  const open = v.middle.filter((p) => !p.closed);
  parts.push(
    open.length
      ? fmt(T.reader.where_piles, { piles: open.map((p) => `${pileNumber(v, p.id)}: ${cardName(p.top)}`).join(", ") })
      : T.empty_middle,
  );
  const others = v.seats.filter((s) => s.seat !== v.viewer);
  parts.push(fmt(T.reader.where_others, { stacks: others.map((s) => `${seatName(s.seat)} ${s.stack_count}`).join(", ") }));
  const cards = [...playable(v)];
  parts.push(cards.length ? fmt(T.reader.can, { cards: cards.map(cardName).join(", ") }) : T.reader.nothing_fits);
  return parts.join(" ");
}

function ask() {
  if (on()) sayNow(whereAmI(state.view));
}

export function initReader() {
  const button = $("reader-toggle");
  const choices = [...$("reader-level").querySelectorAll("input[type=radio]")];
  const show = () => {
    const active = localStorage.getItem(KEY) === "on";
    root.dataset.reader = active ? "on" : "off";
    button.setAttribute("aria-pressed", String(active));
    $("reader-tools").hidden = !active;
    // The practice hint is said by the announcer in this mode, paced with
    // the rest; its own line stays quiet.
    $("hint").setAttribute("aria-live", active ? "off" : "polite");
    if (!active) clearPending();
    renderActions();
  };
  show();
  for (const choice of choices) choice.checked = choice.value === level();
  button.addEventListener("click", () => {
    localStorage.setItem(KEY, on() ? "off" : "on");
    show();
    if (!on()) return;
    sayNow(T.reader.switched_on); // and how to hear where things stand
    if (practice() && !$("hint").hidden) announceHint($("hint").textContent); // and what to do next
  });
  $("where-am-i").addEventListener("click", ask);
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.key.toLowerCase() !== "w") return;
    ask();
  });
  afterRender(renderActions);
  onHint(announceHint);
  for (const choice of choices) {
    choice.addEventListener("change", () => {
      if (choice.checked) localStorage.setItem(LEVEL_KEY, choice.value);
    });
  }
}
