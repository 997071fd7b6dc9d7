// The screen-reader mode's voice: one polite live region (#announce) that
// speaks no faster than a speech synthesizer can say it.
//
// A table of four moves several times a second, far more than speech can
// follow. So news is not queued: each piece has a key (a pile, one of my
// places, "what I can play"), and a newer piece with the same key replaces
// the older one (the pile as it is now, not as it was twice before). At
// each turn the pieces are said together, the most important first: all
// that answers the player's own move (and the practice round's hint), then
// the others' news as far as it fits in MAX_WORDS; the rest waits for the
// next turn. The next turn comes after the words just said take at
// WORDS_PER_MINUTE (a screen reader's brisk default), at least GAP_MS and
// at most QUIET_MS, so a piece that waits one turn is still fresh; a piece
// older than STALE_MS when its turn comes is dropped, never said late (a
// voice would reach it more than 3 s after the change).
//
// What the player asked for ("Where am I?") and the round's end are said
// at once, in place of whatever waited.
//
// Each announcement names the change it reports (data-reports: the key of
// the table's message that brought the oldest news in it, "ask" when the
// player asked), so that how late it comes can be measured.
import { $ } from "./page.js";

export const GAP_MS = 1500;
export const QUIET_MS = 2500;
export const STALE_MS = 2800;
export const WORDS_PER_MINUTE = 250;
const MS_PER_WORD = 60000 / WORDS_PER_MINUTE;
export const MAX_WORDS = Math.floor(QUIET_MS / MS_PER_WORD);

// Ranks: the player's own play first, then the practice round's hint for
// the next one, what the play turned up in their places, the others' plays,
// and what they can play now last.
export const RANK = { played: 0, hint: 1, mine: 2, others: 3, can: 4 };

const pending = new Map(); // key -> {text, at, reports, rank, data}
let timer = null;
let quietUntil = 0;

export const words = (text) => text.split(/\s+/).filter(Boolean).length;

function region() {
  return $("announce");
}

// Say `text` as the news under `key` (replacing the key's older news).
// `reports`: the key of the table's message this news came with; `at`: when
// it came, on the page's clock; `data`: kept with it for `pendingData`.
export function say(key, text, { reports = "", rank = RANK.others, at = Date.now(), data = null } = {}) {
  if (!text) {
    pending.delete(key);
    return;
  }
  pending.set(key, { text, at, reports, rank, data });
  schedule();
}

// What waits under `key` (its `data`), to merge newer news into it.
export function pendingData(key) {
  const item = pending.get(key);
  return item ? item.data : null;
}

export function forget(key) {
  pending.delete(key);
}

// Nothing waiting is worth saying any more (a round ended, the mode went off).
export function clearPending() {
  pending.clear();
  clearTimeout(timer);
  timer = null;
  region().setAttribute("aria-busy", "false");
}

function schedule() {
  if (timer || !pending.size) return;
  // Busy while a sentence waits for its turn (ARIA: the region is being
  // updated), so nothing reads half of a merge.
  region().setAttribute("aria-busy", "true");
  timer = setTimeout(flush, Math.max(0, quietUntil - Date.now()));
}

function speak(text, reports, now, longest = QUIET_MS) {
  const box = region();
  box.dataset.reports = reports;
  box.textContent = text;
  quietUntil = now + Math.min(longest, Math.max(GAP_MS, words(text) * MS_PER_WORD));
}

function flush() {
  timer = null;
  const now = Date.now();
  for (const [key, item] of pending) if (now - item.at > STALE_MS) pending.delete(key);
  const order = [...pending.entries()].sort(([, a], [, b]) => a.rank - b.rank || a.at - b.at);
  const chosen = [];
  let count = 0;
  for (const [key, item] of order) {
    const n = words(item.text);
    // The answer to the player's own move is said whole; others' news
    // only as far as it fits, the rest in the next turn (if still fresh).
    if (item.rank > RANK.mine && chosen.length && count + n > MAX_WORDS) continue;
    chosen.push(item);
    count += n;
    pending.delete(key);
  }
  if (chosen.length) {
    const oldest = chosen.reduce((a, b) => (b.at < a.at ? b : a));
    speak(chosen.map((item) => item.text).join(" "), oldest.reports, now);
  }
  region().setAttribute("aria-busy", "false");
  schedule();
}

// Said at once, in place of whatever waited: an answer the player asked for
// (reports "ask"; the news after it waits until a voice has said it all),
// or the round's end (nothing that waited is news any more).
export function sayNow(text, reports = "ask") {
  clearPending();
  speak(text, reports, Date.now(), reports === "ask" ? Infinity : QUIET_MS);
}
