"""The Tafel service: every user action on a stored game, one transaction each.

Web pages, the JSON API and online play all go through :class:`TafelService`.
Each write

1. locks the game row (PostgreSQL ``FOR UPDATE``; SQLite ``BEGIN IMMEDIATE``),
2. checks the edit token and, if given, the expected version,
3. loads the rounds with one query and rebuilds the domain :class:`Game`
   (or, when the stored version matches, copies the game kept in memory
   from this service's last write of it, :mod:`ligretto.store.cache`),
4. applies the action through the domain (which verifies before it changes),
5. writes one round row, the game row's new version and one history row
   (:mod:`ligretto.store.repository`),
6. announces the new version to other processes (PostgreSQL ``NOTIFY``,
   delivered only if the transaction commits: :mod:`ligretto.store.notify`),
7. commits, then tells the change listeners (live updates in this process).

A refused action raises and changes nothing (T2/T3). A round is saved whole
or not at all. A lock another transaction holds longer than the engine's
busy timeout raises :class:`StoreBusyError` (nothing written; try again).

An import is checked and replayed by the domain, and its rows encoded,
before its transaction begins: the write lock is held only for the inserts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from ligretto.store import changes, group_repository, notify, repository
from ligretto.store.cache import GameCache
from ligretto.store.changes import Change, Counts
from ligretto.store.database import busy_guard, writer
from ligretto.store.errors import (
    ForbiddenError,
    GameNotFoundError,
    StoreBusyError,
    StoreError,
    VersionConflictError,
)
from ligretto.store.results import (
    CreatedGame,
    HistoryEntry,
    StoredGame,
    StoredRound,
    WriteResult,
)
from ligretto.store.tokens import hash_token, new_game_id, new_token, token_matches
from ligretto.tafel import Code, Deck, Game, InvalidGameError, Mode
from ligretto.tafel.exchange import game_from_json, game_to_csv, game_to_json

__all__ = [
    "ChangeListener",
    "Counts",
    "CreatedGame",
    "ForbiddenError",
    "GameNotFoundError",
    "HistoryEntry",
    "StoreBusyError",
    "StoreError",
    "StoredGame",
    "StoredRound",
    "TafelService",
    "VersionConflictError",
    "WriteResult",
    "hash_token",
]

ChangeListener = Callable[[str, int], None]


class TafelService:
    """All actions on stored Tafel games. Thread-safe; one transaction per call.

    ``listeners`` are called with ``(game_id, version)`` after each commit
    (e.g. :meth:`ligretto.store.hub.ChangeHub.publish`).
    """

    cache_size = 256
    """How many recently written games are kept in memory for the next write."""

    def __init__(self, engine: Engine, listeners: Iterable[ChangeListener] = ()) -> None:
        self.engine = engine
        self._writer = writer(engine)
        self.listeners: list[ChangeListener] = list(listeners)
        self._cache = GameCache(self.cache_size)

    # ------------------------------------------------------------------ reads
    def get_game(self, game_id: str) -> StoredGame:
        """The game with all rounds; raises :class:`GameNotFoundError`.

        A game of a group comes with its players' places in the member list
        (``member_places``): the pages colour a member the same everywhere.
        """
        cached = self._cache.get(game_id)
        with busy_guard(), self.engine.connect() as conn:
            # FOR SHARE keeps a writer from committing between the two reads
            # (PostgreSQL); SQLite reads one snapshot per transaction anyway.
            stored = repository.read_game(conn, game_id, lock="share", cached=cached)[0]
            places = group_repository.member_places(conn, game_id, stored.game.players)
            conn.rollback()
        return stored if places is None else replace(stored, member_places=places)

    def get_round(self, game_id: str, number: int) -> StoredRound:
        """Round *number* with the totals after it, read without the game's other rounds.

        Raises :class:`GameNotFoundError` or :class:`~ligretto.tafel.NoSuchRoundError`.
        """
        with busy_guard(), self.engine.connect() as conn:
            stored = repository.read_round(conn, game_id, number, lock="share")
            conn.rollback()
        return stored

    def version(self, game_id: str) -> int:
        """The game's current version (cheap; for live updates)."""
        with busy_guard(), self.engine.connect() as conn:
            version = repository.read_version(conn, game_id)
            conn.rollback()
        return version

    def check_token(self, game_id: str, token: str | None) -> bool:
        """Whether ``token`` is the game's edit token; raises :class:`GameNotFoundError`."""
        with busy_guard(), self.engine.connect() as conn:
            token_hash = repository.read_token_hash(conn, game_id)
            conn.rollback()
        return token_matches(token_hash, token)

    def history(self, game_id: str) -> list[HistoryEntry]:
        """Every change of the game, oldest first (T6)."""
        with busy_guard(), self.engine.connect() as conn:
            entries = repository.read_history(conn, game_id)
            conn.rollback()
        return entries

    def export_json(self, game_id: str) -> dict[str, Any]:
        """The whole game with its history, re-importable with :meth:`import_game`."""
        stored = self.get_game(game_id)
        return game_to_json(
            stored.game,
            game_id=stored.id,
            version=stored.version,
            created_at=stored.created_at,
            updated_at=stored.updated_at,
            history=[h.as_dict() for h in self.history(game_id)],
        )

    def export_csv(self, game_id: str) -> str:
        """One line per round: caller, then stack, middle, points, total per player."""
        return game_to_csv(self.get_game(game_id).game)

    # ---------------------------------------------------------------- creation
    def create_game(
        self,
        players: Iterable[str],
        *,
        mode: Mode | str = Mode.TARGET,
        target: int | None = None,
        rounds: int | None = None,
        deck: Deck | str = Deck.LIGRETTO,
        row_storage: bool = False,
    ) -> CreatedGame:
        """A new game (T1); ``rounds`` is the agreed number of a rounds game."""
        game = Game(
            players,
            mode=mode,
            target=target,
            agreed_rounds=rounds,
            deck=deck,
            row_storage=row_storage,
        )
        return self._insert_game(game, Change("create", detail={"players": list(game.players)}))

    def import_game(self, data: Mapping[str, Any]) -> CreatedGame:
        """A new game (new id and token) from an export; every round is checked again.

        The history records only what the domain made of the export (the
        players as cleaned, the number of rounds), never a value of the
        export as it was sent.
        """
        if not isinstance(data, Mapping):
            raise InvalidGameError(Code.BAD_IMPORT, "an export is a JSON object", rule="T6")
        if not isinstance(data.get("players"), list):
            # A mapping would be read as its keys, a string as its letters.
            raise InvalidGameError(
                Code.BAD_IMPORT, "players must be a list of names in seating order", rule="T6"
            )
        game = game_from_json(data)
        detail = {"players": list(game.players), "rounds": len(game.rounds)}
        return self._insert_game(game, Change("import", detail=detail))

    # ------------------------------------------------------------------ writes
    def open_round(
        self,
        game_id: str,
        token: str | None,
        stacks: Counts,
        *,
        expected_version: int | None = None,
    ) -> WriteResult:
        """Save a new round with stack counts only (T2)."""
        return self._write(
            game_id, token, expected_version, lambda game: changes.open_round(game, stacks)
        )

    def complete_round(
        self,
        game_id: str,
        token: str | None,
        number: int,
        middle: Counts,
        *,
        confirm: bool = False,
        expected_version: int | None = None,
    ) -> WriteResult:
        """Enter the middle counts of the pending round ``number`` (T3)."""

        def act(game: Game) -> Change:
            return changes.complete_round(game, number, middle, confirm)

        return self._write(game_id, token, expected_version, act)

    def correct_round(
        self,
        game_id: str,
        token: str | None,
        number: int,
        *,
        stacks: Counts | None = None,
        middle: Counts | None = None,
        confirm: bool = False,
        expected_version: int | None = None,
    ) -> WriteResult:
        """Correct any round (T6); what is not given stays. Totals and outcome follow."""

        def act(game: Game) -> Change:
            return changes.correct_round(game, number, stacks, middle, confirm)

        return self._write(game_id, token, expected_version, act)

    def put_round(
        self,
        game_id: str,
        token: str | None,
        number: int,
        *,
        stacks: Counts | None = None,
        middle: Counts | None = None,
        confirm: bool = False,
        expected_version: int | None = None,
    ) -> WriteResult:
        """Complete round ``number`` if it is pending and only the middle is given,
        otherwise correct it (the API's ``PUT /rounds/{n}``)."""

        def act(game: Game) -> Change:
            if not game.round(number).complete and stacks is None and middle is not None:
                return changes.complete_round(game, number, middle, confirm)
            return changes.correct_round(game, number, stacks, middle, confirm)

        return self._write(game_id, token, expected_version, act)

    def remove_last_round(
        self,
        game_id: str,
        token: str | None,
        number: int | None = None,
        *,
        expected_version: int | None = None,
    ) -> WriteResult:
        """Remove the last round (T6); ``number``, if given, must be the last one."""
        return self._write(
            game_id, token, expected_version, lambda game: changes.remove_last_round(game, number)
        )

    def undo_last(self, game_id: str, token: str | None, *, expected_version: int) -> WriteResult:
        """Undo (T6): take back the game's last save or removal of a round, exactly.

        *expected_version* is the version that change made: if anyone changed
        the game since, :class:`VersionConflictError` and nothing changes. A
        last change that is no round change (or an Undo itself) is refused
        with ``nothing_to_undo``. The Undo is a change of its own: a new
        version, a history entry, a live update.
        """

        def act(conn: Connection, game: Game) -> Change:
            return changes.undo(game, repository.read_last_change(conn, game_id))

        return self._write_with(game_id, token, expected_version, act)

    def last_change(self, game_id: str) -> HistoryEntry | None:
        """The game's latest history entry (what an Undo would take back), or None."""
        with busy_guard(), self.engine.connect() as conn:
            repository.read_version(conn, game_id)  # GameNotFoundError for an unknown id
            entry = repository.read_last_change(conn, game_id)
            conn.rollback()
        return entry

    def finish(
        self, game_id: str, token: str | None, *, expected_version: int | None = None
    ) -> WriteResult:
        """Beenden (T5): close the game for entry; ends a target game early too."""
        return self._write(game_id, token, expected_version, changes.finish)

    def score(
        self, game_id: str, token: str | None, *, expected_version: int | None = None
    ) -> WriteResult:
        """Werten (T5): the final ranking with the winner or winners (finishes first)."""
        return self._write(game_id, token, expected_version, changes.score)

    # --------------------------------------------------------------- internals
    def _insert_game(self, game: Game, change: Change) -> CreatedGame:
        game_id = new_game_id()
        token = new_token()
        now = _now()
        rows = repository.new_game_rows(game_id, hash_token(token), game, now)
        with busy_guard(), self._writer.begin() as conn:
            repository.insert_game(conn, rows)
            repository.append_history(conn, game_id, 1, now, change)
            notify.announce(conn, game_id, 1)
        stored = StoredGame(game_id, 1, game, now, now)
        self._notify(game_id, 1)
        return CreatedGame(stored, token)

    def _write(
        self,
        game_id: str,
        token: str | None,
        expected_version: int | None,
        act: Callable[[Game], Change],
    ) -> WriteResult:
        return self._write_with(game_id, token, expected_version, lambda _conn, game: act(game))

    def _write_with(
        self,
        game_id: str,
        token: str | None,
        expected_version: int | None,
        act: Callable[[Connection, Game], Change],
    ) -> WriteResult:
        # The game of the last write is kept in memory and used again when the
        # stored version (read under the row lock) still matches: then a write
        # reads one row and writes one round, however long the game is. Any
        # other writer, in this process or another, bumps the version first.
        cached = self._cache.get(game_id)
        with busy_guard(), self._writer.begin() as conn:
            stored, token_hash = repository.read_game(conn, game_id, lock="update", cached=cached)
            if not token_matches(token_hash, token):
                raise ForbiddenError()
            if expected_version is not None and expected_version != stored.version:
                raise VersionConflictError(expected_version, stored.version)
            game = stored.game
            change = act(conn, game)  # a refused action raises here: nothing was written
            if not change.changed:
                return WriteResult(stored, change.round, changed=False)
            now = _now()
            version = stored.version + 1
            if change.round is not None and change.round_op is not None:
                repository.write_round(conn, game_id, change.round, change.round_op, now)
            repository.update_game(conn, game_id, version, game, now)
            repository.append_history(conn, game_id, version, now, change)
            notify.announce(conn, game_id, version)
        # Only after the commit: a failed commit leaves the cache as it was.
        # The cache keeps its own copy, so nothing a caller does alters it.
        self._cache.keep(game_id, version, game.copy())
        result = WriteResult(
            StoredGame(game_id, version, game, stored.created_at, now), change.round
        )
        self._notify(game_id, version)
        return result

    def _notify(self, game_id: str, version: int) -> None:
        for listener in self.listeners:
            listener(game_id, version)


def _now() -> datetime:
    return datetime.now(UTC)
