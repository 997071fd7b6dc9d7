"""What the board pages show, derived from a :class:`~ligretto.tafel.Game`.

The templates read these frozen values only; every number on the board
comes from the domain (totals, ranks and the outcome are never computed
here, T6), this module only arranges them for the page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from markupsafe import Markup

from ligretto.tafel import Game, Mode, Round
from ligretto.tafel.ending import FamilyNote, deciding_round
from ligretto.web.chart_kit import legend_key, seat_class, seat_colours
from ligretto.web.charts import Series, direct_labels, running_totals_svg
from ligretto.web.text import N_, gettext

COMPACT_FROM = 7
"""From this many players the board switches to its compact layout (360 px, T6)."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    name: str
    total: int
    rank: int
    leader: bool
    winner: bool
    last_points: int | None
    to_target: int | None
    calls: int
    """How often this player called Ligretto Stop (complete and pending rounds)."""
    colour: int
    """The colour index (:func:`~ligretto.web.charts.seat_colours`): the member's
    place in the group's member list for a game of a group, else the seat."""

    @property
    def colour_class(self) -> str:
        """The CSS class of the player's colour (and, through it, the shape of their mark)."""
        return seat_class(self.colour)


@dataclass(frozen=True, slots=True)
class CellView:
    stack: int
    middle: int | None
    points: int | None
    total: int | None
    caller: bool


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    cells: tuple[CellView, ...]
    complete: bool
    caller: str | None
    confirmed: bool


@dataclass(frozen=True, slots=True)
class BoardView:
    """Everything the board fragment needs, for the watch and the edit page."""

    game_id: str
    version: int
    players: tuple[PlayerView, ...]
    rounds: tuple[RoundView, ...]
    mode: str
    target: int | None
    agreed_rounds: int | None
    rounds_left: int | None
    status: str
    closed: bool
    scored: bool
    winners: tuple[str, ...]
    leaders: tuple[str, ...]
    pending: RoundView | None
    accepts_new_round: bool
    complete_rounds: int
    row_storage: bool
    deck: str
    deciding_round: int | None = None
    """The round after which the outcome held (:func:`~ligretto.tafel.ending.deciding_round`)."""
    replays: Mapping[int, str] = field(default_factory=dict)
    """The replay page of each round an online table played and kept (by round number)."""

    @property
    def compact(self) -> bool:
        return len(self.players) >= COMPACT_FROM

    @property
    def next_round_number(self) -> int:
        return len(self.rounds) + 1

    @property
    def can_finish(self) -> bool:
        """Beenden (T5) is offered once a complete round exists and nothing is pending."""
        return not self.closed and self.pending is None and self.complete_rounds > 0

    @property
    def all_rounds_played(self) -> bool:
        return self.rounds_left == 0

    @property
    def show_outcome(self) -> bool:
        """Whether the winners are announced.

        A target game is decided by its rounds (T4); a rounds game after
        "Werten" (T5), so the table gets its moment of scoring.
        """
        if not self.winners:
            return False
        return self.mode == Mode.TARGET.value or self.scored

    def seat_cells(self, seat: int) -> tuple[CellView, ...]:
        """*seat*'s cell in every round (a row of the turned table)."""
        return tuple(r.cells[seat] for r in self.rounds)

    def legend_key(self, colour: int) -> Markup:
        """The chart's line of colour index *colour* in small, for the legend."""
        return legend_key(colour)

    @property
    def chart_labelled(self) -> bool:
        """Whether the chart names the lines itself; otherwise the board shows a legend."""
        return direct_labels([p.name for p in self.players])

    def chart(
        self, *, title: str, description: str, round_label: str, language: str = "en"
    ) -> Markup | None:
        """The SVG of running totals over the complete rounds, or None before the first."""
        complete = [r for r in self.rounds if r.complete]
        if not complete:
            return None
        series = [
            Series(
                player.name,
                tuple(r.cells[player.seat].total or 0 for r in complete),
                player.colour,
            )
            for player in self.players
        ]
        # The board's legend (with the totals) names the lines where the chart does not.
        return running_totals_svg(
            series,
            title=title,
            description=description,
            round_label=round_label,
            target=self.target,
            language=language,
            legend=False,
        )


def board_view(
    game_id: str,
    version: int,
    game: Game,
    member_places: Sequence[int | None] | None = None,
    replays: Mapping[int, str] | None = None,
) -> BoardView:
    """Arrange *game* for the pages.

    *member_places* (a game of a group) holds each seat's place in the
    group's member list: a member has the colour of that place on the
    board and in every chart of the group. Without, the seats give the colours.
    *replays*: the replay page of each round an online table kept
    (:func:`~ligretto.web.deps.replay_links`).
    """
    colours = seat_colours(range(len(game.players)) if member_places is None else member_places)
    totals = game.totals
    ranks = game.ranks
    winners = game.winners
    running = game.running_totals()
    names = game.players
    rounds = [round_view(names, r, after) for r, after in zip(game.rounds, running, strict=True)]
    calls = Counter(view.caller for view in rounds)
    last_complete = next((r for r in reversed(rounds) if r.complete), None)
    top = max(totals)
    any_points = game.complete_rounds > 0
    players = tuple(
        PlayerView(
            seat=seat,
            name=name,
            total=totals[seat],
            rank=ranks[seat],
            leader=any_points and totals[seat] == top,
            winner=name in winners,
            last_points=None if last_complete is None else last_complete.cells[seat].points,
            calls=calls[name],
            colour=colours[seat],
            to_target=(
                max(game.target - totals[seat], 0)
                if game.mode is Mode.TARGET and game.target is not None
                else None
            ),
        )
        for seat, name in enumerate(game.players)
    )
    rounds_left = (
        max(game.agreed_rounds - game.complete_rounds, 0)
        if game.mode is Mode.ROUNDS and game.agreed_rounds is not None
        else None
    )
    pending = game.pending_round
    return BoardView(
        game_id=game_id,
        version=version,
        players=players,
        rounds=tuple(rounds),
        mode=game.mode.value,
        target=game.target,
        agreed_rounds=game.agreed_rounds,
        rounds_left=rounds_left,
        status=game.status.value,
        closed=game.closed,
        scored=game.scored,
        winners=winners,
        leaders=tuple(p.name for p in players if p.leader),
        pending=None if pending is None else rounds[pending.number - 1],
        accepts_new_round=game.accepts_new_round,
        complete_rounds=game.complete_rounds,
        row_storage=game.row_storage,
        deck=game.deck.value,
        deciding_round=deciding_round(game),
        replays=replays or {},
    )


def ordinal(language: str, n: int) -> str:
    """*n* as an ordinal number: "3rd" in English, "3." in German and Norwegian."""
    if not language.startswith("en"):
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def family_line(language: str, note: FamilyNote | None, this_year: int) -> str | None:
    """One line of the group's history for a won game, or None (no group, nothing to tell).

    Each winner's win of the year (T5: every winner of a shared victory),
    then the group's best round if the game holds it.
    """
    if note is None:
        return None
    parts = [
        gettext(
            language,
            N_("%(name)s's %(nth)s win this year")
            if win.year == this_year
            else N_("%(name)s's %(nth)s win of %(year)s"),
            name=win.name,
            nth=ordinal(language, win.nth),
            year=win.year,
        )
        for win in note.wins
    ]
    if note.best is not None:
        parts.append(
            gettext(
                language,
                N_("Best round ever: %(name)s, %(points)s points in round %(round)s"),
                name=note.best.name,
                points=note.best.points,
                round=note.best.round,
            )
        )
    return " · ".join(parts) or None


ROUND_VIEWS_KEPT = 16_384
"""How many round views are kept for the next board (a few hundred games' rounds)."""


@lru_cache(maxsize=ROUND_VIEWS_KEPT)
def round_view(players: tuple[str, ...], rnd: Round, after: tuple[int, ...] | None) -> RoundView:
    """One round as the board shows it, with the running totals ``after`` it.

    Kept for the next board: after a new round every earlier one has the
    same round and totals, so a long game's board (rendered for its
    watchers after every change, ``board_push``) rebuilds only the new row;
    a correction changes the totals after it, and those rows are new keys.
    The same view object comes back for the same round, which lets the row
    cache of :mod:`ligretto.web.pages.cells` find it again quickly.
    """
    points = rnd.points
    caller = rnd.caller
    cells = tuple(
        CellView(
            stack=rnd.stacks[seat],
            middle=None if rnd.middle is None else rnd.middle[seat],
            points=None if points is None else points[seat],
            total=None if after is None else after[seat],
            caller=caller == seat,
        )
        for seat in range(len(players))
    )
    return RoundView(
        number=rnd.number,
        cells=cells,
        complete=rnd.complete,
        caller=None if caller is None else players[caller],
        confirmed=rnd.confirmed,
    )
