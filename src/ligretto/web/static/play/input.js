// The player's hands on the table: taps on own cards and piles, dragging a
// card onto a pile, the keys, choosing a pile when a card fits several, and
// the practice round's hints, and which input the player uses (the words
// and key hints follow it). The listeners sit on the containers that stay
// (#mine, #middle, the document), so redrawing the cards adds none.
import { afterRender, cardName } from "./board.js";
import { $, T, feedback, fmt, root, toast } from "./page.js";
import { send } from "./socket.js";
import { placeOf, startMove, started, state } from "./state.js";

// ---------------------------------------------------------------- choosing a pile

// The card at an own place in the view (null for an empty place or the hand).
function cardAt(v, source) {
  const me = v && v.viewer !== null ? v.seats[v.viewer] : null;
  if (!me) return null;
  if (source === "stack") return me.stack_top;
  if (source === "discard") return me.discard_top;
  const slot = /^row(\d+)$/.exec(source);
  return slot && me.row[Number(slot[1])] ? me.row[Number(slot[1])].top : null;
}

// What a chosen card can do: onto a pile, or (R6) onto a row position.
const choices = (v, source) => v.actions.filter((a) => placeOf(a) === source && (a.kind === "play" || a.kind === "store"));

// Only after "Ligretto!": the server refuses every earlier move (R3).
const canPlay = () => {
  const v = state.view;
  return Boolean(v && v.viewer !== null && !state.takenOver && started());
};

export function pick(source) {
  const v = state.view;
  if (!canPlay()) return;
  if (state.chooser && state.chooser.source === source) return cancelChooser();
  // A highlighted row position of the chooser takes the stack or discard top (R6).
  const store = state.chooser && state.chooser.actions.find((a) => a.kind === "store" && `row${a.slot}` === source);
  if (store) return play(store, state.chooser.source);
  cancelChooser();
  const actions = v.actions.filter((a) => placeOf(a) === source);
  if (!actions.length) {
    const el = document.querySelector(`#mine [data-source="${source}"]`);
    if (el) {
      el.classList.remove("shake");
      void el.offsetWidth;
      el.classList.add("shake");
    }
    if (source !== "hand") toast(T.fits_nowhere, "illegal");
    return;
  }
  if (actions.length === 1) return play(actions[0], source);
  // Several places fit: the card stays chosen until the player picks one,
  // however the piles change meanwhile (refreshChooser).
  openChooser(source, actions, false);
}

function openChooser(source, actions, drag) {
  state.chooser = { source, card: cardAt(state.view, source), actions, lost: new Set(), drag };
  markChooser();
}

// After every redraw: the chosen card stays chosen while it fits somewhere;
// its piles follow the table. A pile that moved on is remembered, so a tap
// on it says honestly that it was taken ("Too slow").
function refreshChooser() {
  const c = state.chooser;
  if (!c) return markChooser();
  const v = state.view;
  if (!canPlay() || cardAt(v, c.source) !== c.card) {
    cancelChooser(); // the card itself is gone (played, or the round ended)
    return;
  }
  const now = choices(v, c.source);
  for (const a of c.actions) {
    if (a.kind === "play" && a.pile !== null && !now.some((b) => b.pile === a.pile && b.kind === "play")) c.lost.add(a.pile);
  }
  c.actions = now;
  if (!now.length && !c.drag) {
    cancelChooser();
    toast(T.fits_nowhere_now, "illegal");
    return;
  }
  markChooser();
}

function markChooser() {
  for (const el of document.querySelectorAll("#play .target, #play .chosen, #play .dragging")) {
    el.classList.remove("target", "chosen", "dragging");
  }
  for (const el of document.querySelectorAll("#play [data-choice]")) delete el.dataset.choice;
  $("middle-wrap").classList.remove("new-pile");
  const c = state.chooser;
  $("chooser-hint").hidden = !c || c.drag || c.actions.length < 2;
  if (!c) return;
  c.actions.forEach((a, i) => {
    let el = null;
    if (a.kind === "play" && a.pile !== null) el = document.querySelector(`#middle [data-pile="${a.pile}"]`);
    if (a.kind === "play" && a.pile === null) $("middle-wrap").classList.add("new-pile");
    if (a.kind === "store") el = document.querySelector(`#mine [data-source="row${a.slot}"]`);
    if (el) {
      el.classList.add("target");
      el.dataset.choice = i + 1;
    }
  });
  const from = document.querySelector(`#mine [data-source="${c.source}"]`);
  if (from) from.classList.add(c.drag ? "dragging" : "chosen");
  // On a touch screen there are no number keys and no Esc to speak of.
  $("chooser-hint").textContent = usingTouch() ? T.choose_pile_touch : T.choose_pile;
}

// A tap (or a drop) on a middle pile.
function choosePile(id) {
  const c = state.chooser;
  if (c) {
    const action = c.actions.find((a) => a.kind === "play" && a.pile === id);
    if (action) return play(action, c.source);
    if (c.lost.has(id)) {
      // It fitted there when it was chosen; someone else's card came first (R3).
      toast(T.too_slow, "pile_taken");
      feedback("slow");
      if (c.drag) cancelChooser();
      return;
    }
    cancelChooser();
    if (c.drag) return; // dropped where it does not fit: it stays where it was
  }
  // A tap on a pile with no card chosen: play whichever own card fits it.
  const v = state.view;
  if (!canPlay()) return;
  const fits = v.actions.filter((a) => a.kind === "play" && a.pile === id);
  if (fits.length >= 1) play(fits[0], placeOf(fits[0]));
}

// A tap (or a drop) on the felt beside the piles: a 1 opens a new pile there.
function chooseNewPile() {
  const c = state.chooser;
  const action = c && c.actions.find((a) => a.kind === "play" && a.pile === null);
  if (action) play(action, c.source);
  else if (c && c.drag) cancelChooser();
}

function chooseNumber(n) {
  const action = state.chooser && state.chooser.actions[n - 1];
  if (action) play(action, state.chooser.source);
}

export function cancelChooser() {
  state.chooser = null;
  markChooser();
}

export function play(action, source) {
  cancelChooser();
  const ref = startMove(action.text, source);
  const el = document.querySelector(`#mine [data-source="${source}"]`);
  if (el) el.classList.add("flying");
  send("move", { action: action.text, ref });
}

// ---------------------------------------------------------------- dragging

// A card is dragged with any pointer (mouse, touch, pen): it follows the
// pointer, its piles light up, and it is played where it is let go.
let drag = null; // {pointerId, source, x0, y0, ghost}
let swallowClick = false;

function dragStart(event) {
  if (event.button !== 0 || !canPlay()) return;
  const el = event.target.closest("button[data-source]");
  if (!el || el.dataset.source === "hand") return;
  drag = { pointerId: event.pointerId, source: el.dataset.source, x0: event.clientX, y0: event.clientY, ghost: null };
}

function dragMove(event) {
  if (!drag || event.pointerId !== drag.pointerId) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x0, event.clientY - drag.y0) < 10) return;
    const actions = canPlay() ? choices(state.view, drag.source) : [];
    const el = document.querySelector(`#mine [data-source="${drag.source}"]`);
    if (!actions.length || !el) {
      drag = null;
      return;
    }
    const box = el.getBoundingClientRect();
    const ghost = el.cloneNode(true);
    ghost.removeAttribute("data-source");
    ghost.removeAttribute("data-key");
    ghost.className = `${el.className} drag-ghost`;
    ghost.setAttribute("aria-hidden", "true");
    ghost.tabIndex = -1;
    ghost.style.width = `${box.width}px`;
    ghost.style.height = `${box.height}px`;
    drag.dx = drag.x0 - box.left;
    drag.dy = drag.y0 - box.top;
    drag.ghost = ghost;
    root.append(ghost);
    openChooser(drag.source, actions, true);
  }
  event.preventDefault();
  drag.ghost.style.left = `${event.clientX - drag.dx}px`;
  drag.ghost.style.top = `${event.clientY - drag.dy}px`;
}

function dragEnd(event) {
  if (!drag || event.pointerId !== drag.pointerId) return;
  const { ghost } = drag;
  drag = null;
  if (!ghost) return; // a tap: the click that follows picks the card
  ghost.remove();
  swallowClick = true;
  setTimeout(() => {
    swallowClick = false;
  }, 0);
  if (event.type === "pointercancel") return cancelChooser();
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const pile = under && under.closest("#middle [data-pile]");
  const slot = under && under.closest("#mine [data-source]");
  if (pile) return choosePile(Number(pile.dataset.pile));
  if (slot && state.chooser) {
    const store = state.chooser.actions.find((a) => a.kind === "store" && `row${a.slot}` === slot.dataset.source);
    if (store) return play(store, state.chooser.source);
  }
  if (under && under.closest("#middle-wrap")) return chooseNewPile();
  cancelChooser(); // let go elsewhere: the card stays where it was
}

// ---------------------------------------------------------------- the input in use

// "touch", "mouse" or "keyboard": the last way the player reached the page
// (a pointer's pointerType, a key). Key hints show only for a keyboard or a
// mouse (a laptop), tap-and-drag words for touch (table.css, data-input).
// Before any input the screen's main pointer decides.
const usingTouch = () => root.dataset.input === "touch";

function setInput(kind) {
  if (root.dataset.input === kind) return;
  root.dataset.input = kind;
  if (state.chooser) markChooser();
  renderHint();
}

function watchInput() {
  root.dataset.input = matchMedia("(pointer: coarse)").matches ? "touch" : "mouse";
  window.addEventListener(
    "pointerdown",
    (event) => setInput(event.pointerType === "mouse" ? "mouse" : "touch"),
    { capture: true, passive: true },
  );
  document.addEventListener(
    "keydown",
    (event) => {
      // Typing a name (a phone's on-screen keyboard sends keys too) is not
      // playing with keys.
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
      if (event.key === "Unidentified" || event.key === "Process") return;
      setInput("keyboard");
    },
    { capture: true },
  );
}

// The key that does what a hint says, for a player using keys.
function keyFor(source) {
  if (source === "stack") return "S";
  if (source === "discard") return "D";
  if (source === "hand") return T.space;
  const slot = /^row(\d+)$/.exec(source || "");
  return slot ? String(Number(slot[1]) + 1) : null;
}

// ---------------------------------------------------------------- hints (practice round)

// What to do next, read from the legal actions of the view (docs/protocol.md):
// the card the hint is about and the sentence for it.
function hintFor(v) {
  if (!v || v.viewer === null || state.takenOver || !state.table) return null;
  if (!started()) return state.table.phase === "countdown" ? { text: T.hints.ready } : null;
  const me = v.seats[v.viewer];
  const plays = v.actions.filter((a) => a.kind === "play" && !state.pending.size);
  const several = (a) => plays.filter((b) => b.source === a.source && b.slot === a.slot).length > 1;
  const say = (a, text) => ({ source: placeOf(a), text: several(a) ? `${text} ${T.hints.then_pile}` : text });
  // A 1 from the stack first: it also shows that the stack is to be emptied.
  const one = plays.find((a) => a.pile === null && a.source === "stack") || plays.find((a) => a.pile === null);
  if (one) return say(one, fmt(T.hints.one, { card: cardName(one.card) }));
  const stack = plays.find((a) => a.source === "stack");
  if (stack) return say(stack, fmt(me.stack_count === 1 ? T.hints.last : T.hints.stack, { card: cardName(stack.card) }));
  const row = plays.find((a) => a.source === "row");
  if (row) return say(row, fmt(T.hints.row, { card: cardName(row.card) }));
  const discard = plays.find((a) => a.source === "discard");
  if (discard) return say(discard, fmt(T.hints.discard, { card: cardName(discard.card) }));
  if (state.pending.size) return { text: T.hints.wait };
  const refill = v.actions.find((a) => a.kind === "refill");
  if (refill) return { source: placeOf(refill), text: T.hints.refill };
  const turn = v.actions.find((a) => a.kind === "turn");
  if (turn) return { source: "hand", text: T.hints.turn };
  const recycle = v.actions.find((a) => a.kind === "recycle");
  if (recycle) return { source: "hand", text: T.hints.recycle };
  return { text: T.hints.wait };
}

// Who else says a new hint (the screen-reader mode's announcer).
let hintListener = () => {};
export function onHint(listener) {
  hintListener = listener;
}

function renderHint() {
  for (const el of document.querySelectorAll("#mine .hinted")) el.classList.remove("hinted");
  if (root.dataset.practice !== "1") return;
  const hint = hintFor(state.view);
  $("hint").hidden = !hint;
  if (!hint) return;
  const key = root.dataset.input === "keyboard" && keyFor(hint.source);
  const text = key ? `${hint.text} ${fmt(T.key_hint, { key })}` : hint.text;
  if ($("hint").textContent !== text) {
    $("hint").textContent = text;
    hintListener(text);
  }
  const el = hint.source && document.querySelector(`#mine [data-source="${hint.source}"]`);
  if (el) el.classList.add("hinted");
}

// ---------------------------------------------------------------- keys

function onKey(event) {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key.toLowerCase();
  // "?" opens and closes the list of keys (the help), Esc also closes it.
  if (key === "?") {
    event.preventDefault();
    return $("help").click();
  }
  if (key === "escape" && root.classList.contains("help-open") && !state.chooser) return $("help").click();
  if (key === "escape") return cancelChooser();
  if (state.chooser && /^[1-9]$/.test(key)) {
    event.preventDefault();
    return chooseNumber(Number(key));
  }
  if (/^[1-5]$/.test(key)) pick(`row${Number(key) - 1}`);
  else if (key === "s") pick("stack");
  else if (key === "d") pick("discard");
  else if (key === " " || key === "r") {
    event.preventDefault();
    pick("hand");
  }
}

export function initInput() {
  watchInput();
  // The chooser's line sits on the felt, not over the bar's buttons.
  $("middle-wrap").append($("chooser-hint"));
  afterRender(refreshChooser);
  afterRender(renderHint);
  // Own cards (board.js gives each place a data-source) and the open piles
  // (data-pile; the closed ones have none).
  $("mine").addEventListener("click", (event) => {
    const el = event.target.closest("[data-source]");
    if (el) pick(el.dataset.source);
  });
  $("middle-wrap").addEventListener("click", (event) => {
    const el = event.target.closest("[data-pile]");
    if (el) choosePile(Number(el.dataset.pile));
    else if (!event.target.closest(".closed-piles")) chooseNewPile();
  });
  $("mine").addEventListener("pointerdown", dragStart);
  window.addEventListener("pointermove", dragMove, { passive: false });
  window.addEventListener("pointerup", dragEnd);
  window.addEventListener("pointercancel", dragEnd);
  // The click that ends a drag is not also a tap.
  window.addEventListener(
    "click",
    (event) => {
      if (swallowClick) {
        event.stopPropagation();
        event.preventDefault();
      }
    },
    true,
  );
  document.addEventListener("keydown", onKey);
  // Space is "turn three": it must not also press whichever card has focus.
  document.addEventListener("keyup", (event) => {
    if (event.key === " " && event.target instanceof HTMLButtonElement && event.target.dataset.source) {
      event.preventDefault();
    }
  });
  $("help").addEventListener("click", () => {
    const open = $("help").getAttribute("aria-expanded") !== "true";
    $("help").setAttribute("aria-expanded", String(open));
    root.classList.toggle("help-open", open);
  });
}
