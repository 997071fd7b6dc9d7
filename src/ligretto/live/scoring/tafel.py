"""The table's score on a Tafel game, through the Tafel service layer.

Online play enters each finished round the way people at a real table
would: stacks first, then the middle (T2, T3).  The Tafel adds up the
points and decides the outcome (T4, T5); the table only asks.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ligretto.live.scoring.keeper import EndCondition, GroupLink, Standing
from ligretto.store import TafelService
from ligretto.store.groups import GroupService
from ligretto.tafel import Game, ImplausibleRoundError

log = logging.getLogger(__name__)


def default_board_url(game_id: str) -> str:
    """The Tafel's read-only watch page of a game."""
    return f"/g/{game_id}"


class TafelScoreKeeper:
    """A :class:`~ligretto.live.scoring.keeper.ScoreKeeper` on a ``TafelService``.

    Each table keeps its game's edit token (and stores it with the table,
    so that it can keep writing after a restart); nobody else writes to a
    table's game (anyone may watch it).  With ``groups`` a table's game
    can join the group its host picked.
    """

    def __init__(
        self,
        service: TafelService,
        board_url: Callable[[str], str] = default_board_url,
        groups: GroupService | None = None,
    ) -> None:
        self.service = service
        self._board_url = board_url
        self.groups = groups

    def create_game(
        self,
        names: list[str],
        end: EndCondition,
        *,
        deck: str,
        row_storage: bool,
        group: GroupLink | None = None,
    ) -> tuple[str, str]:
        created = self.service.create_game(
            names,
            mode=end.mode,
            target=end.target if end.mode == "target" else None,
            rounds=end.rounds if end.mode == "rounds" else None,
            deck=deck,
            row_storage=row_storage,
        )
        game_id, token = created.stored.id, created.edit_token
        if group is not None:
            self._join(group, game_id, token, names)
        return game_id, token

    def _join(self, group: GroupLink, game_id: str, token: str, names: list[str]) -> None:
        """Add the new game to the host's group (picking the group confirmed
        the seats' names as members); a refusal leaves the game on its own."""
        if self.groups is None:
            log.warning("game %s: no group service, so it stays out of its group", game_id)
            return
        try:
            self.groups.add_game(group.id, group.token, game_id, token, new_members=names)
        except Exception:
            # The group was deleted, is full, or the database failed: the
            # table plays on, its game stands alone.
            log.exception("game %s: group %s refused it; the game stands alone", game_id, group.id)

    def record_round(
        self, game_id: str, token: str, stacks: list[int], middle: list[int], *, number: int
    ) -> Standing:
        game = self.service.get_game(game_id).game
        if game.complete_rounds >= number:
            # Written before a crash took the table's note of it: not twice.
            return self._standing(game_id, token, game)
        if game.pending_round is None:
            opened = self.service.open_round(game_id, token, stacks)
            assert opened.round is not None
            number = opened.round.number
        else:  # stacks written, middle not, when the process stopped
            number = game.pending_round.number
        try:
            written = self.service.complete_round(game_id, token, number, middle)
        except ImplausibleRoundError:
            # Counted by the rules engine, so the numbers are what happened
            # (R6 row storage can leave stack cards in the row): confirm (T3).
            written = self.service.complete_round(game_id, token, number, middle, confirm=True)
        return self._standing(game_id, token, written.stored.game)

    def _standing(self, game_id: str, token: str, game: Game) -> Standing:
        rounds_done = game.agreed_rounds is not None and game.complete_rounds >= game.agreed_rounds
        if (game.finished or rounds_done) and not game.scored:
            # T5 "Werten": the final ranking with the winner or winners.
            game = self.service.score(game_id, token).stored.game
        return Standing(
            totals=list(game.totals),
            finished=game.finished,
            winners=[game.seat_of(name) for name in game.winners],
        )

    def board_url(self, game_id: str) -> str:
        return self._board_url(game_id)
