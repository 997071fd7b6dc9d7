// Between rounds: the countdown to "Ligretto!", and the score screen after
// a round (round over) or the game (game over, with Play again).
import { seatName } from "./board.js";
import { renderTable } from "./lobby.js";
import { $, T, feedback, fmt, root } from "./page.js";
import { send } from "./socket.js";
import { serverNow, state } from "./state.js";

let scoresTimer = null;

export function flashGo() {
  feedback("go");
  const box = $("countdown");
  box.textContent = T.go;
  box.hidden = false;
  box.classList.add("go");
  setTimeout(() => {
    box.hidden = true;
    box.classList.remove("go");
  }, 700);
}

// `resume`: the round was dealt before the server restarted and goes on
// where it stood ("Resuming… 3 2 1").
export function showCountdown(startAtMs, resume = false) {
  const box = $("countdown");
  box.hidden = false;
  const tick = () => {
    const left = startAtMs - serverNow();
    if (left <= 0) {
      flashGo();
      return;
    }
    const seconds = String(Math.ceil(left / 1000));
    if (resume) {
      const label = document.createElement("span");
      label.className = "resume-label";
      label.textContent = T.resuming;
      box.replaceChildren(label, document.createTextNode(seconds));
    } else {
      box.textContent = seconds;
    }
    setTimeout(tick, Math.min(100, left));
  };
  tick();
}

const signed = (p) => (p > 0 ? `+${p}` : String(p).replace("-", "−"));

export function showScores(m) {
  if (m.game_over && root.dataset.practice === "1") return showPracticeEnd(m);
  feedback("end");
  $("scores-title").textContent = m.game_over ? T.game_over : fmt(T.round_over, { n: m.round_no });
  // The points come from the server (R5), as do the totals.
  const rows = m.points.map((p, i) => {
    const tr = document.createElement("tr");
    if (i === state.seat) tr.className = "me";
    if (m.winners.includes(i)) tr.classList.add("winner");
    const cells = [
      seatName(i) + (m.caller === i ? " ★" : ""),
      m.stacks[i],
      m.middle[i],
      signed(p),
      String(m.totals[i]).replace("-", "−"),
    ];
    cells.forEach((c, k) => {
      const cell = document.createElement(k === 0 ? "th" : "td");
      if (k === 0) cell.scope = "row";
      cell.textContent = c;
      tr.append(cell);
    });
    return tr;
  });
  $("score-rows").replaceChildren(...rows);
  const lines = [];
  lines.push(m.caller !== null ? fmt(T.stop_by, { name: seatName(m.caller) }) : T.deadlock);
  if (m.game_over && m.winners.length) lines.push(fmt(T.winner, { names: m.winners.map((w) => seatName(w)).join(" & ") }));
  $("scores-next").textContent = lines.join(" ");
  clearInterval(scoresTimer);
  if (m.next_round_at) {
    const line = lines.join(" ");
    const update = () => {
      const s = Math.max(0, Math.round((m.next_round_at * 1000 - serverNow()) / 1000));
      $("scores-next").textContent = `${line} ${fmt(T.next_in, { s })}`;
    };
    update();
    scoresTimer = setInterval(update, 500);
  }
  $("scores").hidden = false;
  $("scores").focus({ preventScroll: false });
  renderTable();
}

export function hideScores() {
  clearInterval(scoresTimer);
  $("scores").hidden = true;
  $("practice-end").hidden = true;
}

// ---------------------------------------------------------------- the end of a practice round

// The practice round's one round is over: how it went, what it taught in one
// line, and the way on: a quick game against three bots, or a table of one's
// own to invite friends to (both plain forms posting to /play/quick and
// /play, under the name played with).
function showPracticeEnd(m) {
  feedback("end");
  const me = state.seat;
  const lines = [m.caller !== null ? fmt(T.stop_by, { name: seatName(m.caller) }) : T.deadlock];
  if (me !== null && me !== undefined) {
    const played = m.stacks[me] ? T.practice_played : T.practice_emptied;
    lines.push(fmt(played, { n: m.middle[me], left: m.stacks[me] }));
    for (const field of document.querySelectorAll("#practice-end [data-practice-name]")) field.value = seatName(me);
  }
  $("practice-result").textContent = lines.join(" ");
  $("practice-end").hidden = false;
  $("practice-end").focus({ preventScroll: false });
  renderTable();
}

export function initScores() {
  $("next-round").addEventListener("click", () => send("start"));
  $("play-again").addEventListener("click", () => send("play_again"));
  $("scores-close").addEventListener("click", hideScores);
  $("practice-close").addEventListener("click", hideScores);
}
