"""The board's news: what a watcher's screen reader hears when the board changes (T6).

The board (the watch page and the live fragment pushed to watchers) carries
a hidden ``.board-news`` with its complete rounds, its totals, and the
sentences board.js says in the polite live region: "Round 4 saved." or
"The points changed.", then the standing (every total, best first, and
who leads, shares the lead or won), in the watcher's language.
"""

from __future__ import annotations

import html as html_lib
import re

import pytest
from fastapi.testclient import TestClient

from helpers.tafel_forms import create, game_id, middle, stacks

MINUS = "\u2212"


def news(client: TestClient, path: str, language: str = "en") -> dict[str, str]:
    """The data attributes of the board's news, as the browser reads them."""
    page = client.get(path, params={"lang": language}).text
    match = re.search(r'<div class="board-news"([^>]*)></div>', page)
    assert match, "the board has no news"
    return {
        name: html_lib.unescape(value)
        for name, value in re.findall(r'data-([\w-]+)="([^"]*)"', match.group(1))
    }


def test_t6_a_saved_round_is_told_with_every_total_best_first(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben", "Cleo"])
    watch = f"/g/{game_id(edit)}"
    before = news(client, watch)
    assert (before["rounds"], before["totals"]) == ("0", "0 0 0")
    assert before["standing"] == "Anna 0, Ben 0, Cleo 0."  # nobody leads before a round
    stacks(client, edit, {1: "0", 0: "6", 2: "2"}, stop=1)
    waiting = news(client, watch)
    assert (waiting["rounds"], waiting["totals"]) == ("0", "0 0 0")  # nothing to tell yet
    middle(client, edit, 1, {0: "5", 1: "14", 2: "11"})
    after = news(client, watch)
    assert (after["rounds"], after["totals"]) == ("1", "-7 14 7")
    assert after["saved"] == "Round 1 saved."
    assert after["changed"] == "The points changed."
    # A negative total as the board prints it, with the minus sign.
    assert after["standing"] == f"Ben 14, Cleo 7, Anna {MINUS}7; Ben leads."
    # The live fragment pushed to watchers carries the same news.
    assert news(client, f"{watch}/board") == after


@pytest.mark.parametrize(
    ("language", "saved", "standing"),
    [
        ("de", "Runde 1 gespeichert.", "Anna 12, Ben 12; Anna & Ben führen gemeinsam."),
        ("nb", "Runde 1 er lagret.", "Anna 12, Ben 12; Anna & Ben deler ledelsen."),
        ("en", "Round 1 saved.", "Anna 12, Ben 12; Anna & Ben share the lead."),
    ],
)
def test_t6_the_news_speaks_the_watchers_language(
    client: TestClient, language: str, saved: str, standing: str
) -> None:
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {0: "0", 1: "1"}, stop=0)
    middle(client, edit, 1, {0: "12", 1: "14"})
    said = news(client, f"/g/{game_id(edit)}", language)
    assert (said["saved"], said["standing"]) == (saved, standing)


def test_t4_the_winner_is_told_and_names_are_text_not_markup(client: TestClient) -> None:
    edit = create(client, ['<b>"Ann"</b>', "Ben & Co"], target="50")
    for number, points in ((1, "30"), (2, "25")):
        stacks(client, edit, {0: "0", 1: "8"}, stop=0)
        middle(client, edit, number, {0: points, 1: "5"})
    said = news(client, f"/g/{game_id(edit)}")
    assert said["saved"] == "Round 2 saved."
    assert said["standing"] == (
        f'<b>"Ann"</b> 55, Ben & Co {MINUS}22; <b>"Ann"</b> wins with 55 points!'
    )
