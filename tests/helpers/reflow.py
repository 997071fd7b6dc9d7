"""Pages at twice the size (WCAG 1.4.4 and 1.4.10): a phone whose browser
text is 200 % or whose page zoom is 200 %, and what on a page does not fit.

- *Text at 200 %*: Chromium's own default font size (the setting a reader
  changes) at 32 px instead of 16, through the DevTools protocol: the pages'
  rem and em grow with it, media queries in em too.
- *Zoom at 200 %*: a 360 px phone zoomed to 200 % lays the page out in
  180 CSS px (Chrome's page zoom on Android, a desktop browser's Ctrl +).

:func:`reflow_problems` names what breaks reflow: a page wider than the
screen (or anything left of its edge, where no scrolling reaches; text
too), a control or card that cannot be reached (outside the width, or
under another element at its centre once scrolled into view), text cut off
by a box that hides its overflow, and a word broken across two lines where
it would have fitted whole ("Kee p sco re").
"""

from __future__ import annotations

from typing import Literal

from playwright.sync_api import Page, ViewportSize

from helpers.browser import LOCALES, PHONE, NewPage

Mode = Literal["text", "zoom"]
MODES: tuple[Mode, ...] = ("text", "zoom")
ZOOMED: ViewportSize = {"width": PHONE["width"] // 2, "height": PHONE["height"] // 2}
"""A 360 × 740 phone at 200 % page zoom, in CSS pixels."""


def large_phone(new_page: NewPage, mode: Mode, lang: str) -> Page:
    """A phone page in ``lang`` at 200 % text or 200 % zoom."""
    if mode == "zoom":
        return new_page(ZOOMED, locale=LOCALES[lang], touch=True)
    page = new_page(PHONE, locale=LOCALES[lang])
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    return page


PROBLEMS = """(scope) => {
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
}"""


def reflow_problems(page: Page, scope: str = "body") -> dict[str, list[str]]:
    """What of ``scope`` does not reflow (empty lists: nothing)."""
    found: dict[str, list[str]] = page.evaluate(PROBLEMS, scope)
    return {kind: items for kind, items in found.items() if items}
