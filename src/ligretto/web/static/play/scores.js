// Between rounds: the countdown to "Ligretto!", and the score screen after
// a round (round over) or the game (game over, with Play again).
import { seatName } from "./board.js";
import { renderTable } from "./lobby.js";
import { fillRatingFields } from "./rating.js";
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
// where it stood ("Resuming… 3 2 1"). The box is an assertive live region:
// it is written once per number (a screen reader says each number once),
// and one countdown runs at a time.
let countdownTimer = null;
export function showCountdown(startAtMs, resume = false) {
  const box = $("countdown");
  box.hidden = false;
  box.classList.remove("go");
  let shown = "";
  clearTimeout(countdownTimer);
  const tick = () => {
    const left = startAtMs - serverNow();
    if (left <= 0) {
      countdownTimer = null;
      flashGo();
      renderTable(); // the moves open (state.js, started)
      return;
    }
    const seconds = String(Math.ceil(left / 1000));
    if (seconds !== shown) {
      shown = seconds;
      if (resume) {
        const label = document.createElement("span");
        label.className = "resume-label";
        label.textContent = T.resuming;
        box.replaceChildren(label, document.createTextNode(seconds));
      } else {
        box.textContent = seconds;
      }
    }
    countdownTimer = setTimeout(tick, Math.min(100, left));
  };
  tick();
}

const signed = (p) => (p > 0 ? `+${p}` : String(p).replace("-", "−"));

// ---------------------------------------------------------------- the game's end
// The winner moment (as the Tafel's board shows it): the winner as the
// heading with the trophy, the final ranking, the round that decided it,
// Play again first; confetti and the trophy's bounce are the stylesheet's
// (none with reduced motion). The outcome is the Tafel's (T4/T5, m.winners).

const ranked = (totals) => totals
  .map((total, seat) => ({ seat, total, rank: 1 + totals.filter((t) => t > total).length }))
  .sort((a, b) => a.rank - b.rank || a.seat - b.seat);

const shown = (n) => String(n).replace("-", "−");

// The first round from which on exactly the winners had the highest total
// (tafel/ending.py, deciding_round), from the Tafel game's running totals.
export function decidingRound(rounds, winners) {
  const want = [...winners].sort().join("\n");
  let found = null;
  for (const r of [...rounds].reverse()) {
    if (!r.totals) continue;
    const top = Math.max(...Object.values(r.totals));
    const leaders = Object.keys(r.totals).filter((name) => r.totals[name] === top).sort().join("\n");
    if (leaders !== want) break;
    found = r.n;
  }
  return found;
}

async function showDecidingRound(m) {
  const line = $("deciding-round");
  line.hidden = true;
  const id = state.table && state.table.tafel_game;
  if (!id) return;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(id)}`, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const game = await response.json();
    const number = decidingRound(game.rounds, game.winners);
    if (number === null || !game.winners.length) return;
    // The Tafel game's players are the seats in order: the names as this page shows them.
    const names = game.winners.map((w) => seatName(game.players.indexOf(w)));
    const values = { number, rounds: game.rounds_count, name: names[0], names: names.join(" & ") };
    line.textContent = fmt(game.winners.length === 1 ? T.ending.decided : T.ending.decided_shared, values);
    line.hidden = false;
  } catch {
    // Without the board's rounds the moment goes without this line.
  }
}

function showCelebration(m) {
  const box = $("celebration");
  const winners = m.winners.map((w) => seatName(w));
  const top = m.winners.length ? m.totals[m.winners[0]] : null;
  if (!winners.length) {
    box.hidden = true;
    return;
  }
  const text = winners.length === 1
    ? fmt(T.ending.wins, { name: winners[0], points: shown(top) })
    : fmt(T.ending.shared, { names: winners.join(" & "), points: shown(top) });
  const title = document.createElement("span");
  title.className = "celebration-title";
  title.textContent = text;
  const trophy = $("trophy-icon").content.cloneNode(true);
  $("scores-title").replaceChildren(trophy, title);
  $("scores-title").classList.add("winner-line");
  const items = ranked(m.totals).map(({ seat, total, rank }) => {
    const li = document.createElement("li");
    li.className = `seat-${seat % 12}`;
    if (m.winners.includes(seat)) li.classList.add("winner");
    if (seat === state.seat) li.classList.add("me");
    const place = document.createElement("span");
    place.className = "place";
    if (m.winners.includes(seat)) place.append($("trophy-icon").content.cloneNode(true));
    else place.append(`${rank}.`);
    const hidden = document.createElement("span");
    hidden.className = "visually-hidden";
    hidden.textContent = ` ${fmt(T.ending.place, { rank })}`;
    place.append(hidden);
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.setAttribute("aria-hidden", "true");
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = shown(total);
    li.append(place, dot, seatName(seat), score);
    return li;
  });
  $("final-ranking").replaceChildren(...items);
  // Drawn again, so the confetti and the bounce play once more for this end.
  box.hidden = true;
  void box.offsetWidth;
  box.hidden = false;
  showDecidingRound(m);
}

function hideCelebration() {
  $("celebration").hidden = true;
  $("scores-title").classList.remove("winner-line");
}

const practice = () => $("play").dataset.practice === "1";

export function showScores(m) {
  if (m.game_over && root.dataset.practice === "1") return showPracticeEnd(m);
  feedback("end");
  $("scores-title").textContent = m.game_over ? T.game_over : fmt(T.round_over, { n: m.round_no });
  if (m.game_over && !practice()) showCelebration(m);
  else hideCelebration();
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
  showRaces(m);
  // The round just scored, replayable card for card (replay.html).
  const replay = $("scores-replay");
  replay.hidden = !m.replay;
  if (m.replay) replay.href = `/play/${encodeURIComponent(root.dataset.code)}/rounds/${m.replay}/replay`;
  const lines = [stopLine(m)];
  // The celebration names the winner already (its heading); a practice round's end says it here.
  if (m.game_over && m.winners.length && practice()) lines.push(fmt(T.winner, { names: m.winners.map((w) => seatName(w)).join(" & ") }));
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

// R3 races for a pile, won and lost by each seat this round and in the game
// (the server counts them, by arrival); shown once the game has had one.
function showRaces(m) {
  const box = $("scores-races");
  const game = m.game_races;
  box.hidden = !game || !game.won.some((n) => n > 0);
  if (box.hidden) return;
  const rows = game.won.map((_, i) => {
    const tr = document.createElement("tr");
    if (i === state.seat) tr.className = "me";
    const cells = [seatName(i), m.races.won[i], m.races.lost[i], `${game.won[i]} / ${game.lost[i]}`];
    cells.forEach((c, k) => {
      const cell = document.createElement(k === 0 ? "th" : "td");
      if (k === 0) cell.scope = "row";
      cell.textContent = String(c);
      tr.append(cell);
    });
    return tr;
  });
  $("race-rows").replaceChildren(...rows);
}

export function hideScores() {
  clearInterval(scoresTimer);
  $("scores").hidden = true;
  $("practice-end").hidden = true;
}

// Who ended the round (R4). The caller's own page says "you": a name left
// empty is the word "You" ("Ligretto Stop by You!", "von Du!").
export function stopLine(m) {
  if (m.caller === null) return T.deadlock;
  return m.caller === state.seat ? T.stop_by_you : fmt(T.stop_by, { name: seatName(m.caller) });
}

// ---------------------------------------------------------------- the end of a practice round

// The practice round's one round is over: how it went, what it taught in one
// line, and the way on: a quick game against three bots, or a table of one's
// own to invite friends to (both plain forms posting to /play/quick and
// /play, under the name played with).
function showPracticeEnd(m) {
  feedback("end");
  const me = state.seat;
  const lines = [stopLine(m)];
  if (me !== null && me !== undefined) {
    const played = m.stacks[me] ? T.practice_played : T.practice_emptied;
    lines.push(fmt(played, { n: m.middle[me], left: m.stacks[me] }));
    for (const field of document.querySelectorAll("#practice-end [data-practice-name]")) field.value = seatName(me);
  }
  // The quick game offered seats the bots matched to this browser's rating,
  // as the one on /play and the start page does (rating.js).
  fillRatingFields($("practice-end"));
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
