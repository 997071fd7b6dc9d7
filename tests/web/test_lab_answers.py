"""The lab's ready-made questions: each study's answer is one sentence with its figures and ±.

The questions' templates fill the form (seats, speed, shuffle, rules); a
study played from that form answers in German, English and Norwegian with
the figures of its report, each with half its 95 % interval.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from ligretto.simulate.study import QUESTIONS, StudySpec
from ligretto.simulate.study_run import run_study
from ligretto.web.lab.answers import answer
from ligretto.web.lab.form import read_form, template_form

AMPLE = 10**12
LANGUAGES = ("de", "en", "nb")


def _posted(question: str, count: int) -> dict[str, str]:
    """The form of a question as a browser would post it unchanged."""
    form = template_form({"question": question})
    data = {
        "question": question,
        "players": str(form.players),
        "amount": form.amount,
        "count": str(count),
        "game_end": form.game_end,
        "target": str(form.target),
        "agreed_rounds": str(form.agreed_rounds),
        "seed": "3",
        "deck": form.deck,
        "row_refill": form.row_refill,
        "deadlock": form.deadlock,
        "sets": str(form.sets),
        "stack_penalty": str(form.stack_penalty),
    }
    if form.recycle_shuffle:
        data["recycle_shuffle"] = "on"
    for i, seat in enumerate(form.seats):
        data |= {
            f"strategy{i}": seat.strategy,
            f"level{i}": seat.level,
            f"speed{i}": seat.speed_text,
            f"overlook{i}": str(seat.overlook),
            f"shuffle{i}": seat.shuffle,
        }
    return data


def _study(question: str, count: int) -> tuple[StudySpec, dict[str, Any]]:
    _, spec = read_form(_posted(question, count))
    report = run_study(spec, AMPLE)["report"]
    assert report is not None
    return spec, report


def _pct(rate: float) -> str:
    return f"{100 * rate:.0f}%"


def _share(estimate: dict[str, Any]) -> str:
    return f"{_pct(estimate['rate'])} ± {_pct((estimate['ci_high'] - estimate['ci_low']) / 2)}"


def test_every_question_has_a_template_that_reads_back_into_its_study() -> None:
    for key, question in QUESTIONS.items():
        _, spec = read_form(_posted(key, 20))
        assert spec.bots == question.bots
        assert spec.question == key
        assert bool(spec.games) == question.games
        assert spec.options.recycle_shuffle == question.recycle_shuffle
        assert spec.house.stack_penalty == question.stack_penalty
        if question.speeds:
            assert spec.speeds == question.speeds
        if question.shuffles:
            assert spec.shuffles == question.shuffles


def test_faster_says_the_factor_and_both_shares_with_their_plus_minus() -> None:
    spec, report = _study("faster", 30)
    anna = report["seats"][0]
    english = answer(spec, report, "en")
    games = anna["game_win_rate"]
    rounds = _share(anna["round_win_rate"])
    assert english.startswith(f"Anna, 1.5× as fast as the others, wins {rounds} of the rounds and ")
    assert english.endswith(" of the games to 99.")
    if games["rate"] > 0.9:  # near 100 % the interval is lopsided: said as the interval
        span = f"{_pct(games['ci_low'])[:-1]}–{_pct(games['ci_high'])}"
        assert f"and {_pct(games['rate'])} ({span}) of the games" in english
    assert answer(spec, report, "de").startswith("Anna, 1,5-mal so schnell wie die anderen,")
    assert answer(spec, report, "nb").startswith("Anna, 1,5 ganger så rask som de andre,")


@pytest.mark.parametrize(
    ("question", "count", "words"),
    [
        (
            "luck",
            20,
            {"en": "luck decides the rest", "de": "entscheidet das Glück", "nb": "flaksen"},
        ),
        (
            "shuffle",
            20,
            {"en": "riffles once between rounds", "de": "riffelt einmal", "nb": "én gang"},
        ),
        (
            "recycle",
            300,
            {"en": "nobody able to play (R4)", "de": "niemand mehr", "nb": "ingen kan"},
        ),
        (
            "row",
            300,
            {"en": "lowest row at the deal", "de": "niedrigste Reihe", "nb": "laveste rekken"},
        ),
        (
            "penalty",
            20,
            {
                "en": "(hard against medium)",
                "de": "(schwer gegen mittel)",
                "nb": "(vanskelig mot middels)",
            },
        ),
        (
            "versus",
            200,
            {
                "en": "“by the book, medium” scores",
                "de": "„nach Lehrbuch, mittel“",
                "nb": "«etter boka, middels»",
            },
        ),
    ],
)
def test_each_question_answers_in_one_sentence_per_language_with_plus_minus(
    question: str, count: int, words: dict[str, str]
) -> None:
    spec, report = _study(question, count)
    for language in LANGUAGES:
        said = answer(spec, report, language)
        assert words[language] in said
        assert said.count(".") - len(re.findall(r"\d\.\d", said)) == 1  # one sentence
        assert said.endswith(".")
        assert re.search(r"\d\s?%?\s±\s\d", said), said  # every figure with its ±


def test_a_study_that_no_longer_fits_its_question_says_who_scored_most() -> None:
    data = _posted("faster", 20)
    data["speed0"] = "1"  # Anna as fast as the others: no "faster" to speak of
    _, spec = read_form(data)
    report = run_study(spec, AMPLE)["report"]
    said = answer(spec, report, "en")
    assert "scores most" in said and "± " in said


def test_a_gentler_penalty_tells_the_round_wins_r5_would_have_given() -> None:
    spec, report = _study("penalty", 20)
    anna = report["seats"][0]
    said = answer(spec, report, "en")
    assert said.startswith("With −1 instead of −2 for each card left in the stack, Anna,")
    assert f"({_share(anna['r5_round_win_rate'])} with −2)" in said
    assert "which last" in said and "rounds." in said
