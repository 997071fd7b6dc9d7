"""A finished round as a replay document (``ligretto.replay/1``), and back into a round.

The document is plain JSON-ready data: the round's seed, player count and
rule options, its seats (names, bots' strategy and level), every accepted
action with the play time it was accepted at, the plays that lost a race
(R3) and the result as scored (R5).  The seed and the actions are the
engine's own log: :func:`read_replay` gives the arguments of
``Round.replay``, which rebuilds the round exactly (the engine is
deterministic).  :func:`initial_deal` adds what a reader without the engine
needs to draw the table: every seat's cards as dealt (R2).

Actions are written in the engine's text form (:mod:`ligretto.rules.actions`,
``Action.parse(str(action)) == action``).  Nothing here does I/O: the
callers read and write the JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ligretto.rules.actions import Action
from ligretto.rules.errors import MalformedActionError
from ligretto.rules.events import Recycled, Reshuffled
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round

__all__ = [
    "REPLAY_FORMAT",
    "ReplayLog",
    "initial_deal",
    "read_replay",
    "replay_round",
    "round_record",
    "shuffled_hands",
]

REPLAY_FORMAT = "ligretto.replay/1"


@dataclass(frozen=True, slots=True)
class ReplayLog:
    """What ``Round.replay`` takes, read from a document, with the times.

    ``log`` is the engine's ``(seat, action text)`` log (seat ``None`` only
    for the table's agreed ``stuck``, R4); ``times[i]`` is the play time in
    milliseconds at which ``log[i]`` was accepted.
    """

    players: int
    seed: int
    options: RuleOptions
    log: tuple[tuple[int | None, str], ...]
    times: tuple[int, ...]

    def round(self, upto: int | None = None) -> Round:
        """The round after the first ``upto`` actions (default: all of them)."""
        log = self.log if upto is None else self.log[:upto]
        return Round.replay(self.players, self.seed, self.options, log)


def round_record(
    rnd: Round,
    *,
    seats: Sequence[Mapping[str, Any]],
    times: Sequence[int],
    races: Iterable[Mapping[str, Any]] = (),
    **about: Any,
) -> dict[str, Any]:
    """The document of the finished round ``rnd``.

    ``seats``: per seat ``{"name", "bot": {"strategy", "level"} | None}``;
    ``times``: the play time of each logged action (as many as the log);
    ``races``: the plays refused because another seat was faster
    (``{"t_ms", "seat", "action", "refused_by_seat", "margin_ms"}``);
    ``about``: where the round was played (table, numbers, Tafel game),
    written first.
    """
    log = rnd.log
    if len(times) != len(log):
        raise ValueError(f"{len(times)} times for {len(log)} actions")
    if len(seats) != rnd.players:
        raise ValueError(f"{len(seats)} seats for {rnd.players} players")
    result = rnd.result()
    return {
        "format": REPLAY_FORMAT,
        **about,
        "players": rnd.players,
        "seed": rnd.seed,
        "options": rnd.options.to_dict(),
        "seats": [dict(seat) for seat in seats],
        "actions": [
            {"t_ms": t, "seat": seat, "action": str(action)}
            for t, (seat, action) in zip(times, log, strict=True)
        ],
        "races": [dict(race) for race in races],
        "result": result.to_dict(),
    }


def read_replay(data: Mapping[str, Any]) -> ReplayLog:
    """The round's seed, options and log from a replay document.

    Raises :class:`~ligretto.rules.errors.MalformedActionError` (a
    ``ValueError``) naming what is wrong when ``data`` is not one.
    """
    try:
        if data.get("format") != REPLAY_FORMAT:
            raise MalformedActionError(
                f"not a replay: format {data.get('format')!r}, expected {REPLAY_FORMAT!r}"
            )
        players, seed = data["players"], data["seed"]
        if type(players) is not int or type(seed) is not int:
            raise MalformedActionError("players and seed must be whole numbers")
        options = RuleOptions(**data["options"])
        log: list[tuple[int | None, str]] = []
        times: list[int] = []
        for i, entry in enumerate(data["actions"]):
            seat, text, t = entry["seat"], entry["action"], entry["t_ms"]
            if seat is not None and (type(seat) is not int or not 0 <= seat < players):
                raise MalformedActionError(f"action {i}: no seat {seat!r} of {players}")
            if type(text) is not str or type(t) is not int:
                raise MalformedActionError(f"action {i}: needs an action text and t_ms")
            try:
                Action.parse(text)
            except MalformedActionError as exc:
                raise MalformedActionError(f"action {i}: {exc}") from exc
            log.append((seat, text))
            times.append(t)
    except MalformedActionError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise MalformedActionError(f"not a replay: {exc}") from exc
    return ReplayLog(players, seed, options, tuple(log), tuple(times))


def replay_round(data: Mapping[str, Any], upto: int | None = None) -> Round:
    """The round of a replay document after its first ``upto`` actions."""
    return read_replay(data).round(upto)


def initial_deal(players: int, seed: int, options: RuleOptions) -> list[dict[str, Any]]:
    """Every seat's cards as dealt (R2), as card texts: ``stack`` bottom to
    top (the last is the open top), ``row`` left to right, ``hand`` bottom
    to top (the last is the next card turned)."""
    snapshot = Round.deal(players, seed, options).snapshot()
    return [
        {
            "stack": seat["stack"],
            "row": [cell[-1] for cell in seat["row"]],
            "hand": seat["hand"],
        }
        for seat in snapshot["seats"]
    ]


def shuffled_hands(replay: ReplayLog) -> list[dict[str, Any]]:
    """Each hand that a shuffle made, for a reader without the engine.

    Recycling shuffles the discard pile into the new hand (R3,
    ``recycle_shuffle``) and an R4 reshuffle every hand; what comes up
    afterwards follows from the engine's generator, which a page cannot
    run.  One entry per shuffled hand: ``{"after": i, "seat": s, "hand":
    [...]}`` — seat ``s``'s hand, bottom to top, right after action ``i``.
    """
    rnd = Round.deal(replay.players, replay.seed, replay.options)
    out: list[dict[str, Any]] = []
    for index, (seat, text) in enumerate(replay.log):
        action = Action.parse(text)
        events = rnd.settle_stuck() if seat is None else rnd.apply(seat, action)
        seats: set[int] = set()
        for event in events:
            if type(event) is Recycled and event.shuffled:
                seats.add(event.seat)
            elif type(event) is Reshuffled:
                seats.update(range(rnd.players))
        if seats:
            hands = rnd.snapshot()["seats"]
            out += [{"after": index, "seat": s, "hand": hands[s]["hand"]} for s in sorted(seats)]
    return out
