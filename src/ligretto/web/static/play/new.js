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

// The group the table's games are recorded into. The group page's button
// brings its id and token in the fragment (#group=…&gt=…), which no server
// sees: they go into the forms' hidden fields and out of the address. The
// groups this browser knows (their tokens kept by the group pages) can be
// picked too; their names come from the group API (read by id).
const KEY = "ligretto.group-tokens";
const groupFields = [...document.querySelectorAll("[data-play-group]")];
const tokenFields = [...document.querySelectorAll("[data-play-group-token]")];
const note = document.getElementById("group-note");
const noteName = document.getElementById("group-name");
const choice = document.getElementById("group-choice");
const pick = document.getElementById("group-pick");

function knownGroups() {
  try {
    const tokens = JSON.parse(localStorage.getItem(KEY) || "{}");
    return tokens && typeof tokens === "object" ? tokens : {};
  } catch {
    return {};
  }
}

async function groupName(id) {
  try {
    const response = await fetch(`/api/groups/${encodeURIComponent(id)}`);
    if (!response.ok) return null;
    return (await response.json()).name;
  } catch {
    return null;
  }
}

function useGroup(id, token, name) {
  for (const field of groupFields) field.value = id || "";
  for (const field of tokenFields) field.value = token || "";
  note.hidden = !id;
  noteName.textContent = id ? name || "" : "";
  if (pick.value !== (id || "")) pick.value = id || "";
}

async function setUpGroups() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has("group")) {
    history.replaceState(history.state, "", location.pathname + location.search);
  }
  const known = knownGroups();
  let id = params.get("group") || groupFields[0]?.value || "";
  let token = params.get("gt") || tokenFields[0]?.value || (id ? known[id] : "") || "";
  if (id && token) useGroup(id, token, noteName.textContent);
  const ids = Object.keys(known).slice(0, 12);
  if (id && !ids.includes(id)) ids.unshift(id);
  const names = await Promise.all(ids.map(groupName));
  ids.forEach((groupId, i) => {
    if (names[i] === null) return; // deleted, or not on this server
    const option = document.createElement("option");
    option.value = groupId;
    option.textContent = names[i];
    pick.append(option);
  });
  if (id && token) {
    const index = ids.indexOf(id);
    useGroup(id, token, names[index] ?? noteName.textContent);
  }
  choice.hidden = pick.options.length < 2;
  pick.addEventListener("change", () => {
    id = pick.value;
    token = id === params.get("group") ? params.get("gt") : known[id];
    const option = pick.selectedOptions[0];
    useGroup(id, token, option ? option.textContent : "");
  });
  document.getElementById("group-off").addEventListener("click", (event) => {
    event.preventDefault();
    useGroup("", "", "");
  });
}

if (note && pick) setUpGroups();
