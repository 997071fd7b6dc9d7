// What is typed into an entry form survives a reload, a closed tab and a
// locked phone: every change is kept in localStorage under the game, the
// step and the round, and put back when the same form is shown again.
// A draft of a step the board has moved past is dropped.
const PREFIX = "ligretto.draft.";

const keyOf = (game, form) => `${PREFIX}${game}.${form.dataset.entry}.${form.dataset.round}`;

function fields(form) {
  return [...form.querySelectorAll(".stepper input, input[data-stop-for]")];
}

export function saveDraft(game, form) {
  const values = {};
  let any = false;
  for (const field of fields(form)) {
    if (field.type === "checkbox") values[field.name + ":" + field.value] = field.checked;
    else values[field.name] = field.value;
    if (field.type === "checkbox" ? field.checked : field.value !== "") any = true;
  }
  try {
    if (any) localStorage.setItem(keyOf(game, form), JSON.stringify(values));
    else localStorage.removeItem(keyOf(game, form));
  } catch {
    // Full or private storage: typing still works, it just is not kept.
  }
}

export function dropDraft(game, form) {
  try { localStorage.removeItem(keyOf(game, form)); } catch { /* nothing kept */ }
}

// Put a kept draft back into *form*, unless the server already filled it
// (a refused entry comes back with what was typed). Returns whether it did.
export function restoreDraft(game, form) {
  let values = null;
  try { values = JSON.parse(localStorage.getItem(keyOf(game, form)) || "null"); } catch { values = null; }
  if (!values) return false;
  // A correction form starts with the round's numbers: a draft there is
  // the change being typed. The board's steps start empty: numbers there
  // come from a refused entry and win over the draft.
  const served = fields(form).some((f) => f.type !== "checkbox" && f.defaultValue !== "");
  if (served && form.dataset.entry !== "correct") return false;
  for (const field of fields(form)) {
    if (field.type === "checkbox") {
      const key = field.name + ":" + field.value;
      if (key in values) field.checked = values[key];
    } else if (field.name in values) {
      field.value = values[field.name];
    }
  }
  return true;
}

// Drop the drafts of this game's board steps that no open form has any more.
export function dropStale(game, forms) {
  const keep = new Set(forms.map((form) => keyOf(game, form)));
  try {
    for (let i = localStorage.length - 1; i >= 0; i -= 1) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(`${PREFIX}${game}.`) || keep.has(key)) continue;
      if (key.includes(".correct.")) continue; // corrections are dropped when saved
      localStorage.removeItem(key);
    }
  } catch {
    // nothing kept
  }
}
