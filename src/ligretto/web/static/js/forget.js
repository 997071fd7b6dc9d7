// "Forget" on a phone passed round the table: everything this browser kept
// about a game or a group goes. Its entry in the list, its edit token,
// what was typed (drafts), rounds not yet sent, the notes of this tab, the
// service worker's copies of its pages and its state, and (the cookie is
// HttpOnly, no script reads or deletes it) its edit cookie, which the
// server expires (pages/forget.py). Offline, the cookie stays until the
// next time; everything else is gone at once.
import { forgetGame as dropFromList } from "./games.js";
import * as outbox from "./outbox.js";

const CACHE = "tafel-v1"; // the service worker's (sw.js)

function dropKeys(storage, test) {
  try {
    for (let i = storage.length - 1; i >= 0; i -= 1) {
      const key = storage.key(i);
      if (key && test(key)) storage.removeItem(key);
    }
  } catch { /* storage off: nothing kept there */ }
}

function dropEntry(key, id) {
  try {
    const all = JSON.parse(localStorage.getItem(key) || "{}");
    if (all && typeof all === "object" && id in all) {
      delete all[id];
      localStorage.setItem(key, JSON.stringify(all));
    }
  } catch { /* nothing kept */ }
}

async function expireCookie(path) {
  try {
    await fetch(path, { method: "POST", credentials: "same-origin" });
  } catch { /* offline: the cookie stays until the next forget */ }
}

// How many rounds of the game wait on this phone to be sent (lost when forgotten).
export async function unsentRounds(id) {
  try {
    return (await outbox.pending(id)).length;
  } catch {
    return 0;
  }
}

export async function forgetGameHere(id) {
  dropFromList(id);
  dropEntry("ligretto.tokens", id);
  dropKeys(localStorage, (key) => key.startsWith(`ligretto.draft.${id}.`));
  dropKeys(sessionStorage, (key) => key === `ligretto.settled.${id}`);
  try { await outbox.replace(id, []); } catch { /* no IndexedDB: nothing waits */ }
  if (window.caches) {
    try {
      const cache = await caches.open(CACHE);
      const paths = [`/g/${id}`, `/g/${id}/edit`, `/g/${id}/edit/history`, `/g/${id}/history`, `/api/games/${id}`];
      await Promise.all(paths.map((path) => cache.delete(location.origin + path)));
    } catch { /* no cache kept */ }
  }
  await expireCookie(`/g/${encodeURIComponent(id)}/edit/forget`);
}

export async function forgetGroupHere(id) {
  dropEntry("ligretto.group-tokens", id);
  await expireCookie(`/groups/${encodeURIComponent(id)}/edit/forget`);
}
