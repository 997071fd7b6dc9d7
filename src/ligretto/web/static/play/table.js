// The online table in the browser: renders what the server sends, sends moves.
// The server is the authority (docs/protocol.md); this page only offers the
// moves listed in its view and shows what the table answers.

const root = document.getElementById("play");
const code = root.dataset.code;
const T = JSON.parse(document.getElementById("play-text").textContent);
const $ = (id) => document.getElementById(id);
const tokenKey = `ligretto.play.${code}`;

const COLOURS = { R: "red", G: "green", B: "blue", Y: "yellow", H: "hearts", D: "diamonds", C: "clubs", S: "spades" };
const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };

const state = {
  ws: null,
  seat: null,
  host: false,
  table: null,
  view: null,
  ref: 0,
  pending: new Map(), // ref -> {action, source}
  clockOffset: 0, // server clock minus local clock, ms
  joinName: null,
  chooser: null, // {source, actions}
  retry: 0,
  lastRoundOver: null,
  scoresTimer: null,
  closedByUs: false,
  watchFallback: false,
  returning: null, // {source, until}: a card flying back after a lost race
  takenOver: false, // the seat is played on another device now: stay quiet
};

function fmt(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, key) => (key in values ? values[key] : `{${key}}`));
}

// ---------------------------------------------------------------- token

(function takeTokenFromFragment() {
  // "#t=…" (the host's link) or "#seat=…" (a seat link from another device):
  // kept in localStorage, removed from the address bar.
  const match = location.hash.match(/(?:^#|&)(?:t|seat)=([A-Za-z0-9_-]+)/);
  if (match) {
    localStorage.setItem(tokenKey, match[1]);
    history.replaceState(null, "", location.pathname + location.search);
  }
})();

// ---------------------------------------------------------------- socket

function send(type, fields = {}) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) {
    state.ws.send(JSON.stringify({ v: 1, type, ...fields }));
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/play/${code}/ws`);
  state.ws = ws;
  ws.addEventListener("open", () => {
    state.retry = 0;
    const token = localStorage.getItem(tokenKey);
    if (state.joinName) send("join", { name: state.joinName });
    else if (token) send("join", { token });
    else send("join");
  });
  ws.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    handle(message);
  });
  ws.addEventListener("close", (event) => {
    if (state.ws !== ws) return;
    if (state.takenOver) return; // no reconnecting: that would take the seat back
    if (event.code === 4404) {
      setConnection(T.refused.no_such_table);  // the table has ended: stop trying
      return;
    }
    setConnection(T.reconnecting);
    state.retry += 1;
    const delay = state.closedByUs ? 0 : Math.min(5000, 300 * 2 ** Math.min(state.retry, 4));
    state.closedByUs = false;
    setTimeout(connect, delay);
  });
}

function reconnect() {
  state.closedByUs = true;
  if (state.ws) state.ws.close();
}

function setConnection(text) {
  $("connection").textContent = text || "";
  $("connection").hidden = !text;
}

// ---------------------------------------------------------------- messages

function handle(m) {
  switch (m.type) {
    case "welcome":
      state.watchFallback = false;
      state.seat = m.seat;
      state.host = m.host;
      state.clockOffset = m.server_now * 1000 - Date.now();
      if (m.token) localStorage.setItem(tokenKey, m.token);
      state.joinName = null;
      setConnection(m.seat === null ? T.watching : "");
      state.table = m.table;
      renderTable();
      break;
    case "table":
      state.table = m.table;
      renderTable();
      break;
    case "countdown":
      state.clockOffset = m.server_now * 1000 - Date.now();
      hideScores();
      showCountdown(m.start_at * 1000);
      break;
    case "view":
      setView(m.view, null);
      break;
    case "events":
      onEvents(m);
      break;
    case "refused":
      onRefused(m);
      break;
    case "round_over":
      showScores(m);
      break;
    case "taken_over":
      onTakenOver();
      break;
    default:
      break;
  }
}

function onEvents(m) {
  const before = state.view;
  if (m.ref !== null && m.ref !== undefined) state.pending.delete(m.ref);
  setView(m.view, { before, seat: m.seat, events: m.events });
  // R4 deadlock with "reshuffle": every hand was reshuffled and play goes
  // on with a new "Ligretto!".
  if (m.events.some((e) => e.startsWith("reshuffle"))) flashGo();
}

function flashGo() {
  const box = $("countdown");
  box.textContent = T.go;
  box.hidden = false;
  box.classList.add("go");
  setTimeout(() => {
    box.hidden = true;
    box.classList.remove("go");
  }, 700);
}

function onRefused(m) {
  if (m.ref !== null && m.ref !== undefined && state.pending.has(m.ref)) {
    const { source } = state.pending.get(m.ref);
    state.pending.delete(m.ref);
    // The card lost the race (R3) or was not allowed: it visibly goes back
    // (for as long as the animation runs, whatever re-renders meanwhile).
    state.returning = { source, until: Date.now() + 450 };
    if (state.view) renderBoard(null);
    toast(m.code === "pile_taken" ? T.too_slow : `${T.not_allowed} ${m.reason || ""}`, m.code);
    return;
  }
  if (m.code === "bad_token") localStorage.removeItem(tokenKey);
  toast((T.refused && T.refused[m.code]) || m.reason || m.code, m.code);
  // A join that could not be seated still lets this page watch the table.
  // (Once: a table with no room for watchers either answers table_full again.)
  const unseated = ["name_taken", "bad_name", "table_full", "already_started", "bad_token"];
  if (unseated.includes(m.code) && !state.watchFallback) {
    state.watchFallback = true;
    send("join");
  }
}

// ---------------------------------------------------------------- another device

// Another connection came with this seat's token (docs/protocol.md): this
// page holds nothing any more, closes its socket and waits to be asked.
function onTakenOver() {
  state.takenOver = true;
  state.seat = null;
  state.host = false;
  state.pending.clear();
  setConnection("");
  if ($("seat-move").open) $("seat-move").close();
  $("taken-over").hidden = false;
  $("seat-move-open").hidden = true;
  if (state.ws) state.ws.close();
}

$("play-here").addEventListener("click", () => {
  state.takenOver = false;
  $("taken-over").hidden = true;
  connect();
});

$("seat-move-open").addEventListener("click", async () => {
  const token = localStorage.getItem(tokenKey);
  if (!token) return;
  try {
    // The token goes in the body (never in a URL); the answer is the link
    // with the token in its fragment and the link's QR code.
    const answer = await fetch(`/play/${code}/seat-link`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
    });
    if (!answer.ok) throw new Error(String(answer.status));
    const link = await answer.json();
    $("seat-link").value = link.url;
    $("seat-qr").innerHTML = link.qr_svg; // SVG made by the server (segno)
    $("seat-move").showModal();
  } catch {
    toast(T.seat_link_failed, "error");
  }
});
$("seat-link-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("seat-link").value);
  } catch {
    $("seat-link").select();
  }
  toast(T.seat_link_copied, "ok");
});
$("seat-move-close").addEventListener("click", () => $("seat-move").close());
$("seat-move").addEventListener("close", () => {
  $("seat-link").value = "";
  $("seat-qr").textContent = "";
});

// ---------------------------------------------------------------- lobby + bar

function seatLabel(s) {
  if (s.kind === "empty") return T.open_seat;
  return s.name;
}

function renderTable() {
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
  const list = $("seat-list");
  list.replaceChildren(
    ...t.seats.map((s) => {
      const li = document.createElement("li");
      li.className = `seat-item kind-${s.kind}${s.seat === state.seat ? " me" : ""}`;
      const name = document.createElement("span");
      name.className = "seat-name";
      name.textContent = seatLabel(s);
      li.append(name);
      const tags = [];
      if (s.seat === state.seat) tags.push(T.you);
      if (s.kind === "bot") tags.push(`${T.bot} · ${T.levels[s.level] || s.level}`);
      if (s.kind === "human" && !s.connected) tags.push(s.away ? T.away : T.offline);
      if (tags.length) {
        const tag = document.createElement("span");
        tag.className = "muted seat-tags";
        tag.textContent = tags.join(" · ");
        li.append(tag);
      }
      const left = s.kind === "human" && !s.connected && s.seat !== state.seat;
      if (state.host && lobby && (s.kind === "bot" || left)) {
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "small";
        remove.textContent = T.remove;
        remove.addEventListener("click", () => send("remove_bot", { seat: s.seat }));
        li.append(remove);
      }
      return li;
    }),
  );
  const free = t.seats.some((s) => s.kind === "empty");
  $("join-form").hidden = !(lobby && state.seat === null && free);
  $("host-tools").hidden = !(state.host && lobby);
  $("add-bot").disabled = !free;
  $("add-bot").parentElement.hidden = !free;
  $("lobby-hint").textContent = lobby ? (state.host ? T.lobby_host : T.lobby_wait) : "";
  $("seat-move-open").hidden = state.seat === null || state.takenOver || t.phase === "game_over";
  $("next-round").hidden = !(state.host && t.phase === "round_over");
  // After the game (T4/T5) the host may start a new one at the same seats.
  $("play-again").hidden = !(state.host && t.phase === "game_over");
  $("play-again-wait").hidden = state.host || t.phase !== "game_over";
  if (state.view) renderBoard(null);
}

$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("join-name").value.trim();
  if (!name) return;
  state.joinName = name;
  localStorage.removeItem(tokenKey);
  reconnect();
});
$("add-bot").addEventListener("click", () =>
  send("add_bot", { strategy: $("bot-strategy").value, level: $("bot-level").value }),
);
$("start").addEventListener("click", () => send("start"));
$("next-round").addEventListener("click", () => send("start"));
$("play-again").addEventListener("click", () => send("play_again"));
$("copy-invite").addEventListener("click", async () => {
  const url = new URL($("copy-invite").dataset.url, location.href).href;
  try {
    await navigator.clipboard.writeText(url);
    toast(T.copied, "ok");
  } catch {
    toast(url, "ok");
  }
});
$("scores-close").addEventListener("click", hideScores);

// ---------------------------------------------------------------- cards

function cardEl(text, { source = null, small = false, count = null, label = null } = {}) {
  const el = document.createElement(source ? "button" : "div");
  if (source) {
    el.type = "button";
    el.dataset.source = source;
  }
  el.className = "card" + (small ? " small" : "");
  if (!text) {
    el.classList.add("empty");
    if (label) el.setAttribute("aria-label", label);
    return el;
  }
  const colour = text[0];
  const value = text.slice(1);
  el.classList.add(`c-${colour}`);
  el.dataset.card = text;
  const v = document.createElement("span");
  v.className = "v";
  v.textContent = value === "1" && SUITS[colour] ? "A" : value;
  el.append(v);
  if (SUITS[colour]) {
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SUITS[colour];
    el.append(suit);
  }
  if (count !== null) {
    const badge = document.createElement("span");
    badge.className = "count";
    badge.textContent = count;
    el.append(badge);
  }
  el.setAttribute("aria-label", `${label ? label + ": " : ""}${COLOURS[colour]} ${value}`);
  return el;
}

function backEl(count, source) {
  const el = document.createElement(source ? "button" : "div");
  if (source) {
    el.type = "button";
    el.dataset.source = source;
  }
  el.className = "card back";
  const badge = document.createElement("span");
  badge.className = "count";
  badge.textContent = count;
  el.append(badge);
  return el;
}

// ---------------------------------------------------------------- the board

function setView(view, change) {
  state.view = view;
  state.chooser = null;
  $("chooser-hint").hidden = true;
  renderBoard(change);
}

function seatName(i) {
  const s = state.table && state.table.seats[i];
  return s ? s.name : `#${i + 1}`;
}

function renderBoard(change) {
  const v = state.view;
  if (!v) return;
  const before = change && change.before;
  // Others: what a person at the table sees of them (R3).
  const others = $("others");
  others.replaceChildren(
    ...v.seats
      .filter((s) => s.seat !== v.viewer)
      .map((s) => {
        const box = document.createElement("div");
        box.className = `opponent seat-${s.seat % 8}`;
        if (change && change.seat === s.seat) box.classList.add("acted");
        if (v.caller === s.seat) box.classList.add("caller");
        const head = document.createElement("div");
        head.className = "opp-head";
        const name = document.createElement("span");
        name.className = "opp-name";
        name.textContent = seatName(s.seat);
        const info = state.table && state.table.seats[s.seat];
        if (info && info.kind === "human" && !info.connected) {
          box.classList.add("offline");
          name.title = info.away ? T.away : T.offline;
          name.textContent += info.away ? " ⚙" : " …";
        }
        const counts = document.createElement("span");
        counts.className = "opp-counts";
        const handIcon = document.createElement("span");
        handIcon.className = "mini-back";
        const middleIcon = document.createElement("span");
        middleIcon.className = "mini-felt";
        counts.append(handIcon, String(s.hand_count), " ", middleIcon, String(s.middle_count));
        counts.title = `${fmt(T.hand_count, { n: s.hand_count })}, ${fmt(T.middle_count, { n: s.middle_count })}`;
        head.append(name, counts);
        const cards = document.createElement("div");
        cards.className = "opp-cards";
        cards.append(cardEl(s.stack_top, { small: true, count: s.stack_count, label: fmt(T.stack_count, { n: s.stack_count }) }));
        const row = document.createElement("div");
        row.className = "opp-row";
        row.append(...s.row.map((p) => cardEl(p.top, { small: true })));
        const discard = cardEl(s.discard_top, { small: true });
        discard.classList.add("opp-discard");
        cards.append(row, discard);
        box.append(head, cards);
        return box;
      }),
  );

  // The middle.
  const middle = $("middle");
  const oldTops = new Map((before ? before.middle : []).map((p) => [p.id, p.top]));
  const piles = v.middle.filter((p) => !p.closed);
  const closed = v.middle.filter((p) => p.closed);
  if (!v.middle.length) {
    const hint = document.createElement("p");
    hint.className = "muted middle-empty";
    hint.textContent = T.empty_middle;
    middle.replaceChildren(hint);
  } else {
    middle.replaceChildren(
      ...piles.map((p) => {
        // A pile's size is its top value (R3: ascending from 1), so no badge.
        const el = cardEl(p.top);
        el.classList.add("pile");
        el.dataset.pile = p.id;
        if (before && oldTops.get(p.id) !== p.top) el.classList.add("landed");
        el.addEventListener("click", () => choosePile(p.id));
        return el;
      }),
    );
    if (closed.length) {
      const done = document.createElement("div");
      done.className = "closed-piles";
      done.append(
        ...closed.map((p) => {
          const el = cardEl(p.top, { small: true });
          el.classList.add("closed");
          if (before && oldTops.get(p.id) !== p.top) el.classList.add("landed");
          return el;
        }),
      );
      middle.append(done);
    }
  }

  // My own cards.
  const mine = $("mine");
  const me = v.viewer === null ? null : v.seats[v.viewer];
  mine.hidden = !me;
  if (!me) return;
  $("my-name").textContent = seatName(v.viewer);
  $("my-counts").textContent = `${fmt(T.stack_count, { n: me.stack_count })} · ${fmt(T.middle_count, { n: me.middle_count })}`;
  const playable = new Set(v.actions.map((a) => sourceOf(a)).filter(Boolean));
  const mark = (el) => {
    if (playable.has(el.dataset.source)) el.classList.add("can");
    const back = state.returning;
    if (back && back.source === el.dataset.source && Date.now() < back.until) {
      el.classList.add("returning");
      el.style.animationDelay = `${back.until - 450 - Date.now()}ms`;  // carry on, not restart
    }
    for (const { source } of state.pending.values()) if (source === el.dataset.source) el.classList.add("flying");
    return el;
  };
  $("my-stack").replaceChildren(mark(cardEl(me.stack_top, { source: "stack", count: me.stack_count, label: T.stack_count.replace("{n}", me.stack_count) })));
  $("row-last-key").textContent = me.row.length;
  $("my-row").replaceChildren(
    ...me.row.map((p, i) => {
      const el = mark(cardEl(p.top, { source: `row${i}`, label: p.top ? null : fmt(T.row_empty, { n: i + 1 }) }));
      const key = document.createElement("kbd");
      key.className = "slot-key";
      key.textContent = i + 1;
      el.append(key);
      if (p.depth > 1) el.classList.add("deep");
      return el;
    }),
  );
  $("my-discard").replaceChildren(mark(cardEl(me.discard_top, { source: "discard", count: me.discard_count || null, label: me.discard_top ? null : T.discard_empty })));
  const hand = me.hand_count ? backEl(me.hand_count, "hand") : cardEl(null, { source: "hand" });
  hand.title = me.hand_count ? T.turn : T.recycle;
  hand.setAttribute("aria-label", `${me.hand_count ? T.turn : T.recycle} (${fmt(T.hand_count, { n: me.hand_count })})`);
  if (v.actions.includes("turn") || v.actions.includes("recycle")) hand.classList.add("can");
  $("my-hand").replaceChildren(hand);
  for (const el of mine.querySelectorAll("[data-source]")) {
    el.addEventListener("click", () => pick(el.dataset.source));
  }
}

// "play R5 row2 p3" -> "row2"; "store G3 discard row0" -> "discard"; "refill row1" -> "row1"
function sourceOf(action) {
  const w = action.split(" ");
  if (w[0] === "play" || w[0] === "store") return w[2];
  if (w[0] === "refill") return w[1];
  if (w[0] === "turn" || w[0] === "recycle") return "hand";
  return null;
}

function targetOf(action) {
  const w = action.split(" ");
  if (w[0] === "play") return w[3] === "new" ? { kind: "new" } : { kind: "pile", id: Number(w[3].slice(1)) };
  if (w[0] === "store") return { kind: "row", slot: w[3] };
  return { kind: "self" };
}

function pick(source) {
  const v = state.view;
  // During the countdown a move is sent anyway: the server, the only judge
  // of the start time, answers "wait for Ligretto!" if it is early.
  if (!v || v.viewer === null || !state.table) return;
  if (state.table.phase !== "playing" && state.table.phase !== "countdown") return;
  if (state.chooser && state.chooser.source === source) return cancelChooser();
  cancelChooser();
  const actions = v.actions.filter((a) => sourceOf(a) === source);
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
    const t = targetOf(a);
    let el = null;
    if (t.kind === "pile") el = document.querySelector(`#middle [data-pile="${t.id}"]`);
    if (t.kind === "row") el = document.querySelector(`#mine [data-source="${t.slot}"]`);
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
    const fits = v.actions.filter((a) => a.startsWith("play") && a.endsWith(` p${id}`));
    if (fits.length >= 1) play(fits[0], sourceOf(fits[0]));
    return;
  }
  const action = state.chooser.actions.find((a) => {
    const t = targetOf(a);
    return t.kind === "pile" && t.id === id;
  });
  if (action) play(action, state.chooser.source);
}

function chooseNumber(n) {
  const action = state.chooser && state.chooser.actions[n - 1];
  if (action) play(action, state.chooser.source);
}

function cancelChooser() {
  state.chooser = null;
  $("chooser-hint").hidden = true;
  for (const el of document.querySelectorAll(".target, .chosen")) {
    el.classList.remove("target", "chosen");
    delete el.dataset.choice;
  }
}

function play(action, source) {
  cancelChooser();
  state.ref += 1;
  state.pending.set(state.ref, { action, source });
  const el = document.querySelector(`#mine [data-source="${source}"]`);
  if (el) el.classList.add("flying");
  send("move", { action, ref: state.ref });
}

document.addEventListener("keydown", (event) => {
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
  } else return;
});

// Space is "turn three": it must not also press whichever card has focus.
document.addEventListener("keyup", (event) => {
  if (event.key === " " && event.target instanceof HTMLButtonElement && event.target.dataset.source) {
    event.preventDefault();
  }
});

// ---------------------------------------------------------------- countdown, scores, toast

function showCountdown(startAtMs) {
  const box = $("countdown");
  box.hidden = false;
  const tick = () => {
    const left = startAtMs - (Date.now() + state.clockOffset);
    if (left <= 0) {
      flashGo();
      return;
    }
    box.textContent = Math.ceil(left / 1000);
    setTimeout(tick, Math.min(100, left));
  };
  tick();
}

function showScores(m) {
  state.lastRoundOver = m;
  const seats = state.table ? state.table.seats : [];
  $("scores-title").textContent = m.game_over ? T.game_over : fmt(T.round_over, { n: m.round_no });
  const rows = m.points.map((p, i) => {
    const tr = document.createElement("tr");
    if (i === state.seat) tr.className = "me";
    if (m.winners.includes(i)) tr.classList.add("winner");
    const cells = [
      (seats[i] ? seats[i].name : `#${i + 1}`) + (m.caller === i ? " ★" : ""),
      m.stacks[i],
      m.middle[i],
      p > 0 ? `+${p}` : String(p).replace("-", "−"),
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
  lines.push(m.caller !== null ? fmt(T.stop_by, { name: seats[m.caller] ? seats[m.caller].name : "" }) : T.deadlock);
  if (m.game_over && m.winners.length) lines.push(fmt(T.winner, { names: m.winners.map((w) => (seats[w] ? seats[w].name : w)).join(" & ") }));
  $("scores-next").textContent = lines.join(" ");
  clearInterval(state.scoresTimer);
  if (m.next_round_at) {
    const line = lines.join(" ");
    const update = () => {
      const s = Math.max(0, Math.round((m.next_round_at * 1000 - (Date.now() + state.clockOffset)) / 1000));
      $("scores-next").textContent = `${line} ${fmt(T.next_in, { s })}`;
    };
    update();
    state.scoresTimer = setInterval(update, 500);
  }
  $("scores").hidden = false;
  $("scores").focus({ preventScroll: false });
  renderTable();
}

function hideScores() {
  clearInterval(state.scoresTimer);
  $("scores").hidden = true;
}

let toastTimer = null;
function toast(text, kind) {
  const box = $("toast");
  box.textContent = text;
  box.dataset.kind = kind || "";
  box.hidden = false;
  box.classList.remove("show");
  void box.offsetWidth;
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.hidden = true;
  }, 1800);
}

connect();
