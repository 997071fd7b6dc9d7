// Show only as many seat choices as the table has seats (seat 1 is the host's).
const seats = document.getElementById("seats");
const rows = [...document.querySelectorAll("#seat-plan .seat-choice")];
function update() {
  const n = Math.max(2, Math.min(16, Number(seats.value) || 2));
  for (const row of rows) row.hidden = Number(row.dataset.seat) > n;
}
seats.addEventListener("input", update);
update();
