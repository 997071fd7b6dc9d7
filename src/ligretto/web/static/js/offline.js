// Offline-first entry on the edit page (docs/tafel-guide.md, "Scoring
// without a network").
//
// Every round saved while rounds wait, or while the server cannot be
// reached, goes into the phone's outbox (IndexedDB, outbox.js) and shows in
// the table at once, marked "not sent yet", with points, totals and the
// outcome computed by the phone's copy of the rules (rules.js). When the
// server answers again, the entries are sent in order, each with the game
// version it builds on (If-Match). If another phone changed the game
// meanwhile, the server refuses (409) and the scorekeeper decides: both
// versions are shown, nothing is overwritten and nothing is dropped unasked.
// Corrections and removals of rounds made offline wait in the same outbox
// ("correct", "remove"), in the same order. An entry just kept can be taken
// back with Undo (undo.js) while it is still on the phone.
import * as rules from "./rules.js";
import * as outbox from "./outbox.js";
import { dropDraft } from "./drafts.js";
import { offerLocal } from "./undo.js";

const MINUS = "\u2212";
const fmt = (n) => (n < 0 ? MINUS + String(-n) : String(n));
const signed = (n) => (n > 0 ? "+" + n : fmt(n));
const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const readJson = (id) => {
  try { return JSON.parse(document.getElementById(id)?.textContent || "null"); } catch { return null; }
};
const texts = readJson("offline-texts") || {};
const t = (key, values = {}) => (texts[key] || key).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");

const live = document.getElementById("live");
const syncPanel = document.getElementById("sync");
let game = null; // {id, token}
let entries = [];
let connected = navigator.onLine;
let sending = false;
let conflict = null; // {server, mine} while the scorekeeper decides
let refused = null; // {entry, detail}

// --- the honest connection indicator ---
export function setConnected(value) {
  connected = value && navigator.onLine;
  showIndicator();
  if (connected) sync();
}

function showIndicator() {
  if (!live) return;
  const waiting = new Set(entries.map((e) => e.round)).size;
  let state;
  let text;
  if (conflict || refused) { state = "conflict"; text = t("conflict"); }
  else if (waiting) {
    state = sending ? "sending" : "waiting";
    text = waiting === 1 ? t("waiting_one") : t("waiting", { count: waiting });
    if (!connected) text += ` · ${live.dataset.offline}`;
  } else if (!navigator.onLine || !connected) { state = "offline"; text = live.dataset.offline; }
  else { state = "live"; text = live.dataset.live; }
  live.dataset.state = state;
  live.textContent = text;
}
window.addEventListener("online", () => setConnected(true));
window.addEventListener("offline", () => setConnected(false));

// --- the state the board shows: the server's plus what waits ---
function baseState() {
  const state = readJson("game-state");
  return state ? { ...state, rounds: state.rounds.map((r) => ({ ...r })) } : null;
}

// One kept entry applied to *game* (changed in place; throws as the rules refuse).
function step(game, entry) {
  if (entry.kind === "stacks") rules.openRound(game, entry.counts);
  else if (entry.kind === "middle") rules.completeRound(game, entry.round, entry.counts, entry.confirm);
  else if (entry.kind === "correct") {
    rules.correctRound(game, entry.round, { stacks: entry.counts, middle: entry.middle, confirm: entry.confirm });
  } else if (entry.kind === "remove") rules.removeLastRound(game, entry.round);
}

function apply(state, list) {
  const local = rules.copyGame(state);
  const unsent = new Set();
  const failed = [];
  for (const entry of list) {
    try {
      step(local, entry);
      if (entry.kind === "remove") unsent.delete(entry.round);
      else unsent.add(entry.round);
    } catch (error) {
      failed.push({ entry, code: error.code || "error" });
    }
  }
  return { local, unsent, failed };
}

// --- drawing the board from the phone's state ---
function drawBoard(state, view) {
  const { local, unsent } = view;
  const derived = rules.derive(local);
  const players = local.players;
  const cards = document.querySelectorAll("#players .player");
  const lastComplete = [...local.rounds].reverse().find((r) => r.middle);
  const top = Math.max(...derived.totals);
  cards.forEach((card, seat) => {
    const total = card.querySelector(".total");
    if (total) total.textContent = fmt(derived.totals[seat]);
    card.classList.toggle("leader", derived.completeRounds > 0 && derived.totals[seat] === top);
    const rank = card.querySelector(".rank span[aria-hidden]");
    if (rank) rank.textContent = `${derived.ranks[seat]}.`;
    const detail = card.querySelector(".detail");
    if (detail && lastComplete) {
      const parts = [esc(t("last_round", { points: signed(rules.points(lastComplete.middle[seat], lastComplete.stacks[seat])) }))];
      if (local.mode === "target" && derived.totals[seat] < local.target) parts.push(esc(t("to_go", { points: local.target - derived.totals[seat] })));
      detail.innerHTML = parts.join("<br>");
    }
  });
  const status = document.getElementById("status");
  if (status) {
    const leaders = players.filter((_, seat) => derived.totals[seat] === top);
    let html;
    if (derived.status === "finished" && derived.winners.length) {
      html = `<div class="big-line">${esc(derived.winners.length === 1
        ? t("wins", { name: derived.winners[0], points: top })
        : t("shared", { names: derived.winners.join(" & "), points: top }))}</div>`;
    } else if (derived.status === "tiebreak") {
      html = `<div class="big-line">${esc(t("tie", { names: leaders.join(" & ") }))}</div>`;
    } else if (derived.status === "finished") {
      html = `<div class="big-line">${esc(t("game_over"))}</div>`;
    } else {
      html = local.mode === "target" ? esc(t("target", { target: local.target })) : "";
      if (derived.pending) html += ` · ${esc(t("waiting_middle", { number: derived.pending }))}`;
      if (derived.completeRounds) {
        html += `<div>${esc(leaders.length === 1 ? t("leads", { name: leaders[0] }) : t("share_lead", { names: leaders.join(" & ") }))}</div>`;
      }
    }
    html += `<div class="unsent-line">${esc(t("kept"))}</div>`;
    status.innerHTML = html;
  }
  drawTable(local, derived, unsent);
  drawEntry(local, derived);
  // "Round 3 saved." of the page as it was served no longer tells the state.
  document.querySelectorAll(".message.ok.notice").forEach((notice) => { notice.hidden = true; });
}

function drawTable(local, derived, unsent) {
  const rest = document.getElementById("board-rest");
  if (!rest) return;
  const head = local.players.map((name, seat) => `<th scope="col" class="player-name seat-${seat % 12}" title="${esc(name)}"><span class="dot" aria-hidden="true"></span>${esc(name)}</th>`).join("");
  const rows = local.rounds.map((round, index) => {
    const number = index + 1;
    const mark = unsent.has(number) ? ` <span class="unsent-badge">${esc(t("not_sent"))}</span>` : "";
    const after = derived.running[index];
    const cells = local.players.map((_, seat) => {
      const caller = round.stacks[seat] === 0;
      if (!round.middle) {
        return `<td class="${caller ? "caller" : ""}"><span class="pts">…</span><span class="sum">${esc(t("stack_count", { count: round.stacks[seat] }))}</span>${caller ? `<span class="visually-hidden">, ${esc(t("called"))}</span>` : ""}</td>`;
      }
      const p = rules.points(round.middle[seat], round.stacks[seat]);
      return `<td class="${caller ? "caller" : ""}${p < 0 ? " neg" : ""}"><span class="pts">${fmt(p)}</span><span class="sum">${fmt(after[seat])}</span>${caller ? `<span class="visually-hidden">, ${esc(t("called"))}</span>` : ""}</td>`;
    }).join("");
    const classes = [round.middle ? "" : "pending", unsent.has(number) ? "unsent" : ""].join(" ").trim();
    const link = `<a class="round-link" href="${editBase()}/rounds/${number}" aria-label="${esc(t("correct_round", { number }))}">${number}</a>`;
    return `<tr${classes ? ` class="${classes}"` : ""}><th scope="row">${link}${mark}</th>${cells}</tr>`;
  }).join("");
  const foot = derived.totals.map((v) => `<td>${fmt(v)}</td>`).join("");
  const heading = document.getElementById("rounds-title")?.textContent || "#";
  rest.innerHTML = `<h2 id="rounds-title">${esc(heading)}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="rounds-title"><table class="rounds">
<thead><tr><th scope="col">#</th>${head}</tr></thead><tbody>${rows}</tbody>
<tfoot><tr><th scope="row">Σ</th>${foot}</tr></tfoot></table></div>`;
}

function stepper(field, low, high, name, what, value = "", optional = false) {
  return `<span class="stepper">
  <button type="button" class="js-only" data-step="-1" tabindex="-1" aria-label="${esc(t("less", { what, name }))}">−</button>
  <input type="number" id="${field}" name="${field}" value="${esc(value)}" min="${low}" max="${high}" step="1" inputmode="numeric" pattern="[0-9]*" autocomplete="off"${optional ? "" : " required"} enterkeyhint="next">
  <button type="button" class="js-only" data-step="1" tabindex="-1" aria-label="${esc(t("more", { what, name }))}">+</button>
</span>`;
}

function drawEntry(local, derived) {
  const box = document.getElementById("entry");
  if (!box) return;
  const token = document.querySelector("form input[name=token]")?.value || game.token || "";
  const hidden = `<input type="hidden" name="version" value=""><input type="hidden" name="token" value="${esc(token)}">`;
  const compact = local.players.length >= 7 ? " compact" : "";
  if (derived.pending) {
    const number = derived.pending;
    const round = local.rounds[number - 1];
    const items = local.players.map((name, seat) => {
      const stack = round.stacks[seat];
      return `<li class="entry seat-${seat % 12}${stack === 0 ? " is-caller" : ""}" data-player="${seat}">
  <span class="who"><span class="dot" aria-hidden="true"></span><label for="middle-${seat}">${esc(name)}<span class="visually-hidden">: ${esc(t("middle"))}</span></label>
  <span class="stack-note">${stack === 0 ? "Ligretto Stop" : esc(t("stack_count", { count: stack }))}</span></span><span></span>
  ${stepper(`middle-${seat}`, 0, rules.middleLimit(stack), name, t("middle"))}
  <output class="preview" for="middle-${seat}" data-preview="middle" data-seat="${seat}" data-stack="${stack}" data-stack-penalty="${rules.STACK_PENALTY}" data-total="${derived.totals[seat]}" aria-live="off"></output></li>`;
    }).join("");
    box.innerHTML = `<section class="panel entry-panel" aria-labelledby="entry-title">
<h2 id="entry-title">${esc(t("round", { number }))}</h2>
<ol class="steps"><li>1 · ${esc(t("stacks"))} ✓</li><li aria-current="step">2 · ${esc(t("middle"))}</li></ol>
<form method="post" action="${editBase()}/middle" data-entry="middle" data-round="${number}" data-local="1">
<button type="submit" class="visually-hidden" tabindex="-1" aria-hidden="true">${esc(t("save_round", { number }))}</button>${hidden}<input type="hidden" name="round" value="${number}">
<div class="entry-messages"></div><p class="muted">${esc(t("middle_hint"))}</p>
<ul class="entry-list${compact}">${items}</ul>
<button type="submit" class="primary big">${esc(t("save_round", { number }))}</button></form></section>`;
  } else if (derived.acceptsNewRound) {
    const number = local.rounds.length + 1;
    const items = local.players.map((name, seat) => `<li class="entry seat-${seat % 12}" data-player="${seat}">
  <span class="who"><span class="dot" aria-hidden="true"></span><label for="stack-${seat}">${esc(name)}<span class="visually-hidden">: ${esc(t("stack"))}</span></label></span>
  <label class="stop-toggle"><input type="checkbox" name="stop" value="${seat}" data-stop-for="stack-${seat}"><span><span class="visually-hidden">${esc(name)}: </span><span${compact ? ' class="visually-hidden"' : ""}>Ligretto </span>Stop</span></label>
  ${stepper(`stack-${seat}`, 0, rules.STACK_CARDS, name, t("stack"))}
  <output class="preview" for="stack-${seat}" data-preview="stack" data-stack-penalty="${rules.STACK_PENALTY}" aria-live="off"></output></li>`).join("");
    box.innerHTML = `<section class="panel entry-panel" aria-labelledby="entry-title">
<h2 id="entry-title">${esc(t("round", { number }))}</h2>
<ol class="steps"><li aria-current="step">1 · ${esc(t("stacks"))}</li><li>2 · ${esc(t("middle"))}</li></ol>
<form method="post" action="${editBase()}/stacks" data-entry="stacks" data-round="${number}" data-local="1">
<button type="submit" class="visually-hidden" tabindex="-1" aria-hidden="true">${esc(t("save_stacks"))}</button>${hidden}
<div class="entry-messages"></div><p class="muted">${esc(t("stacks_hint"))}</p>
<ul class="entry-list${compact}">${items}</ul>
<button type="submit" class="primary big">${esc(t("save_stacks"))}</button></form></section>`;
  } else {
    box.innerHTML = "";
  }
  box.dispatchEvent(new CustomEvent("entry-drawn", { bubbles: true }));
}

const editBase = () => `/g/${game.id}/edit`;

// The number of the round whose correction this address asks for
// (/g/{id}/edit/rounds/3, answered offline with the kept board), or null.
function correctionAsked() {
  const match = /^\/g\/[\w-]+\/edit\/rounds\/(\d+)$/.exec(location.pathname);
  return match && document.getElementById("board-rest") ? Number(match[1]) : null;
}

// Offline, the correction of a round is drawn on the kept board: the same
// fields as the correction page, filled from the phone's state.
function drawCorrection(local, number) {
  const box = document.getElementById("entry");
  const round = local.rounds[number - 1];
  if (!box || !round) return false;
  const token = game.token || "";
  const hidden = `<input type="hidden" name="version" value=""><input type="hidden" name="token" value="${esc(token)}">`;
  const compact = local.players.length >= 7 ? " compact" : "";
  const stacks = local.players.map((name, seat) => `<li class="entry seat-${seat % 8}${round.stacks[seat] === 0 ? " is-caller" : ""}" data-player="${seat}">
  <span class="who"><span class="dot" aria-hidden="true"></span><label for="stack-${seat}">${esc(name)}<span class="visually-hidden">: ${esc(t("stack"))}</span></label></span>
  <label class="stop-toggle"><input type="checkbox" name="stop" value="${seat}" data-stop-for="stack-${seat}"${round.stacks[seat] === 0 ? " checked" : ""}><span><span class="visually-hidden">${esc(name)}: </span><span${compact ? ' class="visually-hidden"' : ""}>Ligretto </span>Stop</span></label>
  ${stepper(`stack-${seat}`, 0, rules.STACK_CARDS, name, t("stack"), round.stacks[seat])}
  <output class="preview" for="stack-${seat}" data-preview="stack" data-stack-penalty="${rules.STACK_PENALTY}" aria-live="off"></output></li>`).join("");
  const middle = local.players.map((name, seat) => `<li class="entry seat-${seat % 8}" data-player="${seat}">
  <span class="who"><span class="dot" aria-hidden="true"></span><label for="middle-${seat}">${esc(name)}<span class="visually-hidden">: ${esc(t("middle"))}</span></label></span><span></span>
  ${stepper(`middle-${seat}`, 0, rules.DECK_CARDS, name, t("middle"), round.middle ? round.middle[seat] : "", !round.middle)}
  <output class="preview" for="middle-${seat}" data-preview="middle" data-seat="${seat}" data-stack="${round.stacks[seat]}" data-stack-penalty="${rules.STACK_PENALTY}" aria-live="off"></output></li>`).join("");
  const last = number === local.rounds.length;
  box.innerHTML = `<section class="panel entry-panel" aria-labelledby="entry-title">
<h2 id="entry-title">${esc(t("correct_round", { number }))}</h2>
<form method="post" action="${editBase()}/rounds/${number}" data-entry="correct" data-round="${number}" data-local="1">
<button type="submit" class="visually-hidden" tabindex="-1" aria-hidden="true">${esc(t("save_round", { number }))}</button>${hidden}
<div class="entry-messages"></div><p class="muted">${esc(t("kept"))}</p>
<h3>1 · ${esc(t("stacks"))}</h3><ul class="entry-list${compact}">${stacks}</ul>
<h3>2 · ${esc(t("middle"))}</h3><ul class="entry-list${compact}">${middle}</ul>
<button type="submit" class="primary big">${esc(t("save_round", { number }))}</button></form>
${last ? `<form method="post" action="${editBase()}/rounds/${number}/remove" data-entry="remove" data-round="${number}" data-local="1">${hidden}
<button type="submit" class="danger">${esc(t("remove_round", { number }))}</button></form>` : ""}
<p><a href="${editBase()}">${esc(t("back"))}</a></p></section>`;
  box.dispatchEvent(new CustomEvent("entry-drawn", { bubbles: true }));
  return true;
}

export async function redraw() {
  const base = baseState();
  if (!base || !game) return;
  entries = await outbox.pending(game.id);
  showIndicator();
  const asked = correctionAsked();
  if (!entries.length && asked === null) return;
  const view = apply(base, entries);
  if (entries.length) drawBoard(base, view);
  if (asked !== null && !drawCorrection(view.local, asked)) {
    history.replaceState(history.state, "", editBase());
  }
  drawPanel();
}

// --- checking and keeping an entry on the phone ---
function readCounts(form, prefix, players) {
  return players.map((_, seat) => {
    const input = form.querySelector(`#${prefix}-${seat}`);
    const text = (input?.value || "").trim();
    return /^\d+$/.test(text) ? Number(text) : null;
  });
}

function showErrors(form, messages, invalid, implausible = false) {
  form.querySelectorAll("[aria-invalid]").forEach((f) => f.removeAttribute("aria-invalid"));
  for (const field of invalid) form.querySelector(`#${field}`)?.setAttribute("aria-invalid", "true");
  let box = form.querySelector(".entry-messages");
  if (!box) {
    box = document.createElement("div");
    box.className = "entry-messages";
    form.querySelector(".muted")?.before(box);
  }
  const list = messages.map((m) => `<li>${esc(m)}</li>`).join("");
  box.innerHTML = implausible
    ? `<div class="message warn" role="alert" tabindex="-1"><strong>${esc(t("check"))}</strong><ul>${list}</ul><button type="submit" name="confirm" value="1" class="danger">${esc(t("save_anyway"))}</button></div>`
    : `<div class="message error" role="alert" tabindex="-1"><strong>${esc(t("not_saved"))}</strong><ul>${list}</ul></div>`;
  box.firstElementChild?.focus();
}

// Keep the entry of *form* on the phone; false (with the messages shown)
// when the rules refuse it.
export async function keep(form, confirm) {
  const base = baseState();
  const view = apply(base, entries);
  const local = view.local;
  const players = local.players;
  const kind = form.dataset.entry;
  let entry;
  try {
    if (kind === "stacks") {
      const counts = readCounts(form, "stack", players);
      form.querySelectorAll("input[data-stop-for]:checked").forEach((box) => { counts[Number(box.value)] = 0; });
      const missing = counts.flatMap((c, seat) => (c === null ? [seat] : []));
      if (missing.length) {
        showErrors(form, missing.map((seat) => t("stack_range", { name: players[seat], max: rules.STACK_CARDS })), missing.map((s) => `stack-${s}`));
        return false;
      }
      const trial = rules.copyGame(local);
      const number = rules.openRound(trial, counts);
      entry = { game: game.id, kind, round: number, counts, confirm: false };
    } else if (kind === "correct") {
      const number = Number(form.dataset.round);
      const before = local.rounds[number - 1];
      if (!before) throw new rules.RuleError("no_such_round");
      const counts = readCounts(form, "stack", players);
      form.querySelectorAll("input[data-stop-for]:checked").forEach((box) => { counts[Number(box.value)] = 0; });
      const missing = counts.flatMap((c, seat) => (c === null ? [seat] : []));
      if (missing.length) {
        showErrors(form, missing.map((seat) => t("stack_range", { name: players[seat], max: rules.STACK_CARDS })), missing.map((s) => `stack-${s}`));
        return false;
      }
      let middle = readCounts(form, "middle", players);
      if (middle.every((c) => c === null) && !before.middle) middle = null; // still waiting for it
      const gaps = middle ? middle.flatMap((c, seat) => (c === null ? [seat] : [])) : [];
      if (gaps.length) {
        showErrors(form, gaps.map((seat) => t("middle_range", { name: players[seat], max: rules.middleLimit(counts[seat]) })), gaps.map((s) => `middle-${s}`));
        return false;
      }
      rules.correctRound(rules.copyGame(local), number, { stacks: counts, middle, confirm });
      entry = { game: game.id, kind, round: number, counts, middle, confirm, before: { ...before } };
    } else if (kind === "remove") {
      const number = Number(form.dataset.round);
      const before = local.rounds[number - 1];
      rules.removeLastRound(rules.copyGame(local), number);
      entry = { game: game.id, kind, round: number, counts: before.stacks, before: { ...before } };
    } else {
      const number = Number(form.dataset.round);
      const round = local.rounds[number - 1];
      const counts = readCounts(form, "middle", players);
      const missing = counts.flatMap((c, seat) => (c === null ? [seat] : []));
      if (missing.length) {
        showErrors(form, missing.map((seat) => t("middle_range", { name: players[seat], max: rules.middleLimit(round.stacks[seat]) })), missing.map((s) => `middle-${s}`));
        return false;
      }
      rules.completeRound(rules.copyGame(local), number, counts, confirm);
      entry = { game: game.id, kind, round: number, counts, confirm };
    }
  } catch (error) {
    const d = error.detail || {};
    const field = kind === "stacks" ? "stack" : "middle";
    if (error.code === "two_callers") showErrors(form, [t("two_callers")], d.seats.map((s) => `stack-${s}`));
    else if (error.code === "implausible") {
      showErrors(form, d.seats.map((s) => players[s]), d.seats.map((s) => `middle-${s}`), true);
    } else if (d.seat !== undefined) {
      showErrors(form, [t(`${field}_range`, { name: players[d.seat], max: d.high })], [`${field}-${d.seat}`]);
    } else showErrors(form, [error.code], []);
    return false;
  }
  const first = entries.length === 0;
  entry.base = first ? Number(base.version) : null;
  const id = await outbox.add(entry);
  dropDraft(game.id, form);
  if (kind === "correct" || kind === "remove") {
    // Back to the board, which shows the change as not sent yet.
    reload(`${editBase()}?kept=${entry.round}`);
    return true;
  }
  await redraw();
  document.getElementById("entry-title")?.scrollIntoView({ block: "start" });
  document.querySelector("#entry .stepper input")?.focus({ preventScroll: true });
  offerUndo(id, entry);
  sync();
  return true;
}

const KEPT_TEXT = { stacks: "kept_stacks", middle: "kept_round", correct: "kept_correction", remove: "kept_removal" };

// Undo for an entry just kept: while it is still on the phone, it goes.
function offerUndo(id, entry) {
  offerLocal(t(KEPT_TEXT[entry.kind] || "kept_round", { number: entry.round }), async () => {
    const list = await outbox.pending(game.id);
    if (!list.some((e) => e.id === id) || sending) return; // sent meanwhile: the board offers its own Undo
    await outbox.remove(id);
    const left = await outbox.pending(game.id);
    if (!left.length) reload(editBase());
    else await redraw();
  });
}

// After a correction or removal kept offline, the board offers its Undo.
export function offerKeptUndo() {
  const kept = new URLSearchParams(location.search).get("kept");
  if (!kept || !entries.length) return;
  const last = entries[entries.length - 1];
  if (String(last.round) === kept) offerUndo(last.id, last);
  history.replaceState(history.state, "", location.pathname + location.hash);
}

export const waiting = () => entries.length > 0;

// --- sending what waits, in order, with the version it builds on ---
function asNames(players, counts) {
  return Object.fromEntries(players.map((name, seat) => [name, counts[seat]]));
}

export async function sync() {
  if (sending || conflict || refused || !game?.token) return;
  sending = true; // one sender at a time: "online" and the live stream's return both ask
  entries = await outbox.pending(game.id);
  if (!entries.length) { sending = false; return; }
  showIndicator();
  const players = baseState().players;
  const list = entries; // this sending's own list: a redraw meanwhile reads its own
  let expected = list[0].base;
  let sent = 0;
  try {
    for (const [index, entry] of list.entries()) {
      let body;
      if (entry.kind === "stacks") body = { stacks: asNames(players, entry.counts) };
      else if (entry.kind === "middle") body = { middle: asNames(players, entry.counts), confirm: Boolean(entry.confirm) };
      else if (entry.kind === "correct") {
        body = { stacks: asNames(players, entry.counts), confirm: Boolean(entry.confirm) };
        if (entry.middle) body.middle = asNames(players, entry.middle);
      } else body = null;
      const url = entry.kind === "stacks"
        ? `/api/games/${game.id}/rounds`
        : `/api/games/${game.id}/rounds/${entry.round}`;
      const method = { stacks: "POST", remove: "DELETE" }[entry.kind] || "PUT";
      let response;
      try {
        response = await fetch(url, {
          method,
          headers: {
            "Content-Type": "application/json",
            Authorization: `Bearer ${game.token}`,
            ...(expected === null || expected === undefined ? {} : { "If-Match": `"${expected}"` }),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      } catch {
        connected = false;
        return;
      }
      connected = true;
      if (response.ok) {
        const answer = await response.json();
        expected = answer.version;
        lastSentRound = answer.round?.n || entry.round;
        lastSentKind = entry.kind;
        await outbox.remove(entry.id);
        sent += 1;
        // The next entry builds on this version (kept, should the phone stop now).
        const next = list[index + 1];
        if (next) { next.base = expected; await outbox.update(next); }
        continue;
      }
      if (response.status === 409) {
        await showConflict();
        return;
      }
      let detail = "";
      try { detail = (await response.json()).detail || ""; } catch { detail = String(response.status); }
      refused = { entry, detail };
      drawPanel();
      return;
    }
  } finally {
    sending = false;
    entries = await outbox.pending(game.id);
    showIndicator();
  }
  // Read afresh: a redraw during the sending may have read the list earlier.
  const left = await outbox.pending(game.id);
  if (sent && !left.length) {
    // Everything landed: the server's board is the board again.
    const key = { stacks: "opened", correct: "corrected", remove: "removed" }[lastSentKind] || "saved";
    reload(`${editBase()}?${key}=${lastSentRound}&undo=${expected}#status`);
  }
}

let lastSentRound = 0;
let lastSentKind = "middle";

async function fetchServer() {
  const response = await fetch(`/api/games/${game.id}`, { cache: "no-store" });
  if (!response.ok) throw new Error(String(response.status));
  const data = await response.json();
  return {
    version: data.version,
    players: data.players,
    mode: data.mode,
    target: data.target,
    agreed_rounds: data.agreed_rounds,
    row_storage: data.row_storage,
    closed: data.closed,
    scored: data.scored,
    rounds: data.rounds.map((r) => ({
      stacks: data.players.map((p) => r.stacks[p]),
      middle: r.middle ? data.players.map((p) => r.middle[p]) : null,
      confirmed: r.confirmed,
    })),
  };
}

// What the phone waits to send, as lines for the conflict panel: whole
// rounds (stacks and middle together), corrections and removals.
function myLines(base, list) {
  const phone = rules.copyGame(base);
  const lines = new Map();
  for (const entry of list) {
    if (entry.kind === "stacks") {
      lines.set(`r${entry.round}`, { number: entry.round, round: { stacks: entry.counts, middle: null } });
    } else if (entry.kind === "middle") {
      const stacks = phone.rounds[entry.round - 1]?.stacks || lines.get(`r${entry.round}`)?.round.stacks;
      lines.set(`r${entry.round}`, { number: entry.round, round: { stacks, middle: entry.counts } });
    } else if (entry.kind === "correct") {
      lines.set(`c${entry.id}`, { number: entry.round, label: "corrected", round: { stacks: entry.counts, middle: entry.middle } });
    } else if (entry.kind === "remove") {
      lines.set(`x${entry.id}`, { number: entry.round, label: "removed", round: null });
    }
    try { step(phone, entry); } catch { /* shown as it was kept */ }
  }
  return [...lines.values()];
}

async function showConflict() {
  let server;
  try { server = await fetchServer(); } catch { connected = false; return; }
  const list = await outbox.pending(game.id);
  const plan = rebase(server, list, "both");
  if (plan && plan.length === 0) {
    // Everything waiting is on the server already (an answer was lost on
    // the way back): nothing to decide, nothing to send twice.
    await outbox.replace(game.id, []);
    reload(editBase());
    return;
  }
  conflict = { server, list };
  drawPanel();
}

function roundLine(players, round) {
  const parts = players.map((name, seat) => {
    if (!round.middle) return `${name}: ${t("stack_count", { count: round.stacks[seat] })}`;
    return `${name} ${signed(rules.points(round.middle[seat], round.stacks[seat]))}`;
  });
  return parts.join(", ");
}

function drawPanel() {
  if (!syncPanel) return;
  showIndicator();
  if (refused) {
    syncPanel.hidden = false;
    syncPanel.innerHTML = `<div class="message error" role="alert"><strong>${esc(t("refused"))}</strong> ${esc(refused.detail)}</div>
<p>${esc(t("round", { number: refused.entry.round }))}: ${esc(roundLine(baseState().players, { stacks: refused.entry.counts, middle: null }))}</p>
<button type="button" class="danger" data-sync="discard-one">${esc(t("discard"))}</button>`;
    return;
  }
  if (!conflict) { syncPanel.hidden = true; syncPanel.innerHTML = ""; return; }
  const { server, list } = conflict;
  const mine = myLines(baseState(), list);
  const from = Math.min(...list.map((e) => e.round));
  const theirs = server.rounds.map((r, i) => ({ round: r, number: i + 1 })).filter((r) => r.number >= from);
  const title = (line) => (line.label === "corrected" ? t("round_corrected", { number: line.number })
    : line.label === "removed" ? t("round_removed", { number: line.number }) : t("round", { number: line.number }));
  const items = (lines) => lines.length
    ? `<ul>${lines.map((l) => `<li><strong>${esc(title(l))}</strong>${l.round ? `: ${esc(roundLine(server.players, l.round))}` : ""}</li>`).join("")}</ul>`
    : `<p class="muted">${esc(t("nothing_new"))}</p>`;
  const both = rebase(server, list, "both");
  const mineFirst = both ? null : rebase(server, list, "mine");
  syncPanel.hidden = false;
  syncPanel.innerHTML = `<div class="message warn" role="alert" tabindex="-1"><strong>${esc(t("conflict_title"))}</strong> ${esc(t("conflict_hint"))}</div>
<div class="conflict-sides">
<div class="conflict-side"><h3>${esc(t("server_side"))}</h3>${items(theirs)}</div>
<div class="conflict-side mine"><h3>${esc(t("phone_side"))}</h3>${items(mine)}</div>
</div>
${both ? "" : `<p class="message error">${esc(t(mineFirst ? "same_round" : "cannot_append"))}</p>`}
<div class="button-row">
${mineFirst ? `<button type="button" class="primary" data-sync="keep-mine">${esc(t("keep_mine"))}</button>`
    : `<button type="button" class="primary" data-sync="keep-both"${both ? "" : " disabled"}>${esc(t("keep_both"))}</button>`}
<button type="button" class="danger" data-sync="keep-theirs">${esc(t("keep_theirs"))}</button>
</div>`;
  syncPanel.querySelector("[role=alert]")?.focus();
}

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const sameRound = (a, b) => Boolean(a && b) && same(a.stacks, b.stacks) && same(a.middle, b.middle);

// The phone's waiting entries replayed on the server's board, as the
// entries still to send (the first with the server's version), or null
// when they do not fit it. An entry the server already has (its answer was
// lost on the way back, or the other phone entered the very same numbers)
// is recognised and not sent again: nothing is doubled. A round of mine
// that the server does not have follows theirs. Where both phones changed
// the same round differently, "both" gives null (one round cannot hold two
// versions) and "mine" keeps mine for that round, as a correction.
function rebase(server, list, mode) {
  const game = rules.copyGame(server);
  const phone = rules.copyGame(baseState());
  const planned = [];
  const at = new Map(); // the phone's round number → its number on the server's board
  try {
    for (const entry of list) {
      const n = at.get(entry.round) ?? entry.round;
      const there = game.rounds[n - 1];
      const mineBefore = phone.rounds[entry.round - 1];
      try { step(phone, entry); } catch { /* checked on the server's board below */ }
      if (entry.kind === "stacks") {
        if (there && same(there.stacks, entry.counts)) { at.set(entry.round, n); continue; }
        const number = rules.openRound(game, entry.counts);
        at.set(entry.round, number);
        planned.push({ kind: "stacks", round: number, counts: entry.counts, confirm: false });
      } else if (entry.kind === "middle") {
        const stacks = mineBefore?.stacks;
        if (there && same(there.stacks, stacks)) {
          if (!there.middle) {
            rules.completeRound(game, n, entry.counts, entry.confirm);
            planned.push({ kind: "middle", round: n, counts: entry.counts, confirm: entry.confirm });
          } else if (!same(there.middle, entry.counts)) {
            if (mode !== "mine") return null;
            rules.correctRound(game, n, { stacks, middle: entry.counts, confirm: entry.confirm });
            planned.push({ kind: "correct", round: n, counts: stacks, middle: entry.counts, confirm: entry.confirm, before: { ...there } });
          }
          continue;
        }
        // Their round n is another round: mine follows theirs, whole.
        const number = rules.openRound(game, stacks);
        at.set(entry.round, number);
        planned.push({ kind: "stacks", round: number, counts: stacks, confirm: false });
        rules.completeRound(game, number, entry.counts, entry.confirm);
        planned.push({ kind: "middle", round: number, counts: entry.counts, confirm: entry.confirm });
      } else if (entry.kind === "correct") {
        if (!there) return null;
        const after = { stacks: entry.counts, middle: entry.middle ?? (entry.before.middle || null) };
        if (sameRound(there, after)) continue;
        if (!sameRound(there, entry.before) && mode !== "mine") return null;
        rules.correctRound(game, n, { stacks: entry.counts, middle: entry.middle, confirm: entry.confirm });
        planned.push({ ...entry, round: n, before: { ...there } });
      } else if (entry.kind === "remove") {
        if (!there) {
          if (n === game.rounds.length + 1) continue; // gone already
          return null;
        }
        if (!sameRound(there, entry.before) && mode !== "mine") return null;
        rules.removeLastRound(game, n);
        planned.push({ ...entry, round: n, before: { ...there } });
      }
    }
  } catch {
    return null;
  }
  for (const entry of planned) { delete entry.id; entry.base = null; }
  if (planned.length) planned[0].base = server.version;
  return planned;
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-sync]");
  if (!button || !game) return;
  const action = button.dataset.sync;
  if ((action === "keep-both" || action === "keep-mine") && conflict) {
    const plan = rebase(conflict.server, conflict.list, action === "keep-mine" ? "mine" : "both");
    if (!plan) return;
    await outbox.replace(game.id, plan);
  } else if (action === "keep-theirs" && conflict) {
    await outbox.replace(game.id, []);
  } else if (action === "discard-one" && refused) {
    await outbox.remove(refused.entry.id);
  } else return;
  // The server's board, with what the phone still has to send on top.
  reload(editBase());
});

// Load *address* afresh, also when it is the page's own.
function reload(address) {
  history.replaceState(history.state, "", address);
  location.reload();
}

export function start(id, token) {
  game = { id, token };
  showIndicator();
  return redraw().then(() => { if (navigator.onLine) sync(); });
}
