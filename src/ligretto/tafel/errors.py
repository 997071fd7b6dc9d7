"""Errors of the Tafel domain.

Every error is a ``ValueError`` subclass that carries a sentence a person
understands (naming the player and the rule), a stable machine ``code`` the
web pages translate, and the rule id from docs/rules.md (T1–T6).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any


class Code(StrEnum):
    """Stable machine codes of Tafel errors (the web pages translate them)."""

    # T1: creating a game
    TOO_FEW_PLAYERS = "too_few_players"
    TOO_MANY_PLAYERS = "too_many_players"
    EMPTY_NAME = "empty_name"
    NAME_TOO_LONG = "name_too_long"
    BAD_NAME = "bad_name"
    DUPLICATE_NAME = "duplicate_name"
    BAD_MODE = "bad_mode"
    BAD_TARGET = "bad_target"
    BAD_ROUNDS = "bad_rounds"
    BAD_DECK = "bad_deck"
    # T2/T3: the numbers of a round
    UNKNOWN_PLAYER = "unknown_player"
    MISSING_PLAYER = "missing_player"
    NOT_A_WHOLE_NUMBER = "not_a_whole_number"
    OUT_OF_RANGE = "out_of_range"
    TWO_CALLERS = "two_callers"
    IMPLAUSIBLE = "implausible"
    # the order of entries (T2–T5)
    ROUND_PENDING = "round_pending"
    ROUND_NOT_PENDING = "round_not_pending"
    NO_SUCH_ROUND = "no_such_round"
    NOT_LAST_ROUND = "not_last_round"
    GAME_FINISHED = "game_finished"
    ALL_ROUNDS_PLAYED = "all_rounds_played"
    TOO_MANY_ROUNDS = "too_many_rounds"
    NO_ROUNDS = "no_rounds"
    DECIDED_EARLIER = "decided_earlier"
    NOTHING_TO_UNDO = "nothing_to_undo"
    BAD_IMPORT = "bad_import"
    # groups (several games of one circle of players)
    BAD_GROUP_NAME = "bad_group_name"
    TOO_MANY_MEMBERS = "too_many_members"
    NEW_MEMBERS = "new_members"
    NOT_A_MEMBER = "not_a_member"
    BAD_SEASON = "bad_season"


class TafelError(ValueError):
    """Base of all Tafel errors: refused input that changed nothing.

    ``params`` carries the values of the broken limit (``low``/``high`` of a
    count, ``limit`` of players, the ``callers`` of a round, the
    ``implausible`` seats …), so a page only formats a sentence and never
    recomputes a rule.
    """

    def __init__(
        self,
        code: Code,
        message: str,
        *,
        rule: str,
        player: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.player = player
        self.params: Mapping[str, Any] = MappingProxyType(dict(params or {}))

    def with_message(self, message: str) -> TafelError:
        """The same refusal (code, rule, player, params) with another sentence."""
        return type(self)(
            self.code, message, rule=self.rule, player=self.player, params=self.params
        )


class InvalidGameError(TafelError):
    """The players or the mode of a new game break T1."""


class InvalidRoundError(TafelError):
    """The numbers of a round break T2 or T3."""


class ImplausibleRoundError(InvalidRoundError):
    """A round breaks "middle ≥ 10 − stack" (T3); accepted only when confirmed."""


class RoundOrderError(TafelError):
    """The entry does not fit the state of the game (pending round, game over …)."""


class NoSuchRoundError(TafelError, LookupError):
    """The round number does not exist in this game."""


class GroupError(TafelError):
    """A group's name, members or season break the group rules (docs/tafel-api.md)."""
