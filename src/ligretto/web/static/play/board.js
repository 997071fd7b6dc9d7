// Drawing the table from the view: the others around the middle, the middle
// and my own cards, sized to the screen.
//
// Elements are updated in place (a pile keeps its element while its top
// changes), and a card's painted parts take no pointer events (table.css),
// so a tap or a drag that has begun is not lost when another player's move
// redraws the table (redraw.js). The clicks on them are handled by input.js
// on the stable containers (#middle, #mine).
import { cardPainter, newCard } from "./cards.js";
import { $, T, absence, fmt, root } from "./page.js";
import { arrange } from "./redraw.js";
import { RETURN_MS, placeOf, started, state } from "./state.js";

// The one card painter, shared with the replay page (cards.js).
const painter = cardPainter(T.colours);
export const cardName = painter.cardName;
const { paintBack, paintCard } = painter;

// Add an animation's class so that it runs again from its start.
function restart(el, name) {
  el.classList.remove(name);
  void el.offsetWidth;
  el.classList.add(name);
}

// The element of `box` with data-key `key`, or a new one from `make`.
function keyed(box, key, make) {
  for (const el of box.children) if (el.dataset.key === key) return el;
  const el = make();
  el.dataset.key = key;
  return el;
}

// ---------------------------------------------------------------- names

// Bots are named by the server as "Bot 3 (watchful)"; the page says it in
// its own language and in plain words ("Bot 3 · sharp").
export function botLabel(seat) {
  const style = (T.strategies && T.strategies[seat.strategy]) || seat.strategy;
  return fmt(T.bot_name, { n: seat.seat + 1, style });
}

export function seatName(i) {
  const s = state.table && state.table.seats[i];
  if (!s) return `#${i + 1}`;
  // The practice round's one opponent is called what the start page
  // promised: a slow bot, not its strategy.
  if (s.kind === "bot" && root.dataset.practice === "1") return T.practice_bot;
  if (s.kind === "bot" && s.name && /^Bot \d+ \(/.test(s.name)) return botLabel(s);
  return s.name || `#${i + 1}`;
}

// ---------------------------------------------------------------- the others

// Others: what a person at the table sees of them (R3).
function opponentEl(box, s, v, change) {
  box.className = `opponent seat-${s.seat % 12}`;
  // A group named after the player, for a screen reader's list of them.
  box.setAttribute("role", "group");
  if (change && change.seat === s.seat) restart(box, "acted");
  if (v.caller === s.seat) box.classList.add("caller");
  if (!box.firstChild) {
    const head = document.createElement("div");
    head.className = "opp-head";
    const name = document.createElement("span");
    name.className = "opp-name";
    const counts = document.createElement("span");
    counts.className = "opp-counts";
    head.append(name, counts);
    const cards = document.createElement("div");
    cards.className = "opp-cards";
    const stack = newCard(null);
    const row = document.createElement("div");
    row.className = "opp-row";
    const discard = newCard(null);
    cards.append(stack, row, discard);
    box.append(head, cards);
  }
  const [head, cards] = box.children;
  const [name, counts] = head.children;
  name.textContent = seatName(s.seat);
  name.removeAttribute("title");
  const who = state.table && state.table.seats[s.seat];
  if (who && who.kind === "bot" && name.textContent === botLabel(who)) {
    // "Bot 3" always; its style only where the panel has room for it.
    name.textContent = fmt(T.bot_short, { n: s.seat + 1 });
    const style = document.createElement("span");
    style.className = "opp-style";
    style.textContent = ` (${(T.strategies && T.strategies[who.strategy]) || who.strategy})`;
    name.append(style);
  }
  const info = state.table && state.table.seats[s.seat];
  if (info && info.kind === "human" && !info.connected) {
    box.classList.add("offline");
    name.title = absence(info);
    name.textContent += info.away ? " ⚙" : " …";
  }
  const handIcon = document.createElement("span");
  handIcon.className = "mini-back";
  const middleIcon = document.createElement("span");
  middleIcon.className = "mini-felt";
  // The icons and bare numbers are for the eye; a screen reader hears the words.
  const shown = document.createElement("span");
  shown.setAttribute("aria-hidden", "true");
  shown.append(handIcon, String(s.hand_count), " ", middleIcon, String(s.middle_count));
  const said = document.createElement("span");
  said.className = "visually-hidden";
  said.textContent = `${fmt(T.hand_count, { n: s.hand_count })}, ${fmt(T.middle_count, { n: s.middle_count })}`;
  counts.replaceChildren(shown, said);
  counts.title = said.textContent;
  box.setAttribute("aria-label", name.title ? `${seatName(s.seat)} (${name.title})` : seatName(s.seat));
  const [stack, row, discard] = cards.children;
  paintCard(stack, s.stack_top, { small: true, count: s.stack_count, label: fmt(T.stack_count, { n: s.stack_count }) });
  while (row.children.length < s.row.length) row.append(newCard(null));
  while (row.children.length > s.row.length) row.lastElementChild.remove();
  s.row.forEach((p, i) => paintCard(row.children[i], p.top, { small: true }));
  paintCard(discard, s.discard_top, { small: true, label: s.discard_top ? T.discard : T.discard_empty });
  discard.classList.add("opp-discard");
  return box;
}

// Where the others sit: clockwise from my left, as around a real table. On
// a wide screen with three or more others some sit at the sides; on a
// narrow one all of them sit across the middle.
function sides(k) {
  const wide = layout.landscape && k >= 3;
  const side = wide ? Math.max(1, Math.round(k / 4)) : 0;
  return { left: side, top: k - 2 * side, right: side };
}

function renderOthers(v, change) {
  const n = v.seats.length;
  const me = v.viewer === null ? -1 : v.viewer;
  // The order of play around the table, starting after me.
  const others = [];
  for (let i = 1; i <= n; i += 1) {
    const s = v.seats[(me + i + n) % n];
    if (s.seat !== me) others.push(s);
  }
  const split = sides(others.length);
  const left = others.slice(0, split.left).reverse(); // nearest to me at the bottom
  const top = others.slice(split.left, split.left + split.top);
  const right = others.slice(split.left + split.top);
  const boxes = [$("others-left"), $("others"), $("others-right")];
  const pool = new Map();
  for (const box of boxes) for (const el of box.children) pool.set(el.dataset.key, el);
  [left, top, right].forEach((group, g) => {
    arrange(
      boxes[g],
      group.map((s) => {
        const key = String(s.seat);
        let el = pool.get(key);
        if (!el) {
          el = document.createElement("div");
          el.dataset.key = key;
        }
        return opponentEl(el, s, v, change);
      }),
    );
  });
  root.dataset.sides = split.left ? "yes" : "no";
}

// ---------------------------------------------------------------- the middle

function renderMiddle(v, before) {
  const middle = $("middle");
  const oldTops = new Map((before ? before.middle : []).map((p) => [p.id, p.top]));
  const piles = v.middle.filter((p) => !p.closed);
  const closed = v.middle.filter((p) => p.closed);
  if (!v.middle.length) {
    const hint = keyed(middle, "empty", () => {
      const p = document.createElement("p");
      p.className = "muted middle-empty";
      return p;
    });
    hint.textContent = T.empty_middle;
    arrange(middle, [hint]);
    return;
  }
  const nodes = piles.map((p) => {
    // A pile's size is its top value (R3: ascending from 1), so no badge.
    const el = keyed(middle, `p${p.id}`, () => newCard(null));
    // Numbered as the announcements and the moves number them (reader.js).
    paintCard(el, p.top, { label: fmt(T.reader.pile, { n: v.middle.indexOf(p) + 1 }) });
    el.classList.add("pile");
    el.dataset.pile = p.id; // a tap or a drop on it: input.js
    if (before && oldTops.get(p.id) !== p.top) restart(el, "landed");
    return el;
  });
  if (closed.length) {
    const done = keyed(middle, "closed", () => {
      const box = document.createElement("div");
      box.className = "closed-piles";
      return box;
    });
    arrange(
      done,
      closed.map((p) => {
        const el = keyed(done, `c${p.id}`, () => newCard(null));
        paintCard(el, p.top, { small: true, label: fmt(T.reader.pile_closed, { n: v.middle.indexOf(p) + 1 }) });
        el.classList.add("closed");
        if (before && oldTops.get(p.id) !== p.top) restart(el, "landed");
        return el;
      }),
    );
    nodes.push(done);
  }
  arrange(middle, nodes);
}

// ---------------------------------------------------------------- my cards

// My own cards; each place is a button with data-source (a tap on it: input.js).
function renderMine(v) {
  const mine = $("mine");
  const me = v.viewer === null ? null : v.seats[v.viewer];
  mine.hidden = !me;
  if (!me) return;
  // A page whose seat is played elsewhere now shows its cards, offers
  // nothing; nor does any page before "Ligretto!" (R3).
  const actions = state.takenOver || !started() ? [] : v.actions;
  $("my-name").textContent = seatName(v.viewer);
  $("my-counts").textContent = `${fmt(T.stack_count, { n: me.stack_count })} · ${fmt(T.middle_count, { n: me.middle_count })}`;
  // "This fits" marks cards that can go somewhere. Turning three is always
  // possible, so the hand carries the mark only when nothing else is.
  const cardMoves = actions.filter((a) => a.kind !== "turn" && a.kind !== "recycle");
  const playable = new Set(cardMoves.map(placeOf));
  const mark = (el) => {
    if (playable.has(el.dataset.source)) el.classList.add("can");
    const back = state.returning;
    if (back && back.source === el.dataset.source && Date.now() < back.until) {
      el.classList.add("returning");
      el.style.animationDelay = `${back.until - RETURN_MS - Date.now()}ms`; // carry on, not restart
    } else {
      el.style.animationDelay = "";
    }
    for (const { source } of state.pending.values()) if (source === el.dataset.source) el.classList.add("flying");
    return el;
  };
  const stack = keyed($("my-stack"), "stack", () => newCard("stack"));
  arrange($("my-stack"), [mark(paintCard(stack, me.stack_top, { count: me.stack_count, label: fmt(T.stack_count, { n: me.stack_count }) }))]);
  $("row-last-key").textContent = me.row.length;
  arrange(
    $("my-row"),
    me.row.map((p, i) => {
      const el = keyed($("my-row"), `row${i}`, () => newCard(`row${i}`));
      mark(paintCard(el, p.top, { label: p.top ? null : fmt(T.row_empty, { n: i + 1 }) }));
      const key = document.createElement("kbd");
      key.className = "slot-key";
      key.textContent = i + 1;
      el.append(key);
      if (p.depth > 1) el.classList.add("deep");
      return el;
    }),
  );
  const discard = keyed($("my-discard"), "discard", () => newCard("discard"));
  arrange($("my-discard"), [
    mark(paintCard(discard, me.discard_top, { count: me.discard_count || null, label: me.discard_top ? null : T.discard_empty })),
  ]);
  const hand = keyed($("my-hand"), "hand", () => newCard("hand"));
  if (me.hand_count) paintBack(hand, me.hand_count);
  else paintCard(hand, null);
  hand.title = me.hand_count ? T.turn : T.recycle;
  hand.setAttribute("aria-label", `${me.hand_count ? T.turn : T.recycle} (${fmt(T.hand_count, { n: me.hand_count })})`);
  if (!cardMoves.length && actions.some((a) => a.kind === "turn" || a.kind === "recycle")) hand.classList.add("can");
  arrange($("my-hand"), [mark(hand)]);
}

// ---------------------------------------------------------------- fitting the screen

// The last layout: whether the screen is wide, and what the sizes were made for.
const layout = { landscape: false, shape: "" };
const decorators = [];

// Called after every redraw (input.js marks the chosen card and its piles).
export function afterRender(fn) {
  decorators.push(fn);
}

const clamp = (x, lo, hi) => Math.max(lo, Math.min(hi, x));

// Card sizes from the space the board has: my cards as large as they can be
// in one line (two on a narrow phone with a long row), the others' cards in
// the bands around the middle, the piles in what is left (fitPiles).
function fitCards(v) {
  const board = $("board");
  const W = board.clientWidth;
  const top = board.getBoundingClientRect().top + window.scrollY;
  let H = Math.max(380, window.innerHeight - top - 8);
  root.style.setProperty("--board-h", `${H}px`);
  // What the page has below the board (the main area's padding, the
  // footer's margins) must fit on the screen too: measured, not guessed (a
  // tablet's page was 32 px taller than its screen).
  const below = document.documentElement.scrollHeight - (board.getBoundingClientRect().bottom + window.scrollY);
  if (below > 8) {
    H = Math.max(380, window.innerHeight - top - below);
    root.style.setProperty("--board-h", `${H}px`);
  }
  layout.landscape = W >= 640 && W > H * 1.1;
  const me = v.viewer === null ? null : v.seats[v.viewer];
  const r = (me || v.seats[0]).row.length;
  const k = v.seats.length - (me ? 1 : 0);
  // Mine: stack, the row, discard, hand (r + 3 cards) and their gaps.
  const phone = W < 600;
  const gap = phone ? 6 : 10;
  const mineW = W - (phone ? 26 : 28);
  let cardW = (mineW - (r + 2) * gap) / (r + 3);
  let twoLines = false;
  if (me && cardW < 46) {
    twoLines = true;
    cardW = (mineW - (r - 1) * gap) / r;
  }
  const lines = twoLines ? 2 : 1;
  // With many at the table the middle needs the room more than my cards.
  cardW = clamp(Math.min(cardW, (H * (v.seats.length > 6 ? 0.13 : 0.17)) / 1.4), 44, 120);
  const mineH = me ? lines * (cardW * 1.4 + 20) + 44 : 0;
  // The others: r + 2 small cards in a panel, the panels in bands; a first
  // guess here, corrected by measuring in fit().
  const split = sides(k);
  const over = phone ? 24 : 34;
  const panelW = (w) => (r + 2) * w + (r + 1) * 3 + over;
  const rest = H - mineH - 16;
  // The others may take what the middle can spare: most of it when many sit
  // across the middle, a third when few do.
  const middleMin = Math.max(100, rest * 0.3);
  const band = Math.min(rest - middleMin, rest * (split.top > 3 && !split.left ? 0.5 : 0.34));
  let small = 60;
  let cols = 1;
  if (split.top) {
    let best = -1;
    for (let c = 1; c <= split.top; c += 1) {
      const rows = Math.ceil(split.top / c);
      const free = W - (split.left ? 2 * panelW(36) + 16 : 0);
      const byW = ((free - (c - 1) * 6) / c - over - (r + 1) * 3) / (r + 2);
      const byH = ((band - (rows - 1) * 6) / rows - 28) / 1.4;
      const w = Math.min(byW, byH);
      if (w > best + 0.5) {
        best = w;
        cols = c;
      }
    }
    small = Math.min(small, best);
  }
  if (split.left) {
    const byH = ((rest - (split.top ? small * 1.4 + 36 : 0) - (split.left - 1) * 6) / split.left - 28) / 1.4;
    small = Math.min(small, byH);
  }
  small = clamp(Math.min(small, cardW * 0.8), 14, 60);
  root.dataset.compact = small < 30 ? "1" : "0";
  root.style.setProperty("--card-w", `${Math.floor(cardW)}px`);
  root.style.setProperty("--small-w", `${Math.floor(small)}px`);
  root.style.setProperty("--top-cols", String(cols));
  root.dataset.mineLines = String(lines);
  return { cardW, small };
}

// Measure what the guess gave and shrink the others' cards until every
// band fits and the middle keeps room for a row of piles.
// When even the smallest cards do not fit across (a phone zoomed to 200 %),
// the others sit in fewer columns: the board grows taller and scrolls,
// and no panel lies past the screen's edge.
function correct(sizes) {
  let { small } = sizes;
  let cols = Number(root.style.getPropertyValue("--top-cols")) || 1;
  const wrap = $("middle-wrap");
  const bands = [$("others"), $("others-left"), $("others-right")];
  for (let i = 0; i < 16; i += 1) {
    const tooWide = bands.some((b) => b.scrollWidth > b.clientWidth + 1) || wrap.clientWidth < 150;
    const tooTall = wrap.clientHeight < 90 || bands.some((b) => b.scrollHeight > b.clientHeight + 1);
    if (!tooWide && !tooTall) break;
    if (small > 14) {
      small = Math.max(14, small * 0.88);
      root.style.setProperty("--small-w", `${Math.floor(small)}px`);
    } else if (bands[0].scrollWidth > bands[0].clientWidth + 1 && cols > 1) {
      cols -= 1;
      root.style.setProperty("--top-cols", String(cols));
    } else {
      break;
    }
  }
}

// The piles: as large as the middle lets them be, never under a tap's size
// (44 px); if even that is too much, the middle scrolls.
function fitPiles(v, cardW) {
  const wrap = $("middle-wrap");
  const n = Math.max(1, v.middle.filter((p) => !p.closed).length);
  const closed = v.middle.some((p) => p.closed);
  const W = wrap.clientWidth - 16;
  const H = wrap.clientHeight - 16 - (closed ? 40 : 0);
  const gap = 8;
  let w = clamp(cardW * 1.05, 44, 140);
  for (; w > 44; w -= 2) {
    const cols = Math.max(1, Math.floor((W + gap) / (w + gap)));
    if (Math.ceil(n / cols) * (w * 1.4 + gap) <= H) break;
  }
  root.style.setProperty("--pile-w", `${Math.floor(w)}px`);
}

function fit(v) {
  const sizes = fitCards(v);
  correct(sizes);
  fitPiles(v, sizes.cardW);
}

// `change` ({before, seat}) marks what moved since the view before; null redraws.
export function renderBoard(change) {
  const v = state.view;
  if (!v) return;
  const me = v.viewer === null ? null : v.seats[v.viewer];
  // What the sizes depend on: seats, row length, whether I play, the number of piles.
  const phase = state.table ? state.table.phase : "";
  // The browser's font size: above 110 % the labels need more room than
  // the cards give them (table.css, data-text="large").
  const fontSize = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  root.dataset.text = fontSize > 17.6 ? "large" : "normal";
  const shape = [v.seats.length, v.seats[0].row.length, !!me, innerWidth, innerHeight, phase, fontSize].join();
  // Sizes are measured on the board as shown (not while the lobby hides it).
  const resized = shape !== layout.shape && !$("board").hidden;
  if (resized) {
    layout.shape = shape;
    fitCards(v);
  }
  renderOthers(v, change);
  renderMiddle(v, change && change.before);
  renderMine(v);
  if (resized) fit(v); // again, now that the others are in their places
  else if (v.middle.length !== layout.piles) fitPiles(v, parseFloat(root.style.getPropertyValue("--card-w")) || 56);
  layout.piles = v.middle.length;
  for (const fn of decorators) fn();
}

window.addEventListener("resize", () => {
  layout.shape = "";
  if (state.view && !$("board").hidden) renderBoard(null);
});
