// Words split over two lines and text wider than its box (tests/helpers/words.py
// says what is listed); words.py hands it to page.evaluate.
([selector, always]) => {
  const out = [];
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}`
    + `${[...el.classList].map((c) => '.' + c).join('')}`;
  const pen = document.createElement('canvas').getContext('2d');
  // The room of a line: the content width of the block the text flows in.
  const room = (el) => {
    let box = el;
    while (box.parentElement && getComputedStyle(box).display.startsWith('inline')) box = box.parentElement;
    const s = getComputedStyle(box);
    return box.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
  };
  for (const box of document.querySelectorAll(selector)) {
    if (!box.checkVisibility() || box.closest('.visually-hidden')) continue;
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el.checkVisibility() || el.closest('.visually-hidden')) continue;
      const range = document.createRange();
      for (const m of n.textContent.matchAll(/\S+/g)) {
        if (/[-\u00ad\u2010-\u2014\/]/.test(m[0])) continue;
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        if (new Set(rects.map((r) => Math.round(r.top))).size < 2) continue;
        // From its parts: the shorthand reads "" where a part it cannot
        // say is set (tabular numbers, say).
        const f = getComputedStyle(el);
        pen.font = `${f.fontStyle} ${f.fontWeight} ${f.fontSize} ${f.fontFamily}`;
        const need = pen.measureText(m[0]).width;
        if (always || need + 1 <= room(el)) out.push(`"${m[0]}" split in ${name(el)} (${Math.round(need)} of ${Math.round(room(el))} px)`);
      }
    }
    if (box.scrollWidth > box.clientWidth + 1) {
      out.push(`${name(box)} "${box.textContent.trim().slice(0, 30)}" is ${box.scrollWidth} px in ${box.clientWidth}`);
    }
  }
  return out;
}
