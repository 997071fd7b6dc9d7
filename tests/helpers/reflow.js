// What of a page does not reflow at 200 % (tests/helpers/reflow.py says what
// each list means). Kept as a script of its own so that it reads as
// JavaScript; reflow.py hands it to page.evaluate with the scope to measure.
(scope) => {
  const hidden = (el) => el.closest('.visually-hidden, .skip-link, template, [hidden]');
  const name = (el) => el.id ? '#' + el.id
    : `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${(el.textContent || '').trim().slice(0, 30)}"`;
  const width = document.documentElement.clientWidth;
  const out = {wide: [], unreachable: [], cut: [], broken: []};
  const root = document.querySelector(scope) || document.body;
  if (document.documentElement.scrollWidth > width + 1) {
    out.wide.push(`the page is ${document.documentElement.scrollWidth} px wide, the screen ${width}`);
  }
  // Anything past either edge, unless a box that scrolls holds it.
  const scrolls = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (['auto', 'scroll'].includes(s.overflowX)) return true;
    }
    return false;
  };
  const outside = new Set();  // named once: the outermost box past an edge
  for (const el of root.querySelectorAll('*')) {
    if (!el.checkVisibility() || hidden(el) || scrolls(el) || outside.has(el.parentElement)) {
      if (outside.has(el.parentElement)) outside.add(el);
      continue;
    }
    if (el.closest('.toast, .countdown')) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    if (r.left < -1 || r.right > width + 1) {
      outside.add(el);
      out.wide.push(`${name(el)} at ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  // Text past either edge, and words broken across lines where the word
  // whole would have fitted its line (a break it could not avoid is not one).
  // A line's room: the content width of the block the text flows in; for
  // text loose in a flex or grid box (no element of its own, beside a
  // radio button say), what the box's other children leave of it.
  const blockOf = (n) => {
    let box = n.parentElement;
    while (box.parentElement && getComputedStyle(box).display === 'inline') box = box.parentElement;
    return box;
  };
  const room = (n) => {
    const box = blockOf(n);
    const s = getComputedStyle(box);
    const inner = box.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    if (n.parentElement !== box || !/flex|grid/.test(s.display)) return inner;
    const others = [...box.children].filter((c) => c.checkVisibility());
    const outer = (c) => {
      const m = getComputedStyle(c);
      return c.getBoundingClientRect().width + parseFloat(m.marginLeft) + parseFloat(m.marginRight);
    };
    const taken = others.reduce((sum, c) => sum + outer(c), 0);
    return inner - taken - (parseFloat(s.columnGap) || 0) * others.length;
  };
  const pen = document.createElement('canvas').getContext('2d');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el.checkVisibility() || hidden(el) || scrolls(el) || outside.has(el)) continue;
    const range = document.createRange();
    for (const match of n.textContent.matchAll(/\S+/g)) {
      range.setStart(n, match.index);
      range.setEnd(n, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      if (rects.some((r) => r.left < -1 || r.right > width + 1)) {
        out.wide.push(`"${match[0]}" in ${name(el)}`);
      }
      const lines = new Set(rects.map((r) => Math.round(r.top)));
      if (lines.size < 2 || /[-\u00ad\u2010-\u2014\/]/.test(match[0])) continue;
      pen.font = getComputedStyle(el).font;
      const need = pen.measureText(match[0]).width;
      const line = room(n);
      // Avoidable: the word fits its line; or a box narrower than half the
      // screen broke a word that half the screen holds ("Kee p").
      const narrow = blockOf(n).getBoundingClientRect().width < width / 2;
      if (need + 2 <= line || (narrow && need <= width / 2)) {
        out.broken.push(`"${match[0]}" in ${name(el)}`);
      }
    }
  }
  // Every control and card, scrolled into view: inside the width, on top at its centre.
  const controls = 'button, a[href], select, input:not([type=hidden]), summary, textarea, .card';
  for (const el of root.querySelectorAll(controls)) {
    if (!el.checkVisibility() || hidden(el) || el.closest('.countdown, .toast, .drag-ghost')) continue;
    el.scrollIntoView({block: 'center', inline: 'center'});
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const x = Math.min(Math.max(r.left + r.width / 2, 0), width - 1);
    const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    const labelled = el.labels && [...el.labels].some((l) => l === hit || l.contains(hit));
    if (r.left < -1 || r.right > width + 1) out.unreachable.push(`${name(el)}: outside the width`);
    else if (!hit || !(el === hit || el.contains(hit) || hit.contains(el) || labelled)) {
      out.unreachable.push(`${name(el)}: under ${hit ? name(hit) : 'nothing'}`);
    }
  }
  window.scrollTo(0, 0);
  // Text in a box that hides what does not fit, and does not fit.
  for (const el of root.querySelectorAll('*')) {
    if (!el.checkVisibility() || hidden(el)) continue;
    const s = getComputedStyle(el);
    const clipsX = ['hidden', 'clip'].includes(s.overflowX);
    const clipsY = ['hidden', 'clip'].includes(s.overflowY);
    if (!clipsX && !clipsY) continue;
    if (!(el.innerText || '').trim()) continue;
    if ((clipsX && el.scrollWidth > el.clientWidth + 1) || (clipsY && el.scrollHeight > el.clientHeight + 1)) {
      out.cut.push(`${name(el)}: ${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight}`);
    }
  }
  return out;
}
