// The online table in the browser: renders what the server sends, sends moves.
// The server is the authority (docs/protocol.md); this page only offers the
// moves listed in its view and shows what the table answers.
//
// page.js    the page's elements, words and notices
// state.js   what the page knows (seat, table, view, moves on their way)
// socket.js  the WebSocket: join, reconnect, send
// lobby.js   seats, bots, start, the bar
// board.js   drawing the cards and piles
// cards.js   the card painter (shared with the replay page)
// input.js   taps, keys, choosing a pile
// scores.js  countdown and the score screens
// device.js  continue on another device
// reader.js  the screen-reader mode: what changed, "Where am I?"
// reader_moves.js  the screen-reader mode's named moves
// announcer.js     the screen-reader mode's voice: merged, paced, never stale
// rating.js  this browser's rating against the bots, moved after each game
import { renderBoard, seatName } from "./board.js";
import { initCardTheme } from "./cards.js";
import { initDevice, onTakenOver } from "./device.js";
import { initInput } from "./input.js";
import { initLobby, renderTable } from "./lobby.js";
import { rateGame } from "./rating.js";
import { announceChange, announceRound, announceStart, initReader } from "./reader.js";
import { $, T, feedback, fmt, initFeedback, linkText, root, setConnection, toast } from "./page.js";
import { flashGo, hideScores, initScores, showCountdown, showScores } from "./scores.js";
import { connect, listen, onLink, roundTrip, send, watchRoundTrip } from "./socket.js";
import * as S from "./state.js";

const { state } = S;

// A new view keeps a chosen card and updates its piles (input.js).
function setView(view, change) {
  S.setView(view);
  renderBoard(change);
  announceChange(view, change);
}

// A quick game or a practice round starts as soon as the host's page has
// the table (like "Play again"): one tap from the start page to the countdown.
let autostarted = false;
function autostart() {
  const t = state.table;
  if (autostarted || root.dataset.autostart !== "1" || !state.host || !t || t.phase !== "lobby") return;
  autostarted = true;
  send("start");
}

function handle(m) {
  switch (m.type) {
    case "welcome":
      S.welcome(m);
      // Kept out (the host removed this person): said for as long as the page watches.
      setConnection(m.seat === null ? (state.keptOut ? T.refused.removed : T.watching) : "");
      renderTable();
      autostart();
      break;
    case "table": {
      const was = state.table ? state.table.phase : null;
      S.setTable(m.table);
      renderTable();
      renderStuck();
      if (was === "countdown" && m.table.phase === "playing") {
        // "Ligretto!" at the server: moves count from now (R3).
        S.hear(`go:${m.table.round_no}`);
        announceStart(m.table.round_no);
      }
      break;
    }
    case "countdown":
      S.syncClock(m.server_now);
      state.startAt = m.start_at * 1000;
      hideScores();
      showCountdown(m.start_at * 1000, Boolean(m.resume));
      break;
    case "view":
      S.hear(`seq:${m.seq}`);
      setView(m.view, null);
      break;
    case "events":
      onEvents(m);
      break;
    case "refused":
      onRefused(m);
      break;
    case "race_won":
      // R3: this seat's card beat another's to a pile; said like a lost
      // race (an alert, spoken once), in the table's neutral colour.
      // A race at the same millisecond is a tie that arrival order broke,
      // not "0 ms faster".
      toast(fmt(m.margin_ms > 0 ? T.race_won : T.race_tie_won, { name: seatName(m.loser), ms: m.margin_ms }), "race_won");
      break;
    case "round_over":
      showScores(m);
      announceRound(m);
      // A finished game against bots rates this browser's player (not the
      // practice round: its bot is slowed down, not at its level).
      if (m.game_over && root.dataset.practice !== "1") rateGame(state.table, state.seat, m);
      break;
    case "removed":
    case "left":
      // The host removed this person, or they left the table: nothing here
      // plays any more; back to /play, which says why (docs/online-play.md,
      // "Removing a player", "Leaving the table").
      S.leaveSeat();
      S.forgetToken();
      S.forgetHostToken();
      location.assign(m.type === "left" ? "/play?left=1" : "/play?removed=1");
      break;
    case "host":
      // The host left: this page hosts the table now, with a new host token.
      S.becomeHost(m.host_token);
      renderTable();
      toast(T.host_now, "ok");
      break;
    case "taken_over":
      onTakenOver();
      if (state.view) renderBoard(null); // no more "playable" outlines here
      break;
    default:
      break;
  }
}

function onEvents(m) {
  const before = state.view;
  S.settleMove(m.ref);
  S.hear(`seq:${m.seq}`);
  setView(m.view, { before, seat: m.seat, seq: m.seq, events: m.events });
  // R4 deadlock with "reshuffle": every hand was reshuffled and play goes
  // on with a new "Ligretto!".
  if (m.events.some((e) => e.startsWith("reshuffle"))) flashGo();
}

function onRefused(m) {
  const move = S.settleMove(m.ref);
  if (move) {
    // The card lost the race (R3) or was not allowed: it visibly goes back
    // (for as long as the animation runs, whatever re-renders meanwhile).
    S.sendBack(move.source);
    if (state.view) renderBoard(null);
    // A lost race names who was faster, by the server's clock (R3); a card
    // that came later than that is just "too slow".
    const tie = m.race && !(m.race.margin_ms > 0);
    const slow = m.race ? fmt(tie ? T.race_tie_lost : T.race_lost, { name: seatName(m.race.by), ms: m.race.margin_ms }) : T.too_slow;
    // The toast is an alert: a screen reader speaks it at once, in either
    // mode, so the announcer does not say it a second time.
    // Said in the page's language: the server's reason is English.
    toast(m.code === "pile_taken" ? slow : `${T.not_allowed} ${T.refused[m.code] || ""}`.trim(), m.code);
    if (m.code === "pile_taken") feedback("slow");
    return;
  }
  if (m.code === "bad_token") {
    if (S.fallBackToPreviousToken()) {
      send("join", S.joinTokens()); // the server came back from before the newest token
      return;
    }
    S.forgetToken();
  }
  toast(T.refused[m.code] || T.not_allowed, m.code);
  // Removed from this table: no seat here again, so no form to take one.
  if (m.code === "removed") state.keptOut = true;
  // A join that could not be seated still lets this page watch the table.
  // (Once: a table with no room for watchers either answers table_full again.)
  const unseated = ["name_taken", "bad_name", "table_full", "already_started", "bad_token", "removed"];
  if (unseated.includes(m.code) && !state.watchFallback) {
    state.watchFallback = true;
    send("join", S.joinTokens()); // the host token, if any, still hosts
  }
}

// A dropped connection never swallows a card (docs/online-play.md, "A
// dropped connection"): a move made while the banner says "reconnecting" is
// not sent and goes back with "not sent"; moves on their way when the
// connection went get no answer any more, so they go back too and the page
// says so. The view that comes with the next welcome shows what counts.
function onUnsent(ref) {
  const move = S.settleMove(ref);
  if (!move) return;
  S.sendBack(move.source);
  if (state.view) renderBoard(null);
  toast(linkText("unsent"), "offline");
}

function onLost() {
  const moves = [...state.pending.keys()].map((ref) => S.settleMove(ref));
  if (!moves.length) return;
  S.sendBack(moves[moves.length - 1].source);
  if (state.view) renderBoard(null);
  toast(linkText("unconfirmed"), "offline");
}

// R4 stall guard: no card went to the middle for a while; every person
// present agrees ("We're stuck") and the round is settled as a deadlock.
function renderStuck() {
  const t = state.table;
  const box = $("stuck-offer");
  const offered = Boolean(t && t.phase === "playing" && t.stuck_offered && state.seat !== null);
  box.hidden = !offered;
  if (!offered) return;
  const agreed = t.stuck_agreed || [];
  const people = t.seats.filter((s) => s.kind === "human" && s.connected && !s.away).length;
  $("stuck-count").textContent = fmt(T.stuck_count, { n: agreed.length, total: people });
  $("stuck-agree").disabled = agreed.includes(state.seat);
}

// "Connection": the round trip to the server (socket.js), shown on request.
function showRoundTrip(rtt) {
  $("rtt-line").textContent = rtt ? fmt(T.rtt, rtt) : T.rtt_wait;
}

function initRoundTrip() {
  const button = $("rtt-toggle");
  button.addEventListener("click", () => {
    const on = button.getAttribute("aria-pressed") !== "true";
    button.setAttribute("aria-pressed", String(on));
    $("rtt-line").hidden = !on;
    if (!on) return watchRoundTrip(() => {});
    showRoundTrip(roundTrip());
    watchRoundTrip(showRoundTrip);
  });
}

function initStuck() {
  $("stuck-agree").addEventListener("click", () => send("stuck"));
}

S.takeTokenFromFragment();
initCardTheme(root);
initStuck();
initRoundTrip();
initFeedback();
initDevice();
initLobby();
initInput();
initReader();
initScores();
listen(handle);
onLink({ lost: onLost, unsent: onUnsent });
connect();
