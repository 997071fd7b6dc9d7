"""An axe-core audit (WCAG 2.x A and AA) of a group's pages, in light and dark mode.

The new-group form, the group's page with its forms and a league after a
game, its read-only page, and a member's page with both charts, at the
phone viewport. A violation of impact "serious" or "critical" fails the
test with axe's report.

Every audited page, read-only and edit, is also measured for tap targets
(``helpers.tap_targets``): on the phone each interactive element is at
least 44 × 44 CSS px, with the details opened too.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from helpers.axe import audit
from helpers.browser import PHONE, LiveServer, NewPage
from helpers.tafel_pages import enter_middle, enter_stacks


def open_details(page: Page) -> None:
    """Open every <details> of the page, so that what is behind them is measured too."""
    for summary in page.locator("details > summary").all():
        if summary.is_visible():
            summary.click()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_group_pages_pass_axe(live_server: LiveServer, new_page: NewPage, scheme: str) -> None:
    found: dict[str, str] = {}
    page = new_page(PHONE, color_scheme=scheme)
    page.goto(live_server.url + "/groups/new")
    audit(page, "new group", found)
    page.get_by_label("Name of the group").fill("Thursday table")
    page.get_by_label("Members, one name per line").fill("Anna\nBen")
    page.get_by_role("button", name="Create group").click()
    expect(page).to_have_url(re.compile(r"/groups/[\w-]+/edit$"))
    group_url = page.url
    for name in ("Anna", "Ben"):
        page.locator("#play").get_by_label(name, exact=True).check()
    page.locator("#play input[name=mode][value=rounds]").check()
    page.locator("#group-rounds").fill("1")
    page.get_by_role("button", name="Start the game").click()
    enter_stacks(page, 0, {1: 4})
    enter_middle(page, {0: 20, 1: 10})
    page.goto(group_url + "?season=all")
    audit(page, "group page with forms", found)
    open_details(page)
    audit(page, "group page with forms, details open", found)
    page.locator("table.family").get_by_role("link", name="Ben").click()
    expect(page).to_have_url(re.compile(r"/edit/members/Ben$"))
    audit(page, "member page of the edit pages", found)
    page.goto(group_url.removesuffix("/edit") + "?season=all")
    audit(page, "read-only group page", found)
    open_details(page)
    audit(page, "read-only group page, details open", found)
    page.locator("table.family").get_by_role("link", name="Anna").click()
    expect(page.locator("svg.chart")).to_have_count(2)
    audit(page, "member page", found)
    open_details(page)
    expect(page.locator("#member-details svg.chart").first).to_be_visible()
    audit(page, "member page, details open", found)
    assert not found, "\n\n".join(f"== {name}\n{report}" for name, report in found.items())
