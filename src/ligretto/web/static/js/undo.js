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
}

function float(bar, seconds) {
  dismiss();
  bar.classList.add("toast");
  document.body.append(bar);
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
