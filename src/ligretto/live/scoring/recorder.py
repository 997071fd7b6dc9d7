"""Each finished round of a table onto its Tafel game (T2, T3).

The table does not add up points or decide who won; the Tafel does
(through a :class:`~ligretto.live.scoring.keeper.ScoreKeeper`), so online
play and the score board never disagree.  The board is written in a worker
thread — a database write must never hold up the moves of this or any
other table — and the answers come back into the table's actor through
``post``, never by touching the table from another task.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import Any

from ligretto.live.scoring.keeper import EndCondition, GroupLink, ScoreKeeper, Standing
from ligretto.rules.options import RuleOptions
from ligretto.rules.result import RoundResult
from ligretto.store.errors import StoreBusyError
from ligretto.tafel.errors import TafelError

log = logging.getLogger(__name__)

#: Pauses before writing a round again when the database was busy or away
#: (seconds; together well inside the grace a stopping table gives them).
RETRY_PAUSES = (0.5, 2.0)

#: Runs a function inside the table's actor (``Table.call``).
Post = Callable[[Callable[[], None]], None]


class TafelRecorder:
    """One table's link to its Tafel game: open it, record rounds, stop."""

    def __init__(
        self,
        scorekeeper: ScoreKeeper,
        code: str,
        post: Post,
        *,
        before_record: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.scorekeeper = scorekeeper
        # Awaited before each round goes onto the board (the journal's
        # flush: the round's replay is in the database when the board shows it).
        self._before_record = before_record
        self.code = code
        self._post = post
        self._opening: asyncio.Task[tuple[str, str] | None] | None = None
        # Opens the game once more, when it could not be opened at first.
        self._open_again: Callable[[], Coroutine[Any, Any, tuple[str, str] | None]] | None = None
        # The game rounds are written to once it is open (or restored).
        self._link: tuple[str, str] | None = None
        self._recording: asyncio.Task[None] | None = None

    def board_url(self, game_id: str) -> str:
        return self.scorekeeper.board_url(game_id)

    def open_game(
        self,
        names: list[str],
        end: EndCondition,
        options: RuleOptions,
        opened: Callable[[str, str], None],
        *,
        group: GroupLink | None = None,
    ) -> None:
        """Open a Tafel game for these seats (T1); ``opened`` gets its id
        and edit token (the table stores both to keep writing after a
        restart).  With a ``group`` the game joins it as it opens."""

        async def open_it() -> tuple[str, str] | None:
            for pause in (*RETRY_PAUSES, None):
                try:
                    game_id, token = await asyncio.to_thread(
                        self.scorekeeper.create_game,
                        names,
                        end,
                        deck=options.deck,
                        row_storage=options.row_storage,
                        group=group,
                    )
                    break
                except StoreBusyError:
                    # Nothing was written (many tables opening at once keep
                    # the database busy): safe to try again, and the game's
                    # rounds wait for it (T1).
                    if pause is None:
                        log.exception("table %s: opening its Tafel game failed", self.code)
                        return None
                    await asyncio.sleep(pause)
                except Exception:
                    log.exception("table %s: opening its Tafel game failed", self.code)
                    # Perhaps written after all: never open a second game.
                    self._open_again = None
                    return None
            self._link = (game_id, token)
            self._post(lambda: opened(game_id, token))
            return game_id, token

        self._link = None
        self._open_again = open_it
        self._opening = asyncio.get_running_loop().create_task(open_it())

    def reopen(self, game_id: str, token: str) -> None:
        """Write to a game opened before a restart."""
        self._opening, self._link, self._open_again = None, (game_id, token), None

    async def _game(self) -> tuple[str, str] | None:
        """The game to write a round to, opened now if it could not be
        opened when the table began: the database was busy for longer than
        the retries, and without this every round of the table would miss
        its board (T1). Only after a busy database, which wrote nothing
        (``open_it`` drops ``_open_again`` on any other failure): opening
        again makes no second game."""
        if self._link is not None or self._open_again is None:
            return self._link
        task = self._opening
        if task is None or task.done():
            task = self._opening = asyncio.get_running_loop().create_task(self._open_again())
        return await task

    def record(
        self,
        round_no: int,
        result: RoundResult,
        scored: Callable[[Standing | None], None],
        *,
        number: int,
    ) -> None:
        """Enter a finished round, stacks then middle (T2, T3), on the game
        opened last as its round ``number``; ``scored`` gets the Tafel's
        standing, or ``None`` if the board failed (the round is still shown)."""
        opening = self._opening
        stacks = [s.stack for s in result.seats]
        middle = [s.middle for s in result.seats]

        restored = self._link

        async def record_it() -> None:
            standing: Standing | None = None
            link = await opening if opening is not None else restored
            if link is None:
                link = await self._game()
            if self._before_record is not None and link is not None:
                try:
                    await self._before_record()
                except Exception:  # the round is scored all the same; its link comes later
                    log.exception("table %s: writing round %d's replay failed", self.code, round_no)
            for pause in (*RETRY_PAUSES, None):
                if link is None:
                    break
                try:
                    standing = await asyncio.to_thread(
                        partial(self.scorekeeper.record_round, number=number),
                        link[0],
                        link[1],
                        stacks,
                        middle,
                    )
                    break
                except TafelError:
                    # The Tafel refuses the round itself: trying again changes nothing.
                    log.exception("table %s: the Tafel refused round %d", self.code, round_no)
                    break
                except Exception:
                    # A busy or unreachable database: the write is safe to
                    # repeat (a round the game holds is not entered twice).
                    if pause is None:
                        log.exception("table %s: recording round %d failed", self.code, round_no)
                        break
                    await asyncio.sleep(pause)
            self._post(lambda: scored(standing))

        self._recording = asyncio.get_running_loop().create_task(record_it())

    async def settle(self, timeout: float) -> None:
        """Wait (up to ``timeout`` seconds) for writes on their way, so a
        table that is stopped keeps every round it played on its game."""
        pending = [t for t in (self._opening, self._recording) if t is not None and not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=timeout)

    def cancel(self) -> None:
        """The table stops: whatever is still being written is abandoned."""
        for task in (self._opening, self._recording):
            if task is not None and not task.done():
                task.cancel()
