"""A finished study's answer in one sentence, with the figure and its ±.

Each of the lab's questions (``ligretto.simulate.study.QUESTIONS``) has
its sentence ("Anna, 1.5× as fast as the others, wins 60 % ± 2 % of the
rounds and 99 % (98–100 %) of the games to 99."), in the page's language;
the ± is half the 95 % interval of the figure before it (a share near 0 %
or 100 %, whose interval is lopsided, is given with the interval itself). A study whose seats
no longer fit its question (the form lets anyone change them) gets the
general sentence: who scored most. The figures come from the study's
stored report, the command's ``--json`` document.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from babel.numbers import format_percent

from ligretto.rules.result import STACK_PENALTY
from ligretto.sim.decks import ShuffleModel
from ligretto.simulate.study import StudySpec
from ligretto.web.bot_words import bot_words
from ligretto.web.lab.seats import SHUFFLE_WORDS, bot_label, seat_name
from ligretto.web.numbers import LOCALES, number
from ligretto.web.text import N_, gettext

__all__ = ["answer"]

Estimate = Mapping[str, Any]
LEVEL_ORDER = ("easy", "medium", "hard", "expert")
LOPSIDED = 0.6
"""A share's interval this much shorter on one side than on the other (the
Wilson interval near 0 % or 100 %) is written as the interval, not as ±."""


def _percent_sign(language: str) -> str:
    return format_percent(0, locale=LOCALES.get(language, "en_GB"))[1:]  # "%" or " %"


def _share(language: str, estimate: Estimate) -> str:
    """``74 % ± 2 %``: a share and half its 95 % interval; near 0 % or 100 %,
    where the interval is lopsided, the interval itself: ``100 % (84–100 %)``."""
    rate = float(estimate["rate"])
    low, high = float(estimate["ci_low"]), float(estimate["ci_high"])
    half = (high - low) / 2
    digits = 0 if half >= 0.005 else 1
    sign = _percent_sign(language)

    def pct(value: float) -> str:
        return number(language, 100 * value, digits)

    below, above = rate - low, high - rate
    if min(below, above) < LOPSIDED * max(below, above):
        return f"{pct(rate)}{sign} ({pct(low)}–{pct(high)}{sign})"
    return f"{pct(rate)}{sign} ± {pct(half)}{sign}"


def _amount(language: str, estimate: Estimate, *, absolute: bool = False) -> str:
    """``1.7 ± 0.4``: a mean and half its 95 % interval."""
    mean = float(estimate["mean"])
    half = (float(estimate["ci_high"]) - float(estimate["ci_low"])) / 2
    return f"{number(language, abs(mean) if absolute else mean, 1)} ± {number(language, half, 1)}"


def _factor(language: str, value: float) -> str:
    """A speed factor as written: ``1.5``, ``2``, ``1.25`` (decimal comma in de, nb)."""
    digits = next((d for d in (0, 1, 2) if abs(round(value, d) - value) < 1e-9), 2)
    return number(language, value, digits)


def _games(language: str, report: Mapping[str, Any], seat: Mapping[str, Any]) -> str | None:
    """``93 % ± 3 % of the games to 99``, or ``None`` for single rounds."""
    games = report.get("games")
    if not games or "game_win_rate" not in seat:
        return None
    share = _share(language, seat["game_win_rate"])
    if games["mode"] == "rounds":
        return gettext(
            language,
            N_("%(share)s of the games of %(rounds)s rounds"),
            share=share,
            rounds=games["agreed_rounds"],
        )
    target = games["target"] or 99
    return gettext(language, N_("%(share)s of the games to %(target)s"), share=share, target=target)


def _faster_level(spec: StudySpec) -> tuple[str, str] | None:
    """(Anna's level, the others') when Anna alone plays a faster level than
    three equal others, at the levels' own pace; else ``None``."""
    first, *others = spec.bots
    if len(set(others)) != 1 or any(speed != 1 for speed in spec.speeds):
        return None
    fast, slow = first.partition(":")[2], others[0].partition(":")[2]
    if first.partition(":")[0] != others[0].partition(":")[0]:
        return None
    if LEVEL_ORDER.index(fast) <= LEVEL_ORDER.index(slow):
        return None
    return fast, slow


def _equal_but_first(spec: StudySpec) -> bool:
    """Every seat the same bot (Anna differs only by what the question gives her)."""
    return len(set(spec.bots)) == 1


def answer(spec: StudySpec, report: Mapping[str, Any], language: str) -> str:
    """The study's answer, a sentence in ``language``."""
    own = _ANSWERS.get(spec.question)
    said = own(spec, report, language) if own is not None else None
    return said if said is not None else _most_points(spec, report, language)


def _luck_or_penalty(spec: StudySpec, report: Mapping[str, Any], language: str) -> str | None:
    """Luck: how often the faster Anna still loses. A gentler penalty: the same table, scored so."""
    anna = report["seats"][0]
    levels = _faster_level(spec)
    penalty = spec.house.stack_penalty
    if levels is None or (spec.question == "penalty") == (penalty == STACK_PENALTY):
        return None
    words = bot_words(language)
    values: dict[str, Any] = {
        "name": seat_name(0),
        "fast": words.levels[levels[0]],
        "slow": words.levels[levels[1]],
        "rounds": _share(language, anna["round_win_rate"]),
        "games": _games(language, report, anna),
    }
    if spec.question == "luck":
        message = (
            N_(
                "%(name)s, faster than the others (%(fast)s against %(slow)s), wins "
                "%(rounds)s of the rounds and %(games)s: luck decides the rest."
            )
            if values["games"]
            else N_(
                "%(name)s, faster than the others (%(fast)s against %(slow)s), wins "
                "%(rounds)s of the rounds: luck decides the rest."
            )
        )
        return gettext(language, message, **values)
    values["penalty"] = penalty
    values["r5"] = _share(language, anna["r5_round_win_rate"])
    games = report.get("games")
    if values["games"] and games and games["mode"] == "target":
        values["length"] = _amount(language, games["rounds_per_game"])
        message = N_(
            "With −%(penalty)s instead of −2 for each card left in the stack, %(name)s, "
            "faster than the others (%(fast)s against %(slow)s), wins %(rounds)s of the "
            "rounds (%(r5)s with −2) and %(games)s, which last %(length)s rounds."
        )
    else:
        message = N_(
            "With −%(penalty)s instead of −2 for each card left in the stack, %(name)s, "
            "faster than the others (%(fast)s against %(slow)s), wins %(rounds)s of the "
            "rounds (%(r5)s with −2)."
        )
    return gettext(language, message, **values)


def _faster(spec: StudySpec, report: Mapping[str, Any], language: str) -> str | None:
    """How much faster must I be: Anna at her own speed against equals."""
    speeds = spec.speeds
    if not speeds or speeds[0] == 1 or any(s != 1 for s in speeds[1:]):
        return None
    if not _equal_but_first(spec):
        return None
    anna = report["seats"][0]
    games = _games(language, report, anna)
    message = (
        N_(
            "%(name)s, %(factor)s× as fast as the others, wins %(rounds)s of the rounds "
            "and %(games)s."
        )
        if games
        else N_("%(name)s, %(factor)s× as fast as the others, wins %(rounds)s of the rounds.")
    )
    return gettext(
        language,
        message,
        name=seat_name(0),
        factor=_factor(language, speeds[0]),
        rounds=_share(language, anna["round_win_rate"]),
        games=games,
    )


def _shuffle(spec: StudySpec, report: Mapping[str, Any], language: str) -> str | None:
    """Shuffling badly: Anna's own shuffle between rounds against the others' good one."""
    shuffles = [str(ShuffleModel.parse(s)) for s in spec.shuffles]
    if not shuffles or shuffles[0] == "uniform" or any(s != "uniform" for s in shuffles[1:]):
        return None
    games = _games(language, report, report["seats"][0])
    comparisons = report["comparisons"]
    shuffle = SHUFFLE_WORDS.get(shuffles[0])
    if not _equal_but_first(spec) or games is None or len(comparisons) != 1 or shuffle is None:
        return None
    edge = comparisons[0]
    message = (
        N_(
            "%(name)s (%(shuffle)s between rounds, the others shuffle well) scores "
            "%(points)s points a round more than they do and wins %(games)s."
        )
        if float(edge["mean"]) >= 0
        else N_(
            "%(name)s (%(shuffle)s between rounds, the others shuffle well) scores "
            "%(points)s points a round fewer than they do and wins %(games)s."
        )
    )
    return gettext(
        language,
        message,
        name=seat_name(0),
        shuffle=gettext(language, shuffle),
        points=_amount(language, edge, absolute=True),
        games=games,
    )


def _recycle(spec: StudySpec, report: Mapping[str, Any], language: str) -> str | None:
    """Without shuffling the discard pile (R3): deadlocks (R4) and the round's length."""
    if spec.options.recycle_shuffle:
        return None
    return gettext(
        language,
        N_(
            "Without shuffling the discard pile, %(deadlocks)s of the rounds end with "
            "nobody able to play (R4), and a round takes %(seconds)s seconds."
        ),
        deadlocks=_share(language, report["deadlock_rate"]),
        seconds=_amount(language, report["seconds_per_round"]),
    )


def _row(spec: StudySpec, report: Mapping[str, Any], language: str) -> str | None:
    """A low row at the deal (R2): how its player fares against the fair share."""
    low = report.get("lowest_row")
    if not low or not low.get("points_edge"):
        return None
    edge = low["points_edge"]
    message = (
        N_(
            "The player with the lowest row at the deal wins %(wins)s of the rounds, where "
            "a fair share is %(fair)s, and scores %(points)s points a round more than the "
            "others."
        )
        if float(edge["mean"]) >= 0
        else N_(
            "The player with the lowest row at the deal wins %(wins)s of the rounds, where "
            "a fair share is %(fair)s, and scores %(points)s points a round fewer than the "
            "others."
        )
    )
    fair = number(language, 100 * low["fair_share"], 0) + _percent_sign(language)
    wins = _share(language, low["win_rate"])
    return gettext(
        language, message, wins=wins, fair=fair, points=_amount(language, edge, absolute=True)
    )


def _versus(spec: StudySpec, report: Mapping[str, Any], language: str) -> str | None:
    """Two strategies: the paired difference of their points a round."""
    if len(report["comparisons"]) != 1:
        return None
    edge = report["comparisons"][0]
    message = (
        N_("“%(a)s” scores %(points)s points a round more than “%(b)s”.")
        if float(edge["mean"]) >= 0
        else N_("“%(a)s” scores %(points)s points a round fewer than “%(b)s”.")
    )
    return gettext(
        language,
        message,
        a=bot_label(language, edge["a"]),
        b=bot_label(language, edge["b"]),
        points=_amount(language, edge, absolute=True),
    )


_ANSWERS = {
    "luck": _luck_or_penalty,
    "penalty": _luck_or_penalty,
    "faster": _faster,
    "shuffle": _shuffle,
    "recycle": _recycle,
    "row": _row,
    "versus": _versus,
    "r7": _versus,
}


def _most_points(spec: StudySpec, report: Mapping[str, Any], language: str) -> str:
    """The general answer: the seat with the most points a round."""
    seats = report["seats"]
    best = max(seats, key=lambda seat: float(seat["points_per_round"]["mean"]))
    games = _games(language, report, best)
    values: dict[str, Any] = {
        "name": seat_name(int(best["seat"])),
        "bot": bot_label(language, spec.bots[int(best["seat"])]),
        "points": _amount(language, best["points_per_round"]),
        "rounds": _share(language, best["round_win_rate"]),
        "games": games,
    }
    message = (
        N_(
            "%(name)s (%(bot)s) scores most, %(points)s points a round, and wins %(rounds)s "
            "of the rounds and %(games)s."
        )
        if games
        else N_(
            "%(name)s (%(bot)s) scores most, %(points)s points a round, and wins %(rounds)s "
            "of the rounds."
        )
    )
    return gettext(language, message, **values)
