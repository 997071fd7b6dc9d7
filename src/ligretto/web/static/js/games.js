// The games this browser created or opened, kept in localStorage so the
// start page can list them (newest first) and resume one.
import { keepToken } from "./tokens.js";

const KEY = "ligretto.games";
const LIMIT = 30;

export function loadGames() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(games) ? games.map(withoutToken) : [];
  } catch {
    return [];
  }
}

// Games remembered before edit links moved their token into the fragment
// kept "/g/{id}/edit/{token}": keep the token aside, the address without it.
function withoutToken(game) {
  const match = /^\/g\/([\w-]+)\/edit\/([\w-]+)$/.exec(game?.edit || "");
  if (!match) return game;
  keepToken(match[1], match[2]);
  return { ...game, edit: `/g/${match[1]}/edit` };
}

function saveGames(games) {
  try {
    localStorage.setItem(KEY, JSON.stringify(games.slice(0, LIMIT)));
  } catch {
    // Private mode or full storage: the list is a convenience, the game is safe on the server.
  }
}

// Remember a game; an edit link once known is kept even when the game is
// later opened through its watch link.
export function rememberGame(info) {
  const games = loadGames();
  const old = games.find((g) => g.id === info.id) || {};
  const merged = { ...old, ...info, edit: info.edit || old.edit || null, seen: Date.now() };
  saveGames([merged, ...games.filter((g) => g.id !== info.id)]);
}

export function forgetGame(id) {
  saveGames(loadGames().filter((g) => g.id !== id));
}
