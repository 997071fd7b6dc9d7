"""axe-core in the browser tests: WCAG 2.x A and AA with best practice, and one page's audit."""

from __future__ import annotations

# axe-playwright-python ships neither type hints nor a py.typed marker.
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page

from helpers.tap_targets import MIN_SIZE, small_targets

AXE = Axe()
OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}
BLOCKING = {"serious", "critical"}
"""The impacts that fail an audit."""


def audit(page: Page, name: str, found: dict[str, str]) -> None:
    """Run axe on the page as it is; note its serious and critical violations.

    On a touch screen, note every tap target smaller than a finger too.
    """
    results = AXE.run(page, options=OPTIONS)
    violations = [v for v in results.response["violations"] if v["impact"] in BLOCKING]
    if violations:
        results.response["violations"] = violations
        found[name] = results.generate_report()
    if page.evaluate("matchMedia('(pointer: coarse)').matches") and (small := small_targets(page)):
        found[f"{name}: tap targets below {MIN_SIZE} px"] = "\n".join(small)
