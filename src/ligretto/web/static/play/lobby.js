// The seats before the game (join, bots, start) and the bar above the table:
// round, score board link and which buttons the phase offers.
import { renderBoard, seatName } from "./board.js";
import { $, T, absence, code, fmt, root, toast } from "./page.js";
import { replaceKeeping } from "./redraw.js";
import { reconnect, send } from "./socket.js";
import { forgetToken, savedHostToken, serverNow, state } from "./state.js";

// A quick match's wait, counted down on the server's clock.
function showMatchWait() {
  const t = state.table;
  const waiting = Boolean(t && t.phase === "lobby" && t.fills_at);
  $("match-wait").hidden = !waiting;
  if (waiting) {
    const left = Math.max(0, Math.ceil(t.fills_at - serverNow() / 1000));
    $("match-left").textContent = fmt(T.match_wait, { n: left });
  }
}
setInterval(showMatchWait, 1000);

function seatLabel(s) {
  if (s.kind === "empty") return T.open_seat;
  return seatName(s.seat);
}

function seatItem(s, lobby) {
  const li = document.createElement("li");
  li.className = `seat-item kind-${s.kind}${s.seat === state.seat ? " me" : ""}`;
  const name = document.createElement("span");
  name.className = "seat-name";
  name.textContent = seatLabel(s);
  li.append(name);
  const tags = [];
  if (s.seat === state.seat) tags.push(T.you);
  if (s.kind === "bot") tags.push(`${T.bot} · ${T.level_speed[s.level] || T.levels[s.level] || s.level}`);
  if (s.kind === "human" && !s.connected) tags.push(absence(s));
  if (tags.length) {
    const tag = document.createElement("span");
    tag.className = "muted seat-tags";
    tag.textContent = tags.join(" · ");
    li.append(tag);
  }
  // The host removes a bot before the start, and a person at any time
  // (remove_player: before the start the seat is freed, during the game a
  // stand-in plays it). A person's Remove asks once more.
  // Not whoever is gone for good already (left, or removed): a bot plays there.
  const person = s.kind === "human" && s.seat !== state.seat && !s.gone;
  if (state.host && ((lobby && s.kind === "bot") || person)) {
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "small";
    const asking = person && confirming === s.seat;
    remove.textContent = asking ? fmt(T.remove_confirm, { name: seatName(s.seat) }) : T.remove;
    if (asking) remove.classList.add("danger");
    remove.dataset.removeSeat = s.seat; // a tap on it: initLobby
    remove.dataset.removeKind = person ? "person" : "bot";
    li.append(remove);
  }
  return li;
}

// The seat whose "Remove" was tapped once: the next tap removes the person.
let confirming = null;

function onRemove(event) {
  const remove = event.target.closest("[data-remove-seat]");
  if (!remove) return;
  const seat = Number(remove.dataset.removeSeat);
  if (remove.dataset.removeKind === "bot") {
    send("remove_bot", { seat });
    return;
  }
  if (confirming !== seat) {
    confirming = seat;
    renderTable();
    return;
  }
  confirming = null;
  send("remove_player", { seat });
}

// "Leave the table" (in the lobby and under the table's tools): the first
// tap asks once more, the second sends leave. A host leaves only when
// another person at the table can take the host role over.
let leaving = false;

function canLeave(t) {
  if (state.seat === null || state.takenOver) return false;
  if (!state.host) return true;
  return t.seats.some((s) => s.kind === "human" && s.seat !== state.seat && s.connected && !s.away);
}

function renderLeave(t) {
  const shown = canLeave(t);
  if (!shown) leaving = false;
  for (const button of document.querySelectorAll("[data-leave]")) {
    button.hidden = !shown;
    button.textContent = leaving ? T.leave_confirm : T.leave;
    button.classList.toggle("danger", leaving);
  }
}

function onLeave() {
  if (!leaving) {
    leaving = true;
    renderTable();
    return;
  }
  leaving = false;
  send("leave");
}

// During the game the host's seat list (with the tools) holds the people.
function renderHostPlayers(t, lobby) {
  const people = t.seats.filter((s) => s.kind === "human" && s.seat !== state.seat);
  const shown = state.host && !lobby && people.length > 0;
  $("host-players").hidden = !shown;
  replaceKeeping($("game-seat-list"), shown ? people.map((s) => seatItem(s, false)) : []);
}

export function renderTable() {
  const t = state.table;
  if (!t) return;
  root.dataset.phase = t.phase;
  const lobby = t.phase === "lobby";
  $("lobby").hidden = !lobby;
  $("board").hidden = lobby;
  $("round-info").textContent = t.round_no ? fmt(T.round, { n: t.round_no }) : "";
  const board = $("board-link");
  if (t.tafel_url) {
    board.href = t.tafel_url;
    board.hidden = false;
    $("scores-board").href = t.tafel_url;
    $("scores-board").hidden = false;
  }
  replaceKeeping($("seat-list"), t.seats.map((s) => seatItem(s, lobby)));
  renderHostPlayers(t, lobby);
  renderLeave(t);
  const free = t.seats.some((s) => s.kind === "empty");
  $("join-form").hidden = !(lobby && state.seat === null && free && !state.keptOut);
  $("host-tools").hidden = !(state.host && lobby);
  showMatchWait();
  $("public-state").textContent = t.public ? T.public_on : T.public_off;
  $("toggle-public").textContent = t.public ? T.make_private : T.make_public;
  $("add-bot").disabled = !free;
  $("add-bot").parentElement.hidden = !free;
  // A quick match has no host: its wait (#match-wait) says what comes.
  const hint = state.host ? T.lobby_host : T.lobby_wait;
  $("lobby-hint").textContent = lobby && !t.fills_at ? hint : "";
  $("seat-move-open").hidden = state.seat === null || state.takenOver || t.phase === "game_over";
  $("next-round").hidden = !(state.host && t.phase === "round_over");
  // After the game (T4/T5) the host may start a new one at the same seats.
  $("play-again").hidden = !(state.host && t.phase === "game_over");
  $("play-again-wait").hidden = state.host || t.phase !== "game_over";
  if (state.view) renderBoard(null);
}

export function initLobby() {
  $("seat-list").addEventListener("click", onRemove);
  for (const button of document.querySelectorAll("[data-leave]")) button.addEventListener("click", onLeave);
  // A quick match's Cancel gives the seat back (leave: the server answers
  // "left" and the page goes to /play) so the match does not fill around a
  // seat nobody is at; without a seat or a connection it is the link it is.
  $("match-cancel").addEventListener("click", (event) => {
    if (state.seat === null || state.takenOver || !send("leave")) return;
    event.preventDefault();
    setTimeout(() => location.assign("/play"), 3000); // no answer: go all the same
  });
  $("game-seat-list").addEventListener("click", onRemove);
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("join-name").value.trim();
    if (!name) return;
    state.joinName = name;
    forgetToken();
    reconnect();
  });
  $("add-bot").addEventListener("click", () =>
    send("add_bot", { strategy: $("bot-strategy").value, level: $("bot-level").value }),
  );
  $("start").addEventListener("click", () => send("start"));
  // Listed in the lobby or not: the host's own call (PUT …/public, host token).
  $("toggle-public").addEventListener("click", async () => {
    const wanted = !state.table?.public;
    try {
      const response = await fetch(`/api/tables/${code}/public`, {
        method: "PUT",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${savedHostToken()}` },
        body: JSON.stringify({ public: wanted }),
      });
      if (!response.ok) throw new Error(String(response.status));
      state.table = { ...state.table, public: (await response.json()).public };
      renderTable();
    } catch {
      toast(T.not_allowed, "error");
    }
  });
  $("copy-invite").addEventListener("click", async () => {
    const url = new URL($("copy-invite").dataset.url, location.href).href;
    try {
      await navigator.clipboard.writeText(url);
      toast(T.copied, "ok");
    } catch {
      toast(url, "ok");
    }
  });
}
