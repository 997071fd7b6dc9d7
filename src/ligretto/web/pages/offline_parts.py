"""The board's pieces as ``<template>`` copies that the edit page's offline script fills in.

While rounds wait on the phone, the edit page draws the board from the
phone's copy of the game (``static/js/offline/``). It never types the
board's markup itself: the page carries each piece as a ``<template>``
(``_offline_templates.html``), drawn by the same macros and cell writers
as the served board, and the script copies them and writes in the numbers
and words. The sample views here give those copies every optional part (a
rank, the points to go, a Stop count, a caller's cell), so the script only
leaves out what a state does not have.

The copies depend on the game's players and their colours, deck and variant, the edit
page's address and the language, never on the rounds: they are drawn
once and kept (a dozen players' pieces take longer to draw than the rest
of the page).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from fastapi import Request
from markupsafe import Markup

from ligretto.web.deps import edit_base
from ligretto.web.pages.view import BoardView, CellView, PlayerView, RoundView
from ligretto.web.rendering import environment, request_language

PIECES_KEPT = 256
"""How many games' pieces are kept (by language): the games being scored right now."""


@dataclass(frozen=True, slots=True)
class BlankEntry:
    """An entry form with nothing typed (the correction's copy is filled by the script)."""

    values: dict[str, str] = field(default_factory=dict)
    invalid: frozenset[str] = frozenset()
    errors: tuple[str, ...] = ()
    implausible: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OfflineParts:
    """The sample views ``_offline_templates.html`` draws its copies from."""

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


def skeleton(
    game_id: str,
    names: tuple[str, ...],
    deck: str,
    row_storage: bool,
    colours: tuple[int, ...] | None = None,
) -> BoardView:
    """A board of *names* (in their *colours*) without rounds: the frame the pieces are drawn in."""
    players = tuple(
        PlayerView(
            seat=seat,
            name=name,
            total=0,
            rank=1,
            leader=True,
            winner=False,
            last_points=0,
            to_target=1,
            calls=1,
            colour=seat if colours is None else colours[seat],
        )
        for seat, name in enumerate(names)
    )
    return BoardView(
        game_id=game_id,
        version=0,
        players=players,
        rounds=(),
        mode="target",
        target=None,
        agreed_rounds=None,
        rounds_left=None,
        status="playing",
        closed=False,
        scored=False,
        winners=(),
        leaders=(),
        pending=None,
        accepts_new_round=True,
        complete_rounds=1,
        row_storage=row_storage,
        deck=deck,
    )


@lru_cache(maxsize=PIECES_KEPT)
def _pieces(
    language: str,
    edit_base: str,
    game_id: str,
    names: tuple[str, ...],
    deck: str,
    row_storage: bool,
    colours: tuple[int, ...],
) -> Markup:
    board = skeleton(game_id, names, deck, row_storage, colours)
    parts = OfflineParts(
        players=board.players,
        winners=tuple(replace(p, winner=True) for p in board.players),
        stacks=(1,) * len(names),
        cell=CellView(stack=1, middle=0, points=-2, total=-2, caller=True),
        pending_cell=CellView(stack=1, middle=None, points=None, total=None, caller=True),
        row=RoundView(number=0, cells=(), complete=False, caller=None, confirmed=False),
        entry=BlankEntry(),
    )
    template = environment(language).get_template("_offline_templates.html")
    # The forms' token and version are the script's to write in (it keeps the token).
    html = template.render(board=board, offline=parts, edit_base=edit_base, token=None)
    return Markup(html)  # drawn by our own autoescaping templates


def offline_pieces(request: Request, board: BoardView) -> Markup:
    """The ``<template>`` copies of *board*'s pieces for its edit page, in the reader's language."""
    names = tuple(p.name for p in board.players)
    colours = tuple(p.colour for p in board.players)
    language = request_language(request)
    base = edit_base(board.game_id)
    return _pieces(language, base, board.game_id, names, board.deck, board.row_storage, colours)
