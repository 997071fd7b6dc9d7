// Continue on another device: the seat link (token in its fragment) with its
// QR code, and what this page does once another connection took the seat.
import { $, T, code, setConnection, toast } from "./page.js";
import { connect, disconnect } from "./socket.js";
import { leaveSeat, savedToken, state } from "./state.js";

// Another connection came with this seat's token (docs/protocol.md): this
// page holds nothing any more, closes its socket and waits to be asked.
export function onTakenOver() {
  leaveSeat();
  setConnection("");
  if ($("seat-move").open) $("seat-move").close();
  $("taken-over").hidden = false;
  $("seat-move-open").hidden = true;
  disconnect();
}

export function initDevice() {
  $("play-here").addEventListener("click", () => {
    state.takenOver = false;
    $("taken-over").hidden = true;
    connect();
  });
  $("seat-move-open").addEventListener("click", async () => {
    const token = savedToken();
    if (!token) return;
    try {
      // The token goes in the body (never in a URL); the answer is the link
      // with the token in its fragment and the link's QR code.
      const answer = await fetch(`/play/${code}/seat-link`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token }),
      });
      if (!answer.ok) throw new Error(String(answer.status));
      const link = await answer.json();
      $("seat-link").value = link.url;
      $("seat-qr").innerHTML = link.qr_svg; // SVG made by the server (segno)
      $("seat-move").showModal();
    } catch {
      toast(T.seat_link_failed, "error");
    }
  });
  $("seat-link-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("seat-link").value);
    } catch {
      $("seat-link").select();
    }
    toast(T.seat_link_copied, "ok");
  });
  $("seat-move-close").addEventListener("click", () => $("seat-move").close());
  $("seat-move").addEventListener("close", () => {
    $("seat-link").value = "";
    $("seat-qr").textContent = "";
  });
}
