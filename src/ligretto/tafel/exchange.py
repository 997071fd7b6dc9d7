"""A game to and from its exchange formats: its JSON shape, export/import and CSV (T6).

Pure functions of the domain: no I/O, no database. :func:`describe` is the
game's JSON shape, shared by the API's answers and the exports, and
:func:`from_description` rebuilds a game from it, checking every round. The
store adds what only it knows (the game's id, version, timestamps and
history) as arguments.

>>> from datetime import UTC, datetime
>>> game = Game(["Anna", "Ben"])
>>> _ = game.open_round([0, 4])
>>> _ = game.complete_round(1, [10, 12])
>>> at = datetime(2025, 1, 2, tzinfo=UTC)
>>> data = game_to_json(game, game_id="g1", version=3, created_at=at, updated_at=at)
>>> data["format"], data["id"], data["totals"]
('ligretto-tafel', 'g1', {'Anna': 10, 'Ben': 4})
>>> game_from_json(data).totals
(10, 4)
>>> game_to_csv(game).splitlines()[1]
'1,Anna,0,10,10,10,4,12,4,4'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from ligretto.tafel.errors import Code, InvalidGameError, TafelError
from ligretto.tafel.game import Deck, Game, Mode, Round, is_whole
from ligretto.tafel.limits import MAX_ROUNDS

EXPORT_FORMAT = "ligretto-tafel"
EXPORT_FORMAT_VERSION = 1


def names_to_counts(game: Game, counts: Sequence[int]) -> dict[str, int]:
    """Per-player counts in seating order as a name → count mapping."""
    return dict(zip(game.players, counts, strict=True))


def describe(game: Game, *, with_rounds: bool = True) -> dict[str, Any]:
    """The game as plain JSON-ready data (the shape of the API and of exports)."""
    data: dict[str, Any] = {
        "players": list(game.players),
        "mode": game.mode.value,
        "target": game.target,
        "agreed_rounds": game.agreed_rounds,
        "deck": game.deck.value,
        "row_storage": game.row_storage,
    }
    if with_rounds:
        running = game.running_totals()
        data["rounds"] = [
            describe_round(game, rnd, totals)
            for rnd, totals in zip(game.rounds, running, strict=True)
        ]
    data["rounds_count"] = len(game.rounds)
    pending = game.pending_round
    data["pending_round"] = None if pending is None else pending.number
    data["totals"] = names_to_counts(game, game.totals)
    data["ranking"] = [{"player": s.player, "total": s.total, "rank": s.rank} for s in game.ranking]
    data["status"] = game.status.value
    data["finished"] = game.finished
    data["closed"] = game.closed
    data["scored"] = game.scored
    data["winners"] = list(game.winners)
    data["decided_after"] = game.decided_after
    return data


def describe_round(game: Game, rnd: Round, totals: tuple[int, ...] | None = None) -> dict[str, Any]:
    """One round as plain data: counts by name, points, caller, running totals."""
    points = rnd.points
    caller = rnd.caller
    return {
        "n": rnd.number,
        "stacks": names_to_counts(game, rnd.stacks),
        "middle": None if rnd.middle is None else names_to_counts(game, rnd.middle),
        "points": None if points is None else names_to_counts(game, points),
        "caller": None if caller is None else game.players[caller],
        "complete": rnd.complete,
        "confirmed": rnd.confirmed,
        "totals": None if totals is None else names_to_counts(game, totals),
    }


def from_description(data: Mapping[str, Any]) -> Game:
    """Rebuild a game from :func:`describe` output (an export), checking every round.

    Used by import: the data is untrusted, so each round is replayed through
    the same checks as a live entry (T1–T5).
    """
    if not isinstance(data, Mapping):
        raise InvalidGameError(Code.BAD_IMPORT, "an export is a JSON object", rule="T6")
    mode = data.get("mode", Mode.TARGET.value)
    agreed = data.get("agreed_rounds")
    rounds_data = data.get("rounds", [])
    if mode == Mode.ROUNDS.value and agreed is None and is_whole(rounds_data):
        agreed, rounds_data = rounds_data, []
    game = Game(
        data.get("players", []),
        mode=mode,
        target=data.get("target"),
        agreed_rounds=agreed,
        deck=data.get("deck", Deck.LIGRETTO.value),
        row_storage=data.get("row_storage", False),
    )
    if not isinstance(rounds_data, list):
        raise InvalidGameError(Code.BAD_IMPORT, "rounds must be a list", rule="T6")
    if len(rounds_data) > MAX_ROUNDS:
        raise InvalidGameError(
            Code.TOO_MANY_ROUNDS,
            f"a game has at most {MAX_ROUNDS} rounds (T1), the export holds {len(rounds_data)}",
            rule="T1",
            params={"limit": MAX_ROUNDS},
        )
    for index, item in enumerate(rounds_data, start=1):
        try:
            if not isinstance(item, Mapping) or "stacks" not in item:
                raise InvalidGameError(Code.BAD_IMPORT, "a round needs its stacks", rule="T6")
            game.open_round(item["stacks"])
            middle = item.get("middle")
            if middle is not None:
                game.complete_round(index, middle, confirm=item.get("confirmed") is True)
        except TafelError as error:
            raise error.with_message(f"round {index}: {error.message}") from None
    if data.get("closed") is True or data.get("scored") is True:
        game.finish()
    if data.get("scored") is True:
        game.score()
    return game


def game_record(
    game: Game,
    *,
    game_id: str,
    version: int,
    created_at: datetime,
    updated_at: datetime,
    with_rounds: bool = True,
) -> dict[str, Any]:
    """JSON-ready data: ``id``, ``version``, :func:`describe` and the timestamps.

    The shape shared by the API's game answers and the JSON export.
    """
    data: dict[str, Any] = {"id": game_id, "version": version}
    data.update(describe(game, with_rounds=with_rounds))
    data["created_at"] = created_at.isoformat()
    data["updated_at"] = updated_at.isoformat()
    return data


def game_to_json(
    game: Game,
    *,
    game_id: str,
    version: int,
    created_at: datetime,
    updated_at: datetime,
    history: Iterable[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The whole game with its history (T6), re-importable with :func:`game_from_json`.

    Never contains the edit token: the store does not pass it, and only its
    hash is kept anyway.
    """
    data: dict[str, Any] = {"format": EXPORT_FORMAT, "format_version": EXPORT_FORMAT_VERSION}
    data.update(
        game_record(
            game,
            game_id=game_id,
            version=version,
            created_at=created_at,
            updated_at=updated_at,
        )
    )
    data["history"] = [dict(entry) for entry in history]
    return data


def game_from_json(data: Mapping[str, Any]) -> Game:
    """A game from an export; every round is checked again like a live entry (T1–T5).

    Raises a :class:`~ligretto.tafel.TafelError` naming the round and the rule.
    """
    return from_description(data)


def game_to_csv(game: Game) -> str:
    """One line per round: caller, then stack, middle, points, total per player.

    Lines end in CRLF (RFC 4180); names a spreadsheet would run as a formula
    are quoted with a leading apostrophe.
    """
    out = io.StringIO()
    table = csv.writer(out, lineterminator="\r\n")
    header = ["round", "caller"]
    for name in game.players:
        safe = _csv_safe(name)
        header += [f"{safe} stack", f"{safe} middle", f"{safe} points", f"{safe} total"]
    table.writerow(header)
    for rnd, totals in zip(game.rounds, game.running_totals(), strict=True):
        caller = rnd.caller
        line: list[object] = [
            rnd.number,
            "" if caller is None else _csv_safe(game.players[caller]),
        ]
        points = rnd.points
        for seat in range(len(game.players)):
            line += [
                rnd.stacks[seat],
                "" if rnd.middle is None else rnd.middle[seat],
                "" if points is None else points[seat],
                "" if totals is None else totals[seat],
            ]
        table.writerow(line)
    return out.getvalue()


def _csv_safe(text: str) -> str:
    # A name starting with = + - @ would be run as a formula by spreadsheets.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
