// Show only as many seat choices as the table has seats (seat 1 is the host's).
// The limits are the field's own min and max, rendered by the server (R1).
const seats = document.getElementById("seats");
const rows = [...document.querySelectorAll("#seat-plan .seat-choice")];
function update() {
  const least = Number(seats.min);
  const n = Math.max(least, Math.min(Number(seats.max), Number(seats.value) || least));
  for (const row of rows) row.hidden = Number(row.dataset.seat) > n;
}
seats.addEventListener("input", update);
update();
