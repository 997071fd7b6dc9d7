// Redrawing a list in place. A press and its release must meet the same
// element, or the browser makes no click of them: a tap on a button that a
// redraw replaced between the two is lost. So a redraw moves and keeps the
// elements it can, and replaces only what changed.

// Make `nodes` the element children of `box`, in order, moving only what
// is out of place (a node already in `box` stays where it can).
export function arrange(box, nodes) {
  nodes.forEach((node, i) => {
    if (box.children[i] !== node) box.insertBefore(node, box.children[i] || null);
  });
  while (box.children.length > nodes.length) box.lastElementChild.remove();
}

// Make `nodes` (freshly drawn) the children of `box`, keeping each old child
// that reads the same as a new one (isEqualNode: the same tags, attributes
// and text) in its stead, so a row that did not change stays the element it
// was while others come, go or move around it. Listeners belong on `box` (a
// tap is read from the element's data-*), since a kept child is not the new
// one.
export function replaceKeeping(box, nodes) {
  const old = [...box.children];
  const next = nodes.map((node) => {
    const i = old.findIndex((child) => child !== null && child.isEqualNode(node));
    if (i < 0) return node;
    const same = old[i];
    old[i] = null;
    return same;
  });
  const kept = new Set(next);
  for (const child of [...box.childNodes]) if (!kept.has(child)) child.remove();
  arrange(box, next);
}
