// The edit tokens this phone keeps, by game id. An edit link carries its
// token in the fragment (#t=…), which no server sees; the page takes it
// from there into localStorage at once and removes it from the address,
// so a copied address or a bookmark never hands out editing by accident.
const KEY = "ligretto.tokens";

function load() {
  try {
    const tokens = JSON.parse(localStorage.getItem(KEY) || "{}");
    return tokens && typeof tokens === "object" ? tokens : {};
  } catch {
    return {};
  }
}

export function tokenFor(id) {
  return (id && load()[id]) || null;
}

export function keepToken(id, token) {
  if (!id || !token) return;
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...load(), [id]: token }));
  } catch {
    // Private mode or full storage: the edit cookie still serves this phone.
  }
}

// The game id of an edit page (/g/{id}/edit, /g/{id}/edit/rounds/3 …), or null.
export function editedGame(path = location.pathname) {
  const match = /^\/g\/([\w-]+)\/edit(?:\/|$)/.exec(path);
  return match ? match[1] : null;
}

// Take a token from the address (#t=…) into the phone's keeping; returns
// the token this phone has for the game (from the address or kept before).
export function takeToken(id) {
  const match = /(?:^#|&)t=([\w-]+)/.exec(location.hash);
  if (match) {
    keepToken(id, match[1]);
    history.replaceState(history.state, "", location.pathname + location.search);
  }
  return tokenFor(id);
}

// The full edit link to hand to a second scorekeeper.
export function editLink(id, token) {
  return `${location.origin}/g/${id}/edit#t=${token}`;
}
