// The player's hands on the table: taps on own cards and piles, the keys,
// and choosing a pile when a card fits several. The listeners sit on the
// containers that stay (#mine, #middle, the document), so redrawing the
// cards adds none.
import { $, T, toast } from "./page.js";
import { send } from "./socket.js";
import { placeOf, startMove, state } from "./state.js";

export function pick(source) {
  const v = state.view;
  // During the countdown a move is sent anyway: the server, the only judge
  // of the start time, answers "wait for Ligretto!" if it is early.
  if (!v || v.viewer === null || !state.table) return;
  if (state.table.phase !== "playing" && state.table.phase !== "countdown") return;
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
  // Several piles fit: the player chooses (numbered for the keyboard).
  state.chooser = { source, actions };
  actions.forEach((a, i) => {
    let el = null;
    if (a.kind === "play" && a.pile !== null) el = document.querySelector(`#middle [data-pile="${a.pile}"]`);
    if (a.kind === "store") el = document.querySelector(`#mine [data-source="row${a.slot}"]`);
    if (el) {
      el.classList.add("target");
      el.dataset.choice = i + 1;
    }
  });
  const from = document.querySelector(`#mine [data-source="${source}"]`);
  if (from) from.classList.add("chosen");
  $("chooser-hint").textContent = T.choose_pile;
  $("chooser-hint").hidden = false;
}

function choosePile(id) {
  if (!state.chooser) {
    // A tap on a pile with no card chosen: play whichever own card fits it.
    const v = state.view;
    if (!v) return;
    const fits = v.actions.filter((a) => a.kind === "play" && a.pile === id);
    if (fits.length >= 1) play(fits[0], placeOf(fits[0]));
    return;
  }
  const action = state.chooser.actions.find((a) => a.kind === "play" && a.pile === id);
  if (action) play(action, state.chooser.source);
}

function chooseNumber(n) {
  const action = state.chooser && state.chooser.actions[n - 1];
  if (action) play(action, state.chooser.source);
}

export function cancelChooser() {
  state.chooser = null;
  $("chooser-hint").hidden = true;
  for (const el of document.querySelectorAll(".target, .chosen")) {
    el.classList.remove("target", "chosen");
    delete el.dataset.choice;
  }
}

function play(action, source) {
  cancelChooser();
  const ref = startMove(action.text, source);
  const el = document.querySelector(`#mine [data-source="${source}"]`);
  if (el) el.classList.add("flying");
  send("move", { action: action.text, ref });
}

function onKey(event) {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key.toLowerCase();
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
  // Own cards (board.js gives each place a data-source) and the open piles
  // (data-pile; the closed ones have none).
  $("mine").addEventListener("click", (event) => {
    const el = event.target.closest("[data-source]");
    if (el) pick(el.dataset.source);
  });
  $("middle").addEventListener("click", (event) => {
    const el = event.target.closest("[data-pile]");
    if (el) choosePile(Number(el.dataset.pile));
  });
  document.addEventListener("keydown", onKey);
  // Space is "turn three": it must not also press whichever card has focus.
  document.addEventListener("keyup", (event) => {
    if (event.key === " " && event.target instanceof HTMLButtonElement && event.target.dataset.source) {
      event.preventDefault();
    }
  });
}
