// The table's card painter (docs/online-play.md, "Cards for every eye"): a
// card is drawn the same wherever it is shown, at the table (board.js) and
// on the replay page (replay.js) -- one element, one look, one spoken name.

const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };

// Each colour's symbol (templates/_card_symbols.html, rendered into the page
// once): a card is never known by its colour alone.
const SYMBOLS = new Map();
const symbols = document.getElementById("card-symbols");
for (const box of symbols ? symbols.content.children : []) SYMBOLS.set(box.dataset.colour, box.firstElementChild);

// A card's element: a button for a place the player takes from (`source`),
// a picture otherwise.
export function newCard(source) {
  const el = document.createElement(source ? "button" : "div");
  if (source) {
    el.type = "button";
    el.dataset.source = source;
  }
  return el;
}

// A painter speaking the page's words for the colours (its text's `colours`,
// by colour letter).
export function cardPainter(colours) {
  // A card's name in the page's language ("grün 3"), for its accessible name.
  function cardName(text) {
    return `${(colours && colours[text[0]]) || text[0]} ${text.slice(1)}`;
  }

  // Paint `el` (reused or new) as a card: face `text`, or empty when null.
  function paintCard(el, text, { small = false, count = null, label = null } = {}) {
    const source = el.dataset.source;
    el.className = "card" + (small ? " small" : "");
    el.removeAttribute("aria-label");
    delete el.dataset.card;
    const parts = [];
    if (!text) {
      el.classList.add("empty");
      if (label) el.setAttribute("aria-label", label);
    } else {
      const colour = text[0];
      const value = text.slice(1);
      el.classList.add(`c-${colour}`);
      el.dataset.card = text;
      const v = document.createElement("span");
      v.className = "v";
      v.textContent = value === "1" && SUITS[colour] ? "A" : value;
      const symbol = SYMBOLS.get(colour);
      if (symbol) parts.push(symbol.cloneNode(true));
      parts.push(v);
      if (SUITS[colour]) {
        const suit = document.createElement("span");
        suit.className = "suit";
        suit.textContent = SUITS[colour];
        parts.push(suit);
      }
      el.setAttribute("aria-label", `${label ? label + ": " : ""}${cardName(text)}`);
    }
    if (text && count !== null) {
      const badge = document.createElement("span");
      badge.className = "count";
      badge.textContent = count;
      parts.push(badge);
    }
    el.replaceChildren(...parts);
    if (source) el.dataset.source = source;
    // A card that is no button (the others' cards, the piles) is a picture
    // with a name for a screen reader; without a name it says nothing.
    if (el.tagName !== "BUTTON") {
      if (el.hasAttribute("aria-label")) el.setAttribute("role", "img");
      else el.removeAttribute("role");
    }
    return el;
  }

  // Paint `el` as a card's back: the hand, face down, with its count.
  function paintBack(el, count) {
    el.className = "card back";
    el.removeAttribute("aria-label");
    delete el.dataset.card;
    const badge = document.createElement("span");
    badge.className = "count";
    badge.textContent = count;
    el.replaceChildren(badge);
    return el;
  }

  return { cardName, paintBack, paintCard };
}

// The cards' high-contrast look (table.css, data-contrast): the player's
// choice, remembered in this browser; without one, the system's "more
// contrast" setting, followed while the page is open.
const CONTRAST_KEY = "ligretto.play.contrast";

export function initCardTheme(root) {
  const more = matchMedia("(prefers-contrast: more)");
  const button = document.getElementById("contrast-toggle");
  const show = () => {
    const chosen = localStorage.getItem(CONTRAST_KEY);
    const on = chosen ? chosen === "on" : more.matches;
    root.dataset.contrast = on ? "on" : "off";
    if (button) button.setAttribute("aria-pressed", String(on));
  };
  show();
  more.addEventListener("change", show);
  if (button) {
    button.addEventListener("click", () => {
      localStorage.setItem(CONTRAST_KEY, root.dataset.contrast === "on" ? "off" : "on");
      show();
    });
  }
}
