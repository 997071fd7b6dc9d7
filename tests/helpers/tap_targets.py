"""Tap targets of at least 44 × 44 CSS px on touch screens, measured in the browser.

``small_targets(page)`` lists every interactive element of the page (links,
buttons, fields, summaries, anything focusable) whose box is smaller than
a finger in either direction, as ``"tag#id.classes "text" W×H"``. A
checkbox or radio button inside its label counts as the label (the label
is what a finger taps: the Stop toggles, the target chips).

Documented exceptions, where a platform convention makes 44 px impossible
or wrong (WCAG 2.5.8's own exceptions):

- a link inside running text (a sentence of the rules, of a message): its
  height is the line's; links that stand on their own are not excepted;
- what is not on the page for a finger: visually hidden or ``aria-hidden``
  elements (the form's hidden default button), the skip link until it is
  focused (placed off screen), and elements that are not displayed.
"""

from __future__ import annotations

from playwright.sync_api import Page

MIN_SIZE = 44
"""CSS px, both ways (WCAG 2.5.5; Apple's and Google's guides ask for 44 and 48)."""

_SMALL_TARGETS = """(min) => {
  const sel = 'a[href], button, select, textarea, summary, input:not([type=hidden]), '
    + '[tabindex]:not([tabindex="-1"])';
  const inRunningText = (el) => {
    if (el.tagName !== "A" || el.matches(".button, .block-link, .round-link")) return false;
    const block = el.parentElement;
    const own = el.textContent.replace(/\\s+/g, " ").trim();
    const around = block ? block.textContent.replace(/\\s+/g, " ").trim() : own;
    return around.length > own.length && getComputedStyle(el).display === "inline";
  };
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('[aria-hidden="true"], .visually-hidden, [hidden]')) continue;
    if (getComputedStyle(el).visibility === "hidden") continue;
    const target = el.matches("input[type=checkbox], input[type=radio]") && el.closest("label")
      ? el.closest("label") : el;
    const box = target.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    if (box.right <= 0 && el.matches(".skip-link")) continue;
    if (inRunningText(el)) continue;
    if (box.width < min - 0.5 || box.height < min - 0.5) {
      const name = `${target.tagName.toLowerCase()}${target.id ? "#" + target.id : ""}`
        + [...target.classList].map((c) => "." + c).join("");
      const text = (target.getAttribute("aria-label") || target.textContent || "")
        .replace(/\\s+/g, " ").trim().slice(0, 40);
      out.push(`${name} "${text}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return out;
}"""


def small_targets(page: Page, minimum: int = MIN_SIZE) -> list[str]:
    """Every interactive element of *page* smaller than *minimum* px in width or height."""
    found: list[str] = page.evaluate(_SMALL_TARGETS, minimum)
    return found
