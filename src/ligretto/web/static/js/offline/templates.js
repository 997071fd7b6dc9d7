// Copies of the board's pieces that the edit page carries as <template>
// elements (_offline_templates.html, drawn by the server's own macros and
// cell writers). The offline board is built from them: the script writes
// in numbers and words, and never markup of its own.

// A copy of the template *name* (a fragment; empty when the page has none).
export function copy(name) {
  const template = document.getElementById(`tpl-${name}`);
  return template ? template.content.cloneNode(true) : document.createDocumentFragment();
}

// The first element of a copy of *name* (a row, a cell, a panel).
export const first = (name) => copy(name).firstElementChild;

// Write *text* into every place of *root* marked data-fill="name".
export function fill(root, name, text) {
  for (const el of root.querySelectorAll(`[data-fill="${name}"]`)) el.textContent = String(text);
}

// Leave out the parts of *root* marked data-if="name" unless *wanted*.
export function keepIf(root, name, wanted) {
  if (wanted) return;
  for (const el of root.querySelectorAll(`[data-if="${name}"]`)) el.remove();
}

// Leave out the elements of *root* that *selector* finds unless *wanted*.
export function keepOnly(root, selector, wanted) {
  if (wanted) return;
  for (const el of root.querySelectorAll(selector)) el.remove();
}
