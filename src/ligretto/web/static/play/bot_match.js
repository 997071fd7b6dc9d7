// "Quick game" at your level (docs/online-play.md, "Bots at your level"),
// on /play and on the start page: every quick-game form sends the rating
// kept in this browser along (its hidden mu and sigma), so the server seats
// the bots that give an even game. Where the page has the line for it
// (/play), the server names those bots (GET /api/ratings/match) and the
// page says so. A newcomer keeps the three medium bots and no claim.
import { fillRatingFields, savedRating } from "./rating.js";

const line = document.getElementById("bot-match");
const rating = savedRating();

async function offer() {
  const query = new URLSearchParams({ mu: String(rating.mu), sigma: String(rating.sigma) });
  const response = await fetch(`/api/ratings/match?${query}`);
  if (!response.ok) return;
  const match = await response.json();
  const names = JSON.parse(line.dataset.levels);
  const levels = [...new Set(match.bots.map((b) => names[b.level] || b.level))].join(", ");
  // About: to the nearest 5 %, as the page's language writes a percentage.
  const chance = Math.round(match.chance * 20) / 20;
  const percent = new Intl.NumberFormat(document.documentElement.lang, { style: "percent" }).format(chance);
  line.textContent = line.dataset.text.replace("{percent}", percent).replace("{levels}", levels);
  line.hidden = false;
  const plain = document.getElementById("quick-plain");
  if (plain) plain.hidden = true;
}

if (rating) {
  fillRatingFields();
  if (line) offer().catch(() => {}); // offline: the newcomer's bots, no claim
}
