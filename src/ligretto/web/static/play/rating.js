// This browser's rating against the bots (docs/online-play.md, "Bots at
// your level"): kept in localStorage, moved after each finished game
// against bots by the server's one rule (POST /api/ratings/update), once a
// game. Only bots count (the server leaves out the ones never calibrated);
// other people at the table are left out, as a group leaves out a guest.
const KEY = "ligretto.play.rating";
const RATED = "ligretto.play.rated"; // the last game rated, so a message heard twice counts once

// The rating kept here ({mu, sigma, games}), or null: a newcomer.
export function savedRating() {
  try {
    const r = JSON.parse(localStorage.getItem(KEY));
    if (r && Number.isFinite(r.mu) && Number.isFinite(r.sigma)) return r;
  } catch {
    // nothing kept, or not a rating: a newcomer
  }
  return null;
}

// Every quick-game form in `scope` sends the rating kept here along (its
// hidden mu and sigma fields), so the server seats the bots matched to it.
export function fillRatingFields(scope = document) {
  const r = savedRating();
  if (!r) return;
  for (const field of scope.querySelectorAll("[data-rating-mu]")) field.value = String(r.mu);
  for (const field of scope.querySelectorAll("[data-rating-sigma]")) field.value = String(r.sigma);
}

// A game is over (round_over with game_over): rate it for `seat` once.
export async function rateGame(table, seat, roundOver) {
  if (seat === null || !table) return;
  const bots = table.seats
    .filter((s) => s.kind === "bot" && s.seat !== seat)
    .map((s) => ({ strategy: s.strategy, level: s.level, points: roundOver.totals[s.seat] }));
  if (!bots.length) return;
  const id = `${table.code}:${table.tafel_game || ""}:${roundOver.round_no}`;
  if (localStorage.getItem(RATED) === id) return;
  localStorage.setItem(RATED, id);
  const before = savedRating();
  try {
    const response = await fetch("/api/ratings/update", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        rating: before ? { mu: before.mu, sigma: before.sigma } : null,
        points: roundOver.totals[seat],
        bots,
      }),
    });
    if (!response.ok) return;
    const answer = await response.json();
    if (!answer.bots_counted || !answer.rating) return;
    const games = (before && before.games) || 0;
    localStorage.setItem(KEY, JSON.stringify({ ...answer.rating, games: games + 1 }));
  } catch {
    // Offline at the game's end: this game goes unrated.
  }
}
