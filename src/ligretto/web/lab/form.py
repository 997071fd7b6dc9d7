"""The lab's form: a question template's seats, and what was typed, read into a study.

The form works without JavaScript: choosing a question or a number of
players and pressing "Set the seats" asks for the form again with the
template's seats (a GET with the choices in the query); "Start the study"
posts it. Anything odd — a forged choice, a number too long — becomes a
message in the form, never a server error; a posted strategy, level or
choice the form does not offer is refused, never run as another. A
number of rounds too large for the lab is refused by the lab's cap (with
its reason), not as a typing error.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from ligretto.rules import RuleOptions
from ligretto.rules.result import STACK_PENALTY
from ligretto.sim.house import MAX_PENALTY, HouseRules
from ligretto.simulate.study import QUESTIONS, StudySpec
from ligretto.tafel.limits import MAX_AGREED_ROUNDS, MAX_TARGET
from ligretto.web.forms import choice, whole_field
from ligretto.web.lab.seat_form import (
    LabFormError,
    SeatForm,
    linked_seats,
    posted_seats,
)

__all__ = ["MAX_SEED", "LabForm", "LabFormError", "read_form", "template_form"]

QUESTION_KEYS = (*QUESTIONS, "custom")
DECKS = ("ligretto", "cards")
MAX_SEED = 2**31 - 1
"""Seeds the form takes (the command takes any; this keeps them short to type)."""
DEFAULT_ROUNDS = 1000
COUNT_DIGITS = 15
"""Digits read of the number of rounds or games: far beyond any cap, so a
large number is refused by the cap, saying how large the study would be."""


def _pick(data: Mapping[str, str], key: str, choices: tuple[str, ...], default: str) -> str:
    """A posted choice: ``default`` when the field is missing, a refusal when
    it holds a value the form does not offer (never another choice instead)."""
    value = data.get(key)
    if value is None:
        return default
    if value not in choices:
        raise LabFormError("choice", value=value[:40])
    return value


@dataclass(slots=True)
class LabForm:
    """The form's fields as shown: the question, the seats, the run and the rules."""

    question: str = "versus"
    seats: list[SeatForm] = field(default_factory=list)
    amount: str = "rounds"  # rounds or games
    count: int = DEFAULT_ROUNDS
    game_end: str = "target"  # target (T4) or rounds (T5)
    target: int = 99
    agreed_rounds: int = 10
    seed: str = ""
    deck: str = "ligretto"
    row_refill: str = "auto"
    recycle_shuffle: bool = True
    deadlock: str = "end"
    row_storage: bool = False
    sets: int = 1
    stack_penalty: int = STACK_PENALTY

    @property
    def players(self) -> int:
        return len(self.seats)

    def options(self) -> RuleOptions:
        return RuleOptions(
            deck=self.deck,  # type: ignore[arg-type]  # read by choice()
            row_refill=self.row_refill,  # type: ignore[arg-type]
            recycle_shuffle=self.recycle_shuffle,
            deadlock=self.deadlock,  # type: ignore[arg-type]
            row_storage=self.row_storage,
        )


def _question_form(key: str, players: int | None, deck: str) -> LabForm:
    """A question's template: its seats (repeated round the table for more
    players, as the command repeats ``--bots``; a seat's own speed or
    shuffle only at the template's own seats), its run and its rules."""
    question = QUESTIONS.get(key, QUESTIONS["versus"])
    bots = question.bots
    count = players or len(bots)
    seats = []
    for i in range(count):
        strategy, _, level = bots[i % len(bots)].partition(":")
        seat = SeatForm(strategy, level)
        if i < len(question.speeds):
            seat.speed = question.speeds[i]
        if i < len(question.shuffles):
            seat.shuffle = question.shuffles[i]
        seats.append(seat)
    return LabForm(
        question=key,
        seats=seats,
        deck=deck,
        amount="games" if question.games else "rounds",
        count=question.count,
        recycle_shuffle=question.recycle_shuffle,
        stack_penalty=question.stack_penalty,
    )


def template_form(query: Mapping[str, str]) -> LabForm:
    """The form for ``GET /lab``: the question's seats, resized to the players asked for."""
    question = choice(query.get("question", ""), QUESTION_KEYS, "versus")
    deck = choice(query.get("deck", ""), DECKS, "ligretto")
    limits = RuleOptions(deck=deck)  # type: ignore[arg-type]
    players = whole_field(query.get("players", ""), 2)
    shown = query.get("shown")
    if shown is not None and shown != question:
        players = None  # another question brings its own number of players
    if players is not None:
        players = min(max(players, limits.min_players), limits.max_players)
    if question == "custom":
        # the seats as they were in the form, where it sent them
        return LabForm(question=question, deck=deck, seats=linked_seats(query, players or 4))
    return _question_form(question, players, deck)


def read_form(data: Mapping[str, str]) -> tuple[LabForm, StudySpec]:
    """The posted form as shown again, and the study it asks for.

    A :class:`LabFormError` carries the form as far as it was read
    (``error.form``), to be shown again with the message.
    """
    form = LabForm(seed=data.get("seed", "").strip()[:12])
    form.seats = linked_seats(data, 4)  # shown again if reading stops early
    try:
        return form, _read(form, data)
    except LabFormError as error:
        error.form = form
        raise


def _read(form: LabForm, data: Mapping[str, str]) -> StudySpec:
    form.question = _pick(data, "question", QUESTION_KEYS, "custom")
    form.amount = _pick(data, "amount", ("rounds", "games"), "rounds")
    form.game_end = _pick(data, "game_end", ("target", "rounds"), "target")
    form.deck = _pick(data, "deck", DECKS, "ligretto")
    form.row_refill = _pick(data, "row_refill", ("auto", "manual"), "auto")
    form.recycle_shuffle = data.get("recycle_shuffle") == "on"
    form.deadlock = _pick(data, "deadlock", ("end", "reshuffle"), "end")
    form.row_storage = data.get("row_storage") == "on"
    form.sets = int(_pick(data, "sets", ("1", "2", "3"), "1"))
    penalty = whole_field(data.get("stack_penalty", str(STACK_PENALTY)), 1)
    if penalty is None or penalty > MAX_PENALTY:
        raise LabFormError("stack_penalty", value=data.get("stack_penalty", "")[:40])
    form.stack_penalty = penalty
    players = whole_field(data.get("players", ""), 2)
    options = form.options()
    if players is None or not options.min_players <= players <= options.max_players:
        raise LabFormError("players")
    form.seats = linked_seats(data, players)
    form.seats = posted_seats(data, players)
    count = whole_field(data.get("count", ""), COUNT_DIGITS)
    target = whole_field(data.get("target", ""), 4)
    agreed = whole_field(data.get("agreed_rounds", ""), 3)
    if target is not None:
        form.target = target
    if agreed is not None:
        form.agreed_rounds = agreed
    if count is None or count < 1:
        raise LabFormError("count")
    form.count = count
    if form.amount == "games":
        if form.game_end == "target" and (target is None or not 1 <= target <= MAX_TARGET):
            raise LabFormError("target")
        if form.game_end == "rounds" and (agreed is None or not 1 <= agreed <= MAX_AGREED_ROUNDS):
            raise LabFormError("agreed_rounds")
    if form.seed:
        seed = whole_field(form.seed, 10)
        if seed is None or seed > MAX_SEED:
            raise LabFormError("seed")
    else:
        # a fresh seed, shown in the command, so the study can be run again
        seed = secrets.randbelow(MAX_SEED) + 1
    games = form.amount == "games"
    seats = form.seats
    if not games and any(seat.shuffle != "uniform" for seat in seats):
        raise LabFormError("shuffle_games")
    return StudySpec(
        bots=tuple(seat.bot for seat in seats),
        speeds=tuple(seat.speed for seat in seats) if any(s.speed != 1 for s in seats) else (),
        overlook=(
            tuple(seat.overlook / 100 for seat in seats) if any(s.overlook for s in seats) else ()
        ),
        shuffles=(
            tuple(seat.shuffle for seat in seats)
            if any(s.shuffle != "uniform" for s in seats)
            else ()
        ),
        house=HouseRules(sets=form.sets, stack_penalty=form.stack_penalty),
        rounds=0 if games else count,
        games=count if games else 0,
        seed=seed,
        options=options,
        target=form.target if games and form.game_end == "target" else None,
        agreed_rounds=form.agreed_rounds if games and form.game_end == "rounds" else None,
        question=form.question,
    )
