"""The strategy lab in the browser: an "A vs B" study with its progress, a cancel, the plots.

One study takes the lab's one place to run for far longer than the test;
the "A vs B" study started after it waits with its place in the queue.
Cancelling the first lets the second run: its page follows the progress
bar over server-sent events (every value the bar shows is written down by
an observer of the page, across the reload at the end) and then shows the
four plots and the command, which gives the same numbers on the command
line.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import re
import shlex
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from typer.testing import CliRunner

from helpers.axe import audit
from helpers.browser import DESKTOP, PHONE, LiveServer, NewPage, Shoot
from ligretto.cli import app as cli
from ligretto.web.lab import StudyLab

# Every value of the progress bar, kept in the tab's session storage so
# that the values seen before the page reloads with the results survive it.
WATCH_PROGRESS = """
addEventListener("DOMContentLoaded", () => {
  const status = document.getElementById("lab-status");
  if (!status) return;
  const keep = () => {
    const bar = document.getElementById("lab-progress");
    if (!bar) return;
    const seen = JSON.parse(sessionStorage.getItem("seen") || "[]");
    seen.push(Number(bar.value));
    sessionStorage.setItem("seen", JSON.stringify(seen));
  };
  keep();
  new MutationObserver(keep).observe(status, {subtree: true, childList: true, characterData: true});
});
"""


def _start(page: Page, server: LiveServer, rounds: int) -> str:
    page.goto(f"{server.url}/lab?lang=en")
    page.locator("input[name=question][value=versus]").check()
    page.fill("#lab-count", str(rounds))
    page.fill("#lab-seed", "21")
    page.click("#lab-start")
    page.wait_for_url("**/lab/*")
    return page.url


def test_a_vs_b_study_with_progress_cancel_plots_and_command(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    blocker = new_page(PHONE)
    _start(blocker, live_server, 40_000)
    expect(blocker.locator("#lab-state-text")).to_have_text("Running")

    page = new_page(DESKTOP)
    page.add_init_script(WATCH_PROGRESS)
    study = _start(page, live_server, 600)
    expect(page.locator("#lab-state-text")).to_have_text("Waiting: place 1 in the queue.")
    shoot(page, "lab-queued-en-desktop")

    blocker.click("#lab-cancel")
    expect(blocker.locator(".lab-status")).to_contain_text("This study was cancelled.")

    # the queued study runs, and its page reloads with the results at the end
    expect(page.locator("#lab-results svg.lab-chart")).to_have_count(4, timeout=120_000)
    seen: list[float] = json.loads(page.evaluate("sessionStorage.getItem('seen')"))
    assert any(0 < value < 600 for value in seen), seen  # the bar moved on the way
    assert seen == sorted(seen)
    command = page.locator("#lab-command").inner_text()
    assert command == (
        "ligretto simulate --bots stack-first:medium,greedy:medium,stack-first:medium,"
        "greedy:medium --rounds 600 --seed 21"
    )
    shoot(page, "lab-study-en-desktop")
    found: dict[str, str] = {}
    audit(page, "lab study", found)
    phone = new_page(PHONE, color_scheme="dark")
    phone.goto(f"{study}?lang=nb")
    expect(phone.locator("#lab-results svg.lab-chart")).to_have_count(4)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    audit(phone, "lab study (nb, phone, dark)", found)
    assert not found, "\n\n".join(f"== {name} ==\n{report}" for name, report in found.items())

    stored: dict[str, Any] = page.request.get(f"{study}.json").json()
    run = CliRunner().invoke(cli, [*shlex.split(command)[1:], "--json"])
    assert run.exit_code == 0, run.output
    numbers = json.loads(run.stdout)
    del numbers["config"]["workers"]
    assert numbers == stored["result"]["report"]


@pytest.mark.parametrize("language", ["de", "en", "nb"])
def test_the_form_fits_a_phone(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, language: str
) -> None:
    page = new_page(PHONE)
    page.goto(f"{live_server.url}/lab?question=r7&lang={language}")
    expect(page.locator(".lab-seat")).to_have_count(8)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing wider than the phone
    # choosing another question sets its seats (the script presses "Set the seats")
    page.locator("input[name=question][value=levels]").check()
    expect(page.locator(".lab-seat")).to_have_count(4)
    shoot(page, f"lab-form-{language}-phone")
    found: dict[str, str] = {}
    audit(page, f"lab form ({language})", found)
    assert not found, "\n\n".join(f"== {name} ==\n{report}" for name, report in found.items())


def test_without_javascript_a_study_refreshes_to_its_plots(
    live_server: LiveServer, new_page: NewPage
) -> None:
    page = new_page(PHONE, java_script_enabled=False)
    page.goto(f"{live_server.url}/lab?lang=de")
    # "Set the seats" asks for the form again with the question's seats
    page.locator("input[name=question][value=r7]").check()
    page.click(".lab-set-seats")
    expect(page.locator(".lab-seat")).to_have_count(8)
    page.fill("#lab-count", "100")
    page.click("#lab-start")
    page.wait_for_url("**/lab/*")
    # the page refreshes itself (a <noscript> refresh) until the study is done
    expect(page.locator("#lab-results svg.lab-chart")).to_have_count(4, timeout=120_000)
    expect(page.locator("#lab-command")).to_contain_text("--rounds 100")


def test_a_study_stopped_at_the_budget_says_so_and_shows_what_it_played(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    lab: StudyLab = live_server.app.state.lab
    kept = lab.limits
    # about eleven games to 99 of the "A vs B" question fit in 20,000 actions
    lab.limits = dataclasses.replace(kept, max_actions=20_000)
    try:
        page = new_page(PHONE)
        page.goto(f"{live_server.url}/lab?lang=en")
        page.locator("input[name=question][value=versus]").check()
        page.fill("#lab-count", "30")
        page.locator("input[name=amount][value=games]").check()
        page.fill("#lab-seed", "8")
        page.click("#lab-start")
        page.wait_for_url("**/lab/*")
        expect(page.locator("#lab-budget")).to_contain_text(
            "Stopped at the budget:", timeout=60_000
        )
    finally:
        lab.limits = kept
    stored: dict[str, Any] = page.request.get(f"{page.url}.json").json()
    played = stored["result"]["budget"]["played"]
    assert 0 < played < 30
    expect(page.locator("#lab-budget")).to_contain_text(f"{played} of 30 games")
    expect(page.locator("#lab-budget")).to_contain_text("20,000 simulated actions")
    expect(page.locator("#lab-budget")).to_contain_text("cards). The results are those of")
    expect(page.locator("#lab-results svg.lab-chart")).to_have_count(4)
    expect(page.locator("#lab-command")).to_contain_text(f"--games {played} ")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for language, words in (("de", "Am Budget angehalten"), ("nb", "Stoppet ved budsjettet")):
        page.goto(f"{page.url.split('?')[0]}?lang={language}")
        expect(page.locator("#lab-budget")).to_contain_text(words)
        shoot(page, f"lab-budget-{language}-phone")


# Each question of what players ask, a few games or rounds, and words its answer has.
QUESTIONS = {
    "luck": ("games", "20", {"en": "luck decides the rest", "de": "Glück", "nb": "flaksen"}),
    "faster": (
        "games",
        "20",
        {"en": "1.5× as fast", "de": "1,5-mal so schnell", "nb": "1,5 ganger"},
    ),
    "shuffle": ("games", "20", {"en": "riffles once", "de": "riffelt einmal", "nb": "én gang"}),
    "recycle": ("rounds", "300", {"en": "(R4)", "de": "(R4)", "nb": "(R4)"}),
    "row": (
        "rounds",
        "300",
        {"en": "lowest row", "de": "niedrigste Reihe", "nb": "laveste rekken"},
    ),
    "penalty": (
        "games",
        "20",
        {"en": "−1 instead of −2", "de": "−1 statt −2", "nb": "−1 i stedet"},
    ),
}


def test_every_question_players_ask_is_answered_in_a_sentence_with_plus_minus(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(PHONE)
    studies = {}
    for question, (amount, count, _) in QUESTIONS.items():
        page.goto(f"{live_server.url}/lab?lang=en")
        page.locator(f"input[name=question][value={question}]").check()
        # the script asks for the question's seats, run and rules
        page.wait_for_url(re.compile(f"question={question}"))
        expect(page.locator(f"input[name=amount][value={amount}]")).to_be_checked()
        if question == "faster":
            expect(page.locator("#speed0")).to_have_value("1.5")
            shoot(page, "lab-form-faster-en-phone")
        page.fill("#lab-count", count)
        page.fill("#lab-seed", "4")
        page.click("#lab-start")
        page.wait_for_url("**/lab/*")
        studies[question] = page.url.split("?")[0]
        expect(page.locator("#lab-answer")).to_be_visible(timeout=120_000)
    found: dict[str, str] = {}
    for question, (_, _, words) in QUESTIONS.items():
        for language in ("de", "en", "nb"):
            page.goto(f"{studies[question]}?lang={language}")
            sentence = page.locator("#lab-answer")
            expect(sentence).to_contain_text(words[language])
            expect(sentence).to_contain_text(" ± ")
            expect(sentence).to_have_text(re.compile(r"^[^.]+(\d[.,]\d[^.]*)*\.$"))  # one sentence
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            if question in ("faster", "shuffle"):
                shoot(page, f"lab-answer-{question}-{language}-phone")
    audit(page, "lab answer (nb, phone)", found)
    assert not found, "\n\n".join(f"== {name} ==\n{report}" for name, report in found.items())
    # every round of the study, one line of JSON each
    download = page.request.get(f"{studies['row']}/rounds.jsonl.gz")
    assert download.ok
    assert len(gzip.decompress(download.body()).splitlines()) == 300
