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
