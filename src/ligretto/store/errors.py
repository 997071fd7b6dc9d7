"""The store's own errors; the domain's refusals are :class:`ligretto.tafel.TafelError`.

Like a ``TafelError``, every store error carries a stable machine ``code``
(:class:`StoreCode`): the API answers with it and the pages translate it,
so nobody decides what to say by reading the English message.
"""

from __future__ import annotations

from enum import StrEnum


class StoreCode(StrEnum):
    """Stable machine codes of the store's errors (the API sends them, the pages translate)."""

    GAME_NOT_FOUND = "game_not_found"
    FORBIDDEN = "forbidden"
    """The game's edit token is missing or wrong."""
    VERSION_CONFLICT = "version_conflict"
    BUSY = "busy"
    GROUP_NOT_FOUND = "group_not_found"
    GROUP_FORBIDDEN = "group_forbidden"
    """The group's token is missing or wrong."""
    GAME_IN_GROUP = "game_in_group"
    GAME_NOT_IN_GROUP = "game_not_in_group"


class StoreError(Exception):
    """Base of the store's own errors (the domain's are ``TafelError``)."""

    code: StoreCode
    """What went wrong, for the API's answers and the pages' sentences."""


class GameNotFoundError(StoreError, LookupError):
    """No game has this id."""

    code = StoreCode.GAME_NOT_FOUND

    def __init__(self, game_id: str) -> None:
        super().__init__("there is no game with this id")
        self.game_id = game_id


class ForbiddenError(StoreError, PermissionError):
    """The edit token is missing or wrong."""

    code = StoreCode.FORBIDDEN

    def __init__(self) -> None:
        super().__init__("this needs the game's edit link (a valid edit token)")


class VersionConflictError(StoreError):
    """The write was based on an old version: another phone changed the game first."""

    code = StoreCode.VERSION_CONFLICT

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            f"the game was changed meanwhile (version {current}, this change was based on "
            f"version {expected}); reload and enter it again"
        )
        self.expected = expected
        self.current = current


class StoreBusyError(StoreError):
    """The database stayed locked by other writers longer than the busy timeout.

    Nothing was written; the same request may simply be sent again after
    ``retry_after`` seconds.
    """

    code = StoreCode.BUSY

    retry_after = 2
    """Seconds a client should wait before it sends the request again."""

    def __init__(self) -> None:
        super().__init__(
            "the server is busy saving other changes; nothing was changed, "
            f"please try again in {self.retry_after} seconds"
        )


class GroupNotFoundError(StoreError, LookupError):
    """No group has this id."""

    code = StoreCode.GROUP_NOT_FOUND

    def __init__(self, group_id: str) -> None:
        super().__init__("there is no group with this id")
        self.group_id = group_id


class GameInGroupError(StoreError):
    """The game already belongs to a group (a game belongs to at most one)."""

    code = StoreCode.GAME_IN_GROUP

    def __init__(self, game_id: str, elsewhere: bool) -> None:
        super().__init__(
            "this game already belongs to another group"
            if elsewhere
            else "this game already belongs to this group"
        )
        self.game_id = game_id
        self.elsewhere = elsewhere


class GameNotInGroupError(StoreError, LookupError):
    """The game does not belong to this group."""

    code = StoreCode.GAME_NOT_IN_GROUP

    def __init__(self, game_id: str) -> None:
        super().__init__("this game does not belong to the group")
        self.game_id = game_id


class GroupForbiddenError(ForbiddenError):
    """The group's token is missing or wrong (or, :meth:`for_game`, the game's)."""

    code = StoreCode.GROUP_FORBIDDEN

    def __init__(self, message: str = "this needs the group's link (a valid group token)") -> None:
        StoreError.__init__(self, message)

    @classmethod
    def for_game(cls) -> GroupForbiddenError:
        """The game's edit token is missing or wrong (adding an existing game needs it)."""
        error = cls("adding a game to a group needs the game's edit link (its edit token)")
        error.code = StoreCode.FORBIDDEN  # the token that was wrong is the game's
        return error
