// "Quick game" at your level on /play (docs/online-play.md, "Bots at your
// level"): with a rating kept in this browser, the server names the bots
// that give an even game (GET /api/ratings/match) and the page says so;
// the quick-game form sends the rating along, and the server seats those
// bots. A newcomer keeps the three medium bots and no claim.
import { savedRating } from "./rating.js";

const line = document.getElementById("bot-match");
const rating = savedRating();

async function offer() {
  for (const field of document.querySelectorAll("[data-rating-mu]")) field.value = String(rating.mu);
  for (const field of document.querySelectorAll("[data-rating-sigma]")) field.value = String(rating.sigma);
  const query = new URLSearchParams({ mu: String(rating.mu), sigma: String(rating.sigma) });
  const response = await fetch(`/api/ratings/match?${query}`);
  if (!response.ok) return;
  const match = await response.json();
  if (!line) return;
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

if (rating) offer().catch(() => {}); // offline: the newcomer's bots, no claim
