// The group page's forms: the group link carries its token in the fragment
// (#t=…), which no server sees. Take it into this phone's keeping at once,
// remove it from the address, and put it into the forms' hidden fields.
const KEY = "ligretto.group-tokens";
const script = document.getElementById("group-script");
const id = script ? script.dataset.group : null;

function load() {
  try {
    const tokens = JSON.parse(localStorage.getItem(KEY) || "{}");
    return tokens && typeof tokens === "object" ? tokens : {};
  } catch {
    return {};
  }
}

function keep(token) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...load(), [id]: token }));
  } catch {
    // Private mode or full storage: the group's cookie still serves this phone.
  }
}

if (id) {
  const match = /(?:^#|&)t=([\w-]+)/.exec(location.hash);
  if (match) {
    keep(match[1]);
    history.replaceState(history.state, "", location.pathname + location.search);
  }
  const token = load()[id];
  if (token) {
    for (const field of document.querySelectorAll("[data-group-token]")) {
      if (!field.value) field.value = token;
    }
    for (const field of document.querySelectorAll("[data-group-link]")) {
      field.value = `${location.origin}/groups/${id}/edit#t=${token}`;
    }
  }
}

// "Play online with this group": the online-play form with this group picked,
// its id and token in the fragment (the form posts them when there is no script).
const playOnline = document.getElementById("play-online");
if (id && playOnline) {
  playOnline.addEventListener("submit", (event) => {
    const token = load()[id] || playOnline.elements.group_token.value;
    if (!token) return;
    event.preventDefault();
    location.assign(`/play#group=${encodeURIComponent(id)}&gt=${encodeURIComponent(token)}`);
  });
}

// "Who plays (in seating order)": the order of the ticks is the seating
// order. Each ticked name shows its seat number, the line below the legend
// says the whole order, and the hidden "seating" field sends it (the
// server falls back to the list's order without it).
const seating = document.querySelector("[data-seating]");
if (seating) {
  const form = seating.form;
  const boxes = [...form.querySelectorAll('input[type="checkbox"][name="player"]')];
  const line = form.querySelector("[data-seating-line]");
  // The order sent last (a refused form comes back with it), then any box
  // the browser restored as ticked, in the list's order.
  const sent = seating.value.split("\n").filter(Boolean);
  let order = sent.filter((name) => boxes.some((box) => box.checked && box.value === name));
  for (const box of boxes) if (box.checked && !order.includes(box.value)) order.push(box.value);

  const show = () => {
    seating.value = order.join("\n");
    for (const box of boxes) {
      const seat = order.indexOf(box.value);
      const number = box.closest(".member-pick")?.querySelector("[data-seat-number]");
      if (number) number.textContent = seat < 0 ? "" : String(seat + 1);
    }
    if (line) {
      line.hidden = order.length === 0;
      line.textContent = line.dataset.text.replace("{names}", order.map((name, i) => `${i + 1} ${name}`).join(" · "));
    }
  };
  for (const box of boxes) {
    box.addEventListener("change", () => {
      order = order.filter((name) => name !== box.value);
      if (box.checked) order.push(box.value);
      show();
    });
  }
  show();
}
