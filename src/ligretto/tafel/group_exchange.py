"""A group to and from its exchange format (JSON export and import), beside a game's.

Pure functions of the domain: no I/O, no database. The export holds the
group's name, members and season and every game with its rounds (each in
the game's own format, :mod:`ligretto.tafel.exchange`), never a token;
the store adds what only it knows (ids, version) as arguments. An import
checks everything again, as if each game were entered anew (T1–T3, T6).

>>> from datetime import UTC, datetime
>>> game = Game(["Anna", "Ben"])
>>> at = datetime(2026, 3, 5, 20, tzinfo=UTC)
>>> data = group_to_json(
...     group_id="g1", version=2, name="Donnerstag", members=("Anna", "Ben"),
...     season=None, games=[PlayedGame("x1", at, game)],
... )
>>> data["format"], data["name"], len(data["games"])
('ligretto-group', 'Donnerstag', 1)
>>> imported = group_from_json(data)
>>> [m.name for m in imported.group.members], imported.games[0][1] == at
(['Anna', 'Ben'], True)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from ligretto.tafel.errors import Code, GroupError, InvalidGameError, TafelError
from ligretto.tafel.exchange import game_from_json, game_to_json
from ligretto.tafel.game import Game
from ligretto.tafel.groups import Group
from ligretto.tafel.limits import MAX_GROUP_GAMES, MAX_GROUP_ROUNDS
from ligretto.tafel.stats import PlayedGame, Season

EXPORT_FORMAT = "ligretto-group"
EXPORT_FORMAT_VERSION = 1

NAMES_READ = 1000
"""At most this many names are read from a list of members (the domain refuses more)."""


@dataclass(frozen=True, slots=True)
class ImportedGroup:
    """A group read from its export: every game checked, its players members of the group."""

    group: Group
    season: Season | None
    games: tuple[tuple[Game, datetime], ...]
    """Each game with the moment it was played, in the export's order."""


def season_to_json(season: Season | None) -> dict[str, str] | None:
    """``{"start": "2026-01-01", "end": "2026-06-30"}``, or None (calendar years)."""
    if season is None:
        return None
    return {"start": season.start.isoformat(), "end": season.end.isoformat()}


def season_from_json(value: object) -> Season | None:
    """``{"start": "2026-01-01", "end": "2026-06-30"}`` or None (calendar years)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise GroupError(
            Code.BAD_SEASON, 'a season is {"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"}', rule="T6"
        )
    try:
        start = date.fromisoformat(str(value.get("start")))
        end = date.fromisoformat(str(value.get("end")))
    except ValueError:
        raise GroupError(
            Code.BAD_SEASON, "a season's start and end are dates (YYYY-MM-DD)", rule="T6"
        ) from None
    return Season(start, end)


def member_names(values: object) -> list[object]:
    """The names of a list of members, as given (the domain checks each one, T1)."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise GroupError(Code.BAD_GROUP_NAME, "members must be a list of names", rule="T1")
    return list(values)[:NAMES_READ]


def group_to_json(
    *,
    group_id: str,
    version: int,
    name: str,
    members: Sequence[str],
    season: Season | None,
    games: Iterable[PlayedGame],
) -> dict[str, Any]:
    """The whole group: name, members, season and every game with its rounds."""
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_FORMAT_VERSION,
        "id": group_id,
        "version": version,
        "name": name,
        "members": list(members),
        "season": season_to_json(season),
        "games": [game_item(g) for g in games],
    }


def game_item(played: PlayedGame) -> dict[str, Any]:
    """One game of a group's export: when it was played, and the game's own export."""
    return {
        "played_at": played.played_at.isoformat(),
        "game": game_to_json(
            played.game,
            game_id=played.id,
            version=0,
            created_at=played.played_at,
            updated_at=played.played_at,
        ),
    }


def to_text(data: object) -> str:
    """Compact JSON text, as the API writes every answer (UTF-8 kept, no spaces)."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def group_json_chunks(
    *,
    group_id: str,
    version: int,
    name: str,
    members: Sequence[str],
    season: Season | None,
    games: Iterable[PlayedGame],
) -> Iterator[str]:
    """:func:`group_to_json` as JSON text, one game at a time.

    The pieces joined are exactly ``to_text(group_to_json(...))``, but only
    one game is ever held as data: a group of many games is written while
    its games are read (the export is streamed).

    >>> from datetime import UTC, datetime
    >>> at = datetime(2026, 3, 5, 20, tzinfo=UTC)
    >>> games = [PlayedGame("x1", at, Game(["Anna", "Ben"]))]
    >>> fields = dict(group_id="g1", version=2, name="Do", members=("Anna", "Ben"), season=None)
    >>> "".join(group_json_chunks(games=games, **fields)) == to_text(
    ...     group_to_json(games=games, **fields))
    True
    """
    head = to_text(
        group_to_json(
            group_id=group_id,
            version=version,
            name=name,
            members=members,
            season=season,
            games=(),
        )
    )
    # "games" is the last key: the text ends in its empty list and the brace.
    yield head.removesuffix("[]}") + "["
    for index, played in enumerate(games):
        yield ("," if index else "") + to_text(game_item(played))
    yield "]}"


def group_from_json(data: object) -> ImportedGroup:
    """The group of an export, every game checked again; raises a ``TafelError``.

    A refused game is named by its place in the export (``game 3: …``).
    """
    if not isinstance(data, Mapping):
        raise _bad_import("a group export is a JSON object")
    group = Group(data.get("name"), member_names(data.get("members", [])))
    season = season_from_json(data.get("season"))
    items = data.get("games", [])
    if not isinstance(items, list):
        raise _bad_import("games must be a list")
    if len(items) > MAX_GROUP_GAMES:
        raise _bad_import(f"a group import holds at most {MAX_GROUP_GAMES} games")
    _check_rounds(items)
    games: list[tuple[Game, datetime]] = []
    for index, item in enumerate(items, start=1):
        try:
            if not isinstance(item, Mapping) or not isinstance(item.get("game"), Mapping):
                raise _bad_import("each game is an object with its export under 'game'")
            exported = item["game"]
            if not isinstance(exported.get("players"), list):
                raise _bad_import("players must be a list of names in seating order")
            game = game_from_json(exported)
            played_at = _moment(item.get("played_at"))
            group.admit(game.players, game.players)
        except TafelError as error:
            raise error.with_message(f"game {index}: {error.message}") from None
        games.append((game, played_at))
    return ImportedGroup(group, season, tuple(games))


def _check_rounds(items: list[Any]) -> None:
    """Refuse an import of more than MAX_GROUP_ROUNDS rounds before checking any of them."""
    total = 0
    for item in items:
        exported = item.get("game") if isinstance(item, Mapping) else None
        rounds = exported.get("rounds") if isinstance(exported, Mapping) else None
        if isinstance(rounds, list):
            total += len(rounds)
    if total > MAX_GROUP_ROUNDS:
        raise InvalidGameError(
            Code.TOO_MANY_ROUNDS,
            f"a group import holds at most {MAX_GROUP_ROUNDS} rounds, this one {total};"
            " a group grows past that only game by game",
            rule="T6",
            params={"limit": MAX_GROUP_ROUNDS},
        )


def _moment(value: object) -> datetime:
    if not isinstance(value, str):
        raise _bad_import("each game needs played_at, a date and time (ISO 8601)")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise _bad_import("played_at must be a date and time (ISO 8601)") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _bad_import(message: str) -> InvalidGameError:
    return InvalidGameError(Code.BAD_IMPORT, message, rule="T6")
