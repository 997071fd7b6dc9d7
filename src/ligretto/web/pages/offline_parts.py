"""Sample views for the board's ``<template>`` copies that the edit page's offline script fills in.

While rounds wait on the phone, the edit page draws the board from the
phone's copy of the game (``static/js/offline/``). It never types the
board's markup itself: the page carries each piece as a ``<template>``
(``_offline_templates.html``), drawn by the same macros and cell writers
as the served board, and the script copies them and writes in the numbers
and words. The views here give those copies every optional part (a rank,
the points to go, a Stop count, a caller's cell), so the script only
leaves out what a state does not have.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ligretto.web.pages.view import BoardView, CellView, PlayerView, RoundView


@dataclass(frozen=True, slots=True)
class BlankEntry:
    """An entry form with nothing typed (the correction's copy is filled by the script)."""

    values: dict[str, str] = field(default_factory=dict)
    invalid: frozenset[str] = frozenset()
    errors: tuple[str, ...] = ()
    implausible: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OfflineParts:
    """What ``_offline_templates.html`` draws its copies from, for one game's board."""

    skeleton: BoardView
    """The board without rounds: the frame of the rounds table (its players, totals' cells)."""
    players: tuple[PlayerView, ...]
    """Every player with every part of their card and ranking line."""
    winners: tuple[PlayerView, ...]
    """The same players as winners (the ranking's line with the trophy)."""
    stacks: tuple[int, ...]
    """A stack for each seat, for the middle's rows (the script writes the real ones)."""
    cell: CellView
    pending_cell: CellView
    row: RoundView
    entry: BlankEntry


def offline_parts(board: BoardView) -> OfflineParts:
    """The sample views for *board*'s ``<template>`` copies."""
    players = tuple(
        replace(p, leader=True, winner=False, last_points=0, to_target=1, calls=1)
        for p in board.players
    )
    return OfflineParts(
        skeleton=replace(board, rounds=(), pending=None),
        players=players,
        winners=tuple(replace(p, winner=True) for p in players),
        stacks=(1,) * len(board.players),
        cell=CellView(stack=1, middle=0, points=-2, total=-2, caller=True),
        pending_cell=CellView(stack=1, middle=None, points=None, total=None, caller=True),
        row=RoundView(number=0, cells=(), complete=False, caller=None, confirmed=False),
        entry=BlankEntry(),
    )
