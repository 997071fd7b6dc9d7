// Start page: add, remove and reorder name rows in place (the same buttons
// post the form without JavaScript), and list this browser's games.
import { loadGames } from "./games.js";
import { forgetGameHere, forgetGroupHere, unsentRounds } from "./forget.js";

const form = document.getElementById("new-game");
const list = document.getElementById("names");
const addButton = document.getElementById("add-player");
const deckCards = document.getElementById("deck-cards");

// R1's player limits come from the server (#names data-min-players, data-max-…).
function maxPlayers() {
  return Number(deckCards && deckCards.checked ? list.dataset.maxCards : list.dataset.maxLigretto);
}

function renumber() {
  const rows = [...list.querySelectorAll(".name-row")];
  rows.forEach((row, index) => {
    row.querySelector(".seat").textContent = String(index + 1);
    const input = row.querySelector("input");
    input.setAttribute("aria-label", input.getAttribute("aria-label").replace(/\d+/, String(index + 1)));
    for (const button of row.querySelectorAll("button")) {
      button.value = button.value.replace(/\d+$/, String(index));
      button.setAttribute("aria-label", button.getAttribute("aria-label").replace(/\d+/, String(index + 1)));
    }
    row.querySelector('[data-row-action="up"]').disabled = index === 0;
    row.querySelector('[data-row-action="remove"]').disabled = rows.length <= Number(list.dataset.minPlayers);
  });
  addButton.disabled = rows.length >= maxPlayers();
}

function addRow(after) {
  const rows = list.querySelectorAll(".name-row");
  if (rows.length >= maxPlayers()) return null;
  const template = rows[rows.length - 1];
  const row = template.cloneNode(true);
  const input = row.querySelector("input");
  input.value = "";
  input.removeAttribute("autofocus");
  if (after) after.after(row); else list.append(row);
  renumber();
  input.focus();
  return row;
}

if (form && list) {
  form.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-row-action], #add-player");
    if (!button) return;
    event.preventDefault();
    const row = button.closest(".name-row");
    if (button.id === "add-player") {
      addRow(null);
    } else if (button.dataset.rowAction === "remove") {
      const next = row.nextElementSibling || row.previousElementSibling;
      row.remove();
      renumber();
      (next && next.querySelector("input"))?.focus();
    } else if (button.dataset.rowAction === "up" && row.previousElementSibling) {
      row.previousElementSibling.before(row);
      renumber();
      button.disabled ? row.querySelector("input").focus() : button.focus();
    }
  });
  // Enter in a name moves on to the next name (and adds a row after the
  // last filled one) instead of creating the game half-typed.
  list.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.target.tagName !== "INPUT") return;
    const row = event.target.closest(".name-row");
    const next = row.nextElementSibling;
    if (next) {
      event.preventDefault();
      next.querySelector("input").focus();
    } else if (event.target.value.trim()) {
      event.preventDefault();
      addRow(row);
    }
  });
  deckCards?.addEventListener("change", renumber);
  // Choosing a target or typing one selects the target mode, typing a
  // number of rounds the rounds mode: one tap fewer.
  const pick = (value) => {
    const radio = form.querySelector(`input[name="mode"][value="${value}"]`);
    if (radio) radio.checked = true;
  };
  form.querySelectorAll('input[name="target"]').forEach((r) => r.addEventListener("change", () => pick("target")));
  form.querySelector("#target-other")?.addEventListener("input", () => {
    pick("target");
    const other = form.querySelector('input[name="target"][value="other"]');
    if (other) other.checked = true;
  });
  form.querySelector("#rounds")?.addEventListener("input", () => pick("rounds"));
  // Show only the settings of the chosen mode (without JS all stay visible).
  const syncMode = () => {
    const mode = form.querySelector('input[name="mode"]:checked')?.value || "target";
    const other = form.querySelector('input[name="target"][value="other"]')?.checked;
    document.getElementById("target-settings").hidden = mode !== "target";
    document.getElementById("rounds-settings").hidden = mode !== "rounds";
    document.getElementById("target-other-row").hidden = !other;
  };
  form.addEventListener("change", (event) => {
    if (event.target.name === "mode" || event.target.name === "target") syncMode();
    if (event.target.value === "other") form.querySelector("#target-other")?.focus();
  });
  syncMode();
  renumber();
}

// --- this browser's games ---
const gamesList = document.getElementById("my-games");
const itemTemplate = document.getElementById("game-item");
const words = JSON.parse(document.getElementById("games-i18n")?.textContent || "{}");

function describe(game) {
  const parts = [];
  if (game.status === "finished" && game.winners && game.winners.length && (game.mode === "target" || game.scored)) {
    parts.push((game.winners.length > 1 ? words.winners : words.winner).replace("%s", game.winners.join(" & ")));
  } else if (game.status === "finished") {
    parts.push(words.finished);
  } else if (game.status === "tiebreak") {
    parts.push(words.tiebreak);
  } else {
    parts.push(words.playing);
  }
  parts.push(words.rounds.replace("%s", String(game.rounds || 0)));
  if (!game.edit) parts.push(words.watching);
  if (game.seen) parts.push(new Date(game.seen).toLocaleDateString(document.documentElement.lang));
  return parts.join(" · ");
}

function showGames() {
  if (!gamesList || !itemTemplate) return;
  gamesList.replaceChildren();
  const games = loadGames();
  if (!games.length) {
    const empty = document.createElement("li");
    empty.className = "muted";
    empty.textContent = gamesList.dataset.empty;
    gamesList.append(empty);
    return;
  }
  for (const game of games) {
    const item = itemTemplate.content.firstElementChild.cloneNode(true);
    item.querySelector(".game-players").textContent = (game.players || []).join(", ");
    item.querySelector(".game-meta").textContent = describe(game);
    const open = item.querySelector(".game-open");
    open.href = game.edit || game.watch;
    open.setAttribute("aria-label", `${open.textContent}: ${(game.players || []).join(", ")}`);
    const again = item.querySelector(".game-again");
    if ((game.players || []).length >= 2) {
      again.setAttribute("aria-label", `${again.textContent}: ${(game.players || []).join(", ")}`);
      again.addEventListener("click", () => againWith(game, again));
    } else {
      again.remove();
    }
    item.querySelector(".game-forget").addEventListener("click", async () => {
      const waiting = await unsentRounds(game.id);
      if (waiting && !window.confirm(words.unsent || "")) return;
      await forgetGameHere(game.id);
      showGames();
    });
    gamesList.append(item);
  }
}
showGames();
// "New game, same players" in one tap: the game's players in their seats and
// its way of ending, read from the server (target, rounds, deck, row
// storage), posted as the board's own "New game, same players" form does.
// Without an answer (offline, a game gone) the form is filled instead, and
// one more tap on "Create game" starts it.
async function againWith(game, button) {
  button.disabled = true;
  let info = null;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(game.id)}`, { cache: "no-store" });
    if (response.ok) info = await response.json();
  } catch { /* offline: fill the form below */ }
  button.disabled = false;
  if (!info || !Array.isArray(info.players) || info.players.length < 2) {
    newGameWith(game);
    return;
  }
  const post = document.createElement("form");
  post.method = "post";
  post.action = "/";
  post.hidden = true;
  const field = (name, value) => {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = String(value);
    post.append(input);
  };
  field("action", "create");
  for (const name of info.players) field("player", name);
  field("mode", info.mode);
  if (info.mode === "target") {
    field("target", "other");
    field("target_other", info.target);
  } else {
    field("rounds", info.agreed_rounds);
  }
  if (info.deck === "cards") field("deck", "cards");
  if (info.row_storage) field("row_storage", "1");
  document.body.append(post);
  post.submit();
}

// The form filled with the game's names in their seats and its way of
// ending (when the server cannot be asked).
function newGameWith(game) {
  if (!form || !list) return;
  const names = game.players || [];
  if (deckCards) deckCards.checked = names.length > Number(list.dataset.maxLigretto);
  renumber();
  while (list.querySelectorAll(".name-row").length < names.length && addRow(null));
  // Rows beyond the game's players go (never below the minimum of seats).
  const rows = [...list.querySelectorAll(".name-row")];
  for (const row of rows.slice(Math.max(names.length, Number(list.dataset.minPlayers) || 2))) row.remove();
  renumber();
  list.querySelectorAll(".name-row input").forEach((input, index) => {
    input.value = names[index] || "";
  });
  const mode = form.querySelector(`input[name="mode"][value="${game.mode === "rounds" ? "rounds" : "target"}"]`);
  if (mode) {
    mode.checked = true;
    mode.dispatchEvent(new Event("change", { bubbles: true })); // shows the mode's settings
  }
  newPanel.scrollIntoView({ block: "start" });
  form.querySelector('button.primary.big[value="create"]')?.focus({ preventScroll: true });
}

// --- this browser's groups (their tokens kept by the group pages) ---
const groupsList = document.getElementById("my-groups");

function knownGroups() {
  try {
    const tokens = JSON.parse(localStorage.getItem("ligretto.group-tokens") || "{}");
    return tokens && typeof tokens === "object" ? Object.keys(tokens) : [];
  } catch {
    return [];
  }
}

async function showGroups(ids) {
  const items = await Promise.all(ids.map(async (id) => {
    try {
      const response = await fetch(`/api/groups/${encodeURIComponent(id)}`);
      if (!response.ok) return null;
      const name = (await response.json()).name;
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.className = "button small";
      link.href = `/groups/${encodeURIComponent(id)}`;
      link.textContent = name;
      const forget = document.createElement("button");
      forget.type = "button";
      forget.className = "small group-forget";
      forget.textContent = "✕";
      forget.setAttribute("aria-label", `${words.forgetGroup || "✕"}: ${name}`);
      forget.addEventListener("click", async () => {
        await forgetGroupHere(id);
        item.remove();
        groupsList.hidden = !groupsList.children.length;
      });
      item.append(link, forget);
      return item;
    } catch {
      return null;
    }
  }));
  groupsList.replaceChildren(...items.filter(Boolean));
  groupsList.hidden = !groupsList.children.length;
}

// Back at the table with a game going: resuming it is the likelier wish;
// the games and groups this browser knows come before the form.
const gamesPanel = document.getElementById("my-games-panel");
const groupsPanel = document.getElementById("groups");
const newPanel = document.getElementById("new-game-panel");
const hasErrors = Boolean(document.getElementById("form-errors"));
const groupIds = knownGroups();
if (newPanel && !hasErrors) {
  if (loadGames().length && gamesPanel) newPanel.before(gamesPanel);
  if (groupIds.length && groupsPanel) newPanel.before(groupsPanel);
}
if (groupsList && groupIds.length) showGroups(groupIds);
