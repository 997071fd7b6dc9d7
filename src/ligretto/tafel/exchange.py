"""A game to and from its exchange formats: JSON export/import and CSV (T6).

Pure functions of the domain: no I/O, no database. The store adds what only
it knows (the game's id, version, timestamps and history) as arguments.

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
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from ligretto.tafel.game import Game, describe, from_description

EXPORT_FORMAT = "ligretto-tafel"
EXPORT_FORMAT_VERSION = 1


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
