// Undo (T6) for the last save or removal of a round: a bar at the bottom of
// the screen for a few seconds after it (docs/tafel-guide.md, "Undo").
//
// - The server's Undo: after a save that redirected to the board, the page
//   holds a form (templates/_undo.html) that works without JavaScript; here
//   it floats at the bottom and goes after its seconds. It is sent by the
//   script, so a phone without a connection gets a message, never the
//   browser's error page; a refusal (another phone changed the game) is
//   shown by the server's page.
// - An entry just kept on the phone (offline.js): Undo takes it out of the
//   outbox while it is still there.
const readJson = (id) => {
  try { return JSON.parse(document.getElementById(id)?.textContent || "null"); } catch { return null; }
};
const texts = readJson("offline-texts") || {};
const t = (key, values = {}) => (texts[key] || key).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");

const SECONDS = 10;
let shown = null; // {bar, timer}

function dismiss() {
  if (!shown) return;
  clearTimeout(shown.timer);
  shown.bar.remove();
  shown = null;
  giveRoomBack();
}

// The bar covers nothing the scorekeeper needs: the page gets room below
// its end for it (so the last Save button can scroll above it), scrolling
// to a field or button stops above it, and a Save button it lies on right
// now moves up, unless that would push the field being typed in under the
// board's title row.
const root = document.documentElement;

function makeRoom(bar) {
  const room = Math.ceil(root.clientHeight - bar.getBoundingClientRect().top + 8);
  root.style.setProperty("--undo-room", `${room}px`);
  root.classList.add("has-undo-bar");
  const top = bar.getBoundingClientRect().top - 8;
  const title = document.querySelector(".board-title")?.getBoundingClientRect().bottom || 0;
  const focused = document.activeElement?.matches?.("input, select, textarea")
    ? document.activeElement.getBoundingClientRect().top : Infinity;
  for (const button of document.querySelectorAll("form[data-entry] button.primary")) {
    const box = button.getBoundingClientRect();
    if (!box.height || box.top >= root.clientHeight || box.bottom <= top) continue;
    const by = box.bottom - top;
    if (focused - by >= Math.max(0, title)) window.scrollBy(0, by);
    break;
  }
}

function giveRoomBack() {
  root.classList.remove("has-undo-bar");
  root.style.removeProperty("--undo-room");
}

function float(bar, seconds) {
  dismiss();
  bar.classList.add("toast");
  document.body.append(bar);
  makeRoom(bar);
  // The browser scrolls to the address's #anchor once the page has loaded:
  // the room is measured again after that.
  if (document.readyState !== "complete") {
    window.addEventListener("load", () => requestAnimationFrame(() => { if (shown?.bar === bar) makeRoom(bar); }), { once: true });
  }
  const timer = setTimeout(() => { if (shown?.bar === bar) dismiss(); }, seconds * 1000);
  shown = { bar, timer };
}

function note(bar, text) {
  let line = bar.querySelector(".undo-note");
  if (!line) {
    line = document.createElement("span");
    line.className = "undo-note";
    line.setAttribute("role", "alert");
    bar.querySelector(".undo-text")?.after(line);
  }
  line.textContent = text;
}

// Load *address*, afresh also when it is the page's own.
function go(address) {
  const url = new URL(address, location.href);
  if (url.pathname + url.search === location.pathname + location.search) {
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
    location.reload();
  } else {
    location.assign(url.href);
  }
}

// The server's Undo bar, if the page has one.
export function start(token) {
  const form = document.querySelector("form[data-undo]");
  if (!form) return;
  float(form, Number(form.dataset.seconds || SECONDS));
  form.addEventListener("submit", async (event) => {
    if (form.dataset.native) return;
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    clearTimeout(shown?.timer); // being used: it stays until it is done
    let response;
    try {
      const headers = token ? { "X-Edit-Token": token } : {};
      response = await fetch(form.action, { method: "POST", body: new FormData(form), headers });
    } catch {
      note(form, t("undo_offline"));
      setTimeout(() => { if (button) button.disabled = false; }, 0);
      return;
    }
    if (response.ok && response.redirected) {
      go(response.url);
      return;
    }
    // Refused: the server's page says why (and shows the board as it is).
    form.dataset.native = "1";
    form.requestSubmit();
  });
}

// Entries the phone still has to send build on the version the server's
// Undo would take back: it is not offered then.
export function withdraw() {
  if (shown?.bar.matches("form[data-undo]")) dismiss();
}

// A conflict to decide takes the screen: an Undo of what the phone just
// kept would decide it behind the scorekeeper's back.
export function withdrawLocal() {
  if (shown && !shown.bar.matches("form[data-undo]")) dismiss();
}

// Offer to take back something the phone just did itself.
export function offerLocal(text, undo) {
  const bar = document.createElement("div");
  bar.className = "undo-bar no-print";
  bar.setAttribute("role", "status");
  const label = document.createElement("span");
  label.className = "undo-text";
  label.textContent = text;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "small";
  button.textContent = t("undo");
  button.addEventListener("click", async () => {
    button.disabled = true;
    dismiss();
    await undo();
  });
  bar.append(label, button);
  float(bar, SECONDS);
}
