"""The phases of an online table, shared by the table and the protocol.

One enum instead of the same literals in two places: ``TableInfo.phase``
on the wire is exactly the table's own phase (a ``StrEnum`` is sent as
its plain text, e.g. ``"lobby"``).
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a table is between opening and the end of its game."""

    #: Seats are being filled; nothing is dealt yet.
    LOBBY = "lobby"
    #: A round is dealt; "Ligretto!" is called at ``start_at`` (R3 start signal).
    COUNTDOWN = "countdown"
    #: The round is on: moves are judged in arrival order (R3).
    PLAYING = "playing"
    #: The round ended (R4); its score is shown until the next deal.
    ROUND_OVER = "round_over"
    #: The Tafel decided the game (T4/T5); only "play again" goes on.
    GAME_OVER = "game_over"
