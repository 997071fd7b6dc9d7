"""A game on the Tafel (docs/rules.md, T1–T6).

The :class:`Game` is a mutable domain object with checked entry points: each
entry (``open_round``, ``complete_round``, ``correct_round``,
``remove_last_round``, ``finish``, ``score``) first verifies everything and
raises a :class:`~ligretto.tafel.errors.TafelError` without touching the game,
then changes it. Totals, ranks and the outcome are never stored: they are
derived from the rounds every time (T6: a correction reopens or re-decides a
game by itself).

>>> game = Game(["Anna", "Ben"], mode=Mode.TARGET, target=50)
>>> game.open_round({"Anna": 0, "Ben": 3}).number
1
>>> game.complete_round(1, {"Anna": 20, "Ben": 14}).points
(20, 8)
>>> game.totals
(20, 8)
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from ligretto.rules.result import points as round_points
from ligretto.tafel.errors import (
    Code,
    ImplausibleRoundError,
    InvalidGameError,
    InvalidRoundError,
    NoSuchRoundError,
    RoundOrderError,
    TafelError,
)
from ligretto.tafel.limits import (
    DEFAULT_TARGET,
    MAX_AGREED_ROUNDS,
    MAX_ROUNDS,
    MAX_TARGET,
    MIN_PLAYERS,
    STACK_CARDS,
    least_plausible_middle,
    max_players,
    middle_limit,
)
from ligretto.tafel.names import clean_name, name_key, printable
from ligretto.tafel.outcome import after_round, leaders, ranks

_E = TypeVar("_E", bound=StrEnum)


class Mode(StrEnum):
    """How a game ends (T1): at a target score (T4) or after agreed rounds (T5)."""

    TARGET = "target"
    ROUNDS = "rounds"


class Deck(StrEnum):
    """What the table plays with (R1): Ligretto boxes or ordinary playing cards."""

    LIGRETTO = "ligretto"
    CARDS = "cards"


class Status(StrEnum):
    """Where a game stands (T4/T5)."""

    PLAYING = "playing"
    TIEBREAK = "tiebreak"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Round:
    """One round on the Tafel: stack counts first (T2), the middle later (T3).

    ``stacks`` and ``middle`` hold one count per player in seating order.
    A round without ``middle`` is pending. ``confirmed`` records that the
    table confirmed an implausible round (T3).
    """

    number: int
    stacks: tuple[int, ...]
    middle: tuple[int, ...] | None = None
    confirmed: bool = False

    @property
    def complete(self) -> bool:
        """Whether the middle has been entered (T3)."""
        return self.middle is not None

    @property
    def caller(self) -> int | None:
        """Seat of the player who called Ligretto Stop (stack 0), or None (R4 deadlock)."""
        for seat, stack in enumerate(self.stacks):
            if stack == 0:
                return seat
        return None

    @property
    def points(self) -> tuple[int, ...] | None:
        """Points per player: middle − 2 × stack (R5); None while pending."""
        if self.middle is None:
            return None
        return tuple(round_points(m, s) for m, s in zip(self.middle, self.stacks, strict=True))


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place in the ranking; ties share a rank (1, 1, 3)."""

    player: str
    seat: int
    total: int
    rank: int


@dataclass(frozen=True, slots=True)
class _Scan:
    """What the rounds imply (T4/T5), computed in one pass."""

    totals: tuple[int, ...]
    complete_rounds: int
    target_reached: bool
    decided_after: int | None  # the round that ended a target game (T4)


def is_whole(value: object) -> bool:
    """A whole number as JSON gives it: an ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def _scan(game: Game, rounds: Sequence[Round], start: _Scan | None = None) -> _Scan:
    """Totals and the T4 outcome over ``rounds``, continuing from ``start`` if given."""
    if start is None:
        totals = [0] * len(game.players)
        reached, decided, complete = False, None, 0
    else:
        totals = list(start.totals)
        reached, decided, complete = (
            start.target_reached,
            start.decided_after,
            start.complete_rounds,
        )
    seats = range(len(totals))
    target = game.target if game.mode is Mode.TARGET else None
    for rnd in rounds:
        middle = rnd.middle
        if middle is None:
            break
        stacks = rnd.stacks
        complete += 1
        for seat in seats:
            totals[seat] += round_points(middle[seat], stacks[seat])
        if target is not None and decided is None:
            reached, now = after_round(totals, target, reached)  # T4
            if now:
                decided = complete
    return _Scan(tuple(totals), complete, reached, decided)


class Game:
    """A game ("Partie") on the Tafel (T1) with its rounds (T2/T3) and outcome (T4/T5)."""

    def __init__(
        self,
        players: Iterable[str],
        *,
        mode: Mode | str = Mode.TARGET,
        target: int | None = None,
        agreed_rounds: int | None = None,
        deck: Deck | str = Deck.LIGRETTO,
        row_storage: bool = False,
        _stored: bool = False,
    ) -> None:
        self.deck = _parse_enum(Deck, deck, Code.BAD_DECK, "deck", "T1")
        self.mode = _parse_enum(Mode, mode, Code.BAD_MODE, "mode", "T1")
        # A stored game keeps its names as they were accepted: the name rule
        # has grown stricter since some were stored (``restore``).
        self.players = tuple(players) if _stored else _check_players(players, self.deck)
        self.target: int | None = None
        self.agreed_rounds: int | None = None
        if self.mode is Mode.TARGET:
            if agreed_rounds is not None:
                raise InvalidGameError(
                    Code.BAD_ROUNDS,
                    "a target game has no agreed number of rounds (T1)",
                    rule="T1",
                    params={"low": 1, "high": MAX_AGREED_ROUNDS},
                )
            self.target = _check_target(DEFAULT_TARGET if target is None else target)
        else:
            if target is not None:
                raise InvalidGameError(
                    Code.BAD_TARGET,
                    "a rounds game has no target score (T1)",
                    rule="T1",
                    params={"low": 1, "high": MAX_TARGET},
                )
            self.agreed_rounds = _check_agreed_rounds(agreed_rounds)
        if not isinstance(row_storage, bool):
            raise InvalidGameError(
                Code.BAD_MODE, "row_storage must be true or false (R6)", rule="R6"
            )
        self.row_storage = row_storage
        self.rounds: list[Round] = []
        self.closed = False
        """Beenden (T5) was used: no more rounds."""
        self.scored = False
        """Werten (T5) was used: the final ranking is shown."""
        self._seat_by_key: dict[str, int] = {}
        for seat, name in enumerate(self.players):
            # Two stored names that the rule now finds alike: the first one
            # is found by the name, the other by its seat.
            self._seat_by_key.setdefault(name_key(name), seat)
        self._scan_cache: _Scan | None = None

    # ----------------------------------------------------------------- restore
    @classmethod
    def restore(
        cls,
        players: Sequence[str],
        *,
        mode: str,
        target: int | None,
        agreed_rounds: int | None,
        deck: str,
        row_storage: bool,
        rounds: Iterable[Round],
        closed: bool,
        scored: bool,
    ) -> Game:
        """Rebuild a stored game without replaying its checks (trusted input).

        The players' names are taken as stored: a name accepted before the
        name rule (T1) refused its invisible characters, or two names the
        rule now finds alike, still open the game they were played in.
        """
        game = cls(
            players,
            mode=mode,
            target=target,
            agreed_rounds=agreed_rounds,
            deck=deck,
            row_storage=row_storage,
            _stored=True,
        )
        game.rounds = list(rounds)
        game.closed = closed
        game.scored = scored
        return game

    def copy(self) -> Game:
        """An independent copy (rounds are immutable values, so this is cheap)."""
        other = copy.copy(self)
        other.rounds = list(self.rounds)
        return other

    # ------------------------------------------------------------ derived values
    def _state(self) -> _Scan:
        if self._scan_cache is None:
            self._scan_cache = _scan(self, self.rounds)
        return self._scan_cache

    def _changed(self) -> None:
        self._scan_cache = None

    @property
    def totals(self) -> tuple[int, ...]:
        """Total per player over the complete rounds (T4), in seating order."""
        return self._state().totals

    def running_totals(self) -> list[tuple[int, ...] | None]:
        """Totals after each round (None for a pending round) (T6)."""
        result: list[tuple[int, ...] | None] = []
        totals = [0] * len(self.players)
        for rnd in self.rounds:
            points = rnd.points
            if points is None:
                result.append(None)
                continue
            for seat, p in enumerate(points):
                totals[seat] += p
            result.append(tuple(totals))
        return result

    @property
    def ranks(self) -> tuple[int, ...]:
        """Rank per player in seating order; ties share a rank (1, 1, 3) (T6)."""
        return ranks(self.totals)

    @property
    def ranking(self) -> list[Standing]:
        """Players ordered by rank, ties in seating order."""
        ranks = self.ranks
        standings = [
            Standing(name, seat, self.totals[seat], ranks[seat])
            for seat, name in enumerate(self.players)
        ]
        return sorted(standings, key=lambda s: (s.rank, s.seat))

    @property
    def pending_round(self) -> Round | None:
        """The round with stacks but no middle yet (T2), if any."""
        if self.rounds and not self.rounds[-1].complete:
            return self.rounds[-1]
        return None

    @property
    def complete_rounds(self) -> int:
        return self._state().complete_rounds

    @property
    def decided_after(self) -> int | None:
        """The round after which a target game was decided (T4), if it was."""
        return self._state().decided_after

    @property
    def status(self) -> Status:
        """``playing``, ``tiebreak`` (T4: the top is shared after the target) or ``finished``."""
        state = self._state()
        if self.closed:
            return Status.FINISHED
        if self.mode is Mode.TARGET:
            if state.decided_after is not None:
                return Status.FINISHED
            return Status.TIEBREAK if state.target_reached else Status.PLAYING
        assert self.agreed_rounds is not None
        if state.complete_rounds >= self.agreed_rounds:
            return Status.FINISHED  # T5: after the last agreed round
        return Status.PLAYING

    @property
    def finished(self) -> bool:
        return self.status is Status.FINISHED

    @property
    def winners(self) -> tuple[str, ...]:
        """The winner, or the winners of a shared victory (T5); empty while undecided."""
        if not self.finished:
            return ()
        return tuple(self.players[seat] for seat in leaders(self.totals))

    @property
    def accepts_new_round(self) -> bool:
        """Whether ``open_round`` would be accepted now (apart from the numbers)."""
        try:
            self._verify_can_open()
        except TafelError:
            return False
        return True

    # ------------------------------------------------------------------ lookup
    def seat_of(self, name: str) -> int:
        """Seat of a player, matching names as T1 compares them (:func:`name_key`)."""
        seat = self._seat_by_key.get(name_key(str(name)))
        if seat is None:
            shown = printable(str(name))
            raise InvalidRoundError(
                Code.UNKNOWN_PLAYER,
                f"{shown!r} does not play in this game (players: {', '.join(self.players)})",
                rule="T1",
                player=shown,
            )
        return seat

    def round(self, number: int) -> Round:
        """Round ``number`` (counted from 1)."""
        if not is_whole(number) or not 1 <= number <= len(self.rounds):
            raise NoSuchRoundError(
                Code.NO_SUCH_ROUND,
                f"there is no round {number}: the game has {len(self.rounds)} round(s)",
                rule="T6",
            )
        return self.rounds[number - 1]

    def _counts(
        self, values: Mapping[str, object] | Sequence[object], what: str, rule: str
    ) -> list[object]:
        """Arrange per-player values in seating order; every player exactly once."""
        if isinstance(values, Mapping):
            arranged: list[object] = [None] * len(self.players)
            given = [False] * len(self.players)
            for name, value in values.items():
                seat = self.seat_of(name)
                if given[seat]:
                    raise InvalidRoundError(
                        Code.DUPLICATE_NAME,
                        f"{self.players[seat]}: {what} given twice",
                        rule="T1",
                        player=self.players[seat],
                    )
                given[seat] = True
                arranged[seat] = value
            for seat, ok in enumerate(given):
                if not ok:
                    raise InvalidRoundError(
                        Code.MISSING_PLAYER,
                        f"{self.players[seat]}: {what} missing; every player needs one",
                        rule=rule,
                        player=self.players[seat],
                    )
            return arranged
        if isinstance(values, str | bytes) or not isinstance(values, Sequence):
            raise InvalidRoundError(
                Code.MISSING_PLAYER,
                f"give one {what} per player, by name",
                rule=rule,
            )
        if len(values) != len(self.players):
            raise InvalidRoundError(
                Code.MISSING_PLAYER,
                f"give one {what} per player: {len(self.players)} expected, {len(values)} given",
                rule=rule,
            )
        return list(values)

    def _checked_counts(
        self,
        values: Mapping[str, object] | Sequence[object],
        what: str,
        rule: str,
        highest: Callable[[int], int],
        impossible: Callable[[int, int], str],
    ) -> tuple[int, ...]:
        """Per-player counts in seating order, each a whole number from 0 to ``highest(seat)``.

        ``impossible(seat, value)`` says why a whole number out of range cannot be.
        """
        checked: list[int] = []
        for seat, value in enumerate(self._counts(values, what, rule)):
            name = self.players[seat]
            high = highest(seat)
            bounds = {"low": 0, "high": high}
            if not is_whole(value):
                raise InvalidRoundError(
                    Code.NOT_A_WHOLE_NUMBER,
                    f"{name}: the {what} must be a whole number from 0 to {high}, "
                    f"not {value!r} ({rule})",
                    rule=rule,
                    player=name,
                    params=bounds,
                )
            assert isinstance(value, int)
            if not 0 <= value <= high:
                raise InvalidRoundError(
                    Code.OUT_OF_RANGE,
                    f"{name}: {impossible(seat, value)} ({rule})",
                    rule=rule,
                    player=name,
                    params=bounds,
                )
            checked.append(value)
        return tuple(checked)

    # -------------------------------------------------------------- validation
    def check_stacks(self, stacks: Mapping[str, object] | Sequence[object]) -> tuple[int, ...]:
        """Validate stack counts (T2) and return them in seating order."""
        checked = self._checked_counts(
            stacks,
            "stack count",
            "T2",
            lambda seat: STACK_CARDS,
            lambda seat, value: (
                f"{value} cards left in the Ligretto stack is impossible; "
                f"a stack holds 0 to {STACK_CARDS}"
            ),
        )
        callers = [self.players[seat] for seat, s in enumerate(checked) if s == 0]
        if len(callers) > 1:
            raise InvalidRoundError(
                Code.TWO_CALLERS,
                "two empty stacks: only one player can call Ligretto Stop "
                f"({' and '.join(callers)} both have 0) (T2)",
                rule="T2",
                player=callers[1],
                params={"callers": tuple(callers)},
            )
        return checked

    def check_middle(
        self,
        stacks: tuple[int, ...],
        middle: Mapping[str, object] | Sequence[object],
        *,
        confirm: bool = False,
    ) -> tuple[int, ...]:
        """Validate middle counts against the stacks (T3); return them in seating order.

        Raises :class:`ImplausibleRoundError` for "middle < 10 − stack" unless
        ``confirm`` is true or the game uses the row as storage (R6).
        """
        checked = self._checked_counts(
            middle,
            "middle count",
            "T3",
            lambda seat: middle_limit(stacks[seat]),
            lambda seat, value: (
                f"{value} cards in the middle is impossible with {stacks[seat]} "
                f"left in the stack; it must be 0 to {middle_limit(stacks[seat])}"
            ),
        )
        if not self.row_storage and not confirm:
            # T3: without the row as storage a stack card only leaves to the
            # middle or into a row gap a middle play opened.
            odd = [
                seat
                for seat, (s, m) in enumerate(zip(stacks, checked, strict=True))
                if m < least_plausible_middle(s)
            ]
            if odd:
                implausible = tuple(
                    {
                        "player": self.players[seat],
                        "middle": checked[seat],
                        "left": least_plausible_middle(stacks[seat]),
                    }
                    for seat in odd
                )
                details = "; ".join(
                    f"{seat['player']}: {seat['middle']} in the middle but "
                    f"{seat['left']} cards left the stack"
                    for seat in implausible
                )
                raise ImplausibleRoundError(
                    Code.IMPLAUSIBLE,
                    f"implausible round — {details}; every card that left the Ligretto "
                    "stack went to the middle or filled a row gap a middle card opened, "
                    "so the middle needs at least 10 − stack (T3). Confirm to save it anyway.",
                    rule="T3",
                    player=self.players[odd[0]],
                    params={"implausible": implausible},
                )
        return tuple(checked)

    def _verify_can_open(self) -> None:
        pending = self.pending_round
        if pending is not None:
            raise RoundOrderError(
                Code.ROUND_PENDING,
                f"round {pending.number} still needs its middle counts; "
                "complete it before starting the next (T2)",
                rule="T2",
            )
        if self.closed:
            raise RoundOrderError(
                Code.GAME_FINISHED, "the game is finished: no more rounds (T5)", rule="T5"
            )
        if self.mode is Mode.ROUNDS:
            assert self.agreed_rounds is not None
            if len(self.rounds) >= self.agreed_rounds:
                raise RoundOrderError(
                    Code.ALL_ROUNDS_PLAYED,
                    f"all {self.agreed_rounds} agreed rounds are played (T5)",
                    rule="T5",
                )
        elif self.decided_after is not None:
            raise RoundOrderError(
                Code.GAME_FINISHED,
                f"the game was decided after round {self.decided_after}: no more rounds (T4)",
                rule="T4",
            )
        if len(self.rounds) >= MAX_ROUNDS:
            raise RoundOrderError(
                Code.TOO_MANY_ROUNDS,
                f"a game has at most {MAX_ROUNDS} rounds (T1): finish this one and start another",
                rule="T1",
                params={"limit": MAX_ROUNDS},
            )

    def _verify_sequence(self, rounds: Sequence[Round]) -> None:
        """A target game ends with its deciding round (T4): none may follow it."""
        if self.mode is not Mode.TARGET:
            return
        decided = _scan(self, rounds).decided_after
        if decided is not None and decided < len(rounds):
            raise RoundOrderError(
                Code.DECIDED_EARLIER,
                f"with this change the game would have been decided after round {decided} "
                f"(T4), yet {len(rounds) - decided} round(s) follow it; remove the later "
                "rounds first",
                rule="T4",
            )

    # ----------------------------------------------------------------- entries
    def open_round(self, stacks: Mapping[str, object] | Sequence[object]) -> Round:
        """Save a new round with its stack counts only (T2); it is pending until completed."""
        self._verify_can_open()
        checked = self.check_stacks(stacks)
        rnd = Round(len(self.rounds) + 1, checked)
        self.rounds.append(rnd)
        # A pending round adds no points (T2): the derived values still hold.
        return rnd

    def complete_round(
        self,
        number: int,
        middle: Mapping[str, object] | Sequence[object],
        *,
        confirm: bool = False,
    ) -> Round:
        """Enter the middle counts of the pending round (T3); the points follow (R5)."""
        old = self.round(number)
        if old.complete:
            raise RoundOrderError(
                Code.ROUND_NOT_PENDING,
                f"round {number} is already complete; correct it instead (T6)",
                rule="T6",
            )
        checked = self.check_middle(old.stacks, middle, confirm=confirm)
        rnd = Round(number, old.stacks, checked, confirmed=confirm)
        self.rounds[number - 1] = rnd
        state = self._scan_cache
        # Completing the last round extends the totals by one round instead of
        # summing every round again (an entry costs the same in round 500).
        self._scan_cache = None if state is None else _scan(self, [rnd], state)
        return rnd

    def correct_round(
        self,
        number: int,
        *,
        stacks: Mapping[str, object] | Sequence[object] | None = None,
        middle: Mapping[str, object] | Sequence[object] | None = None,
        confirm: bool = False,
    ) -> Round:
        """Correct any round (T6); what is not given stays. Totals and outcome follow.

        A correction may reopen a finished target game or re-decide it; it is
        refused if the game would then have ended before later rounds (T4).
        A correction to the counts the round already has returns the round
        as it is and changes nothing.
        """
        old = self.round(number)
        new_stacks = old.stacks if stacks is None else self.check_stacks(stacks)
        if middle is not None:
            new_middle: tuple[int, ...] | None = self.check_middle(
                new_stacks, middle, confirm=confirm
            )
            confirmed = confirm
        elif old.middle is not None:
            # Re-check the kept middle against the new stacks (T3).
            keep_confirmed = old.confirmed or confirm
            new_middle = self.check_middle(new_stacks, list(old.middle), confirm=keep_confirmed)
            confirmed = keep_confirmed
        else:
            new_middle, confirmed = None, False
        rnd = Round(number, new_stacks, new_middle, confirmed=confirmed)
        if rnd == old:
            # The same counts again (a form sent twice, a request repeated):
            # nothing changes, so the history gets no entry an Undo would
            # then take back instead of the last real change (T6).
            return old
        candidate = [*self.rounds[: number - 1], rnd, *self.rounds[number:]]
        self._verify_sequence(candidate)
        self.rounds = candidate
        self._changed()
        return rnd

    def remove_last_round(self, number: int | None = None) -> Round:
        """Remove the last round (T6); only the last one can go. Reopens the game."""
        if not self.rounds:
            raise NoSuchRoundError(Code.NO_SUCH_ROUND, "there is no round to remove", rule="T6")
        if number is not None:
            self.round(number)
            if number != len(self.rounds):
                raise RoundOrderError(
                    Code.NOT_LAST_ROUND,
                    f"only the last round ({len(self.rounds)}) can be removed; "
                    f"correct round {number} instead (T6)",
                    rule="T6",
                )
        rnd = self.rounds.pop()
        # Removing a round means the table goes on playing: Beenden/Werten no
        # longer hold (T5), the outcome is derived afresh (T6).
        self.closed = False
        self.scored = False
        self._changed()
        return rnd

    def restore_round(
        self, rnd: Round, *, closed: bool | None = None, scored: bool | None = None
    ) -> Round:
        """Put round ``rnd.number`` back as it was before the last change (Undo, T6).

        The number is an existing round (its earlier counts come back: a
        correction or a middle undone) or the next one (a removed last round
        comes back at its place). The counts are checked as any entry's
        (T2/T3; ``rnd.confirmed`` stands for the table's confirmation), only
        the last round may wait for its middle, and a target game must not
        have ended before a later round (T4). *closed* and *scored* put
        Beenden/Werten back as they were (removing a round clears both).
        """
        number = rnd.number
        if not 1 <= number <= len(self.rounds) + 1:
            raise NoSuchRoundError(
                Code.NO_SUCH_ROUND, f"there is no round {number} to put back", rule="T6"
            )
        if number > MAX_ROUNDS:
            raise RoundOrderError(
                Code.TOO_MANY_ROUNDS,
                f"a game has at most {MAX_ROUNDS} rounds (T1)",
                rule="T1",
                params={"limit": MAX_ROUNDS},
            )
        stacks = self.check_stacks(list(rnd.stacks))
        middle = (
            None
            if rnd.middle is None
            else self.check_middle(stacks, list(rnd.middle), confirm=rnd.confirmed)
        )
        restored = Round(number, stacks, middle, confirmed=rnd.confirmed and middle is not None)
        candidate = [*self.rounds[: number - 1], restored, *self.rounds[number:]]
        if any(r.middle is None for r in candidate[:-1]):
            raise RoundOrderError(
                Code.ROUND_PENDING,
                "only the last round can wait for its middle counts (T2)",
                rule="T2",
            )
        now_closed = self.closed if closed is None else closed
        if now_closed and candidate[-1].middle is None:
            raise RoundOrderError(
                Code.ROUND_PENDING,
                "a finished game has no round waiting for its middle (T5)",
                rule="T5",
            )
        self._verify_sequence(candidate)
        self.rounds = candidate
        self.closed = now_closed
        if scored is not None:
            self.scored = scored and now_closed
        self._changed()
        return restored

    def _verify_can_finish(self) -> None:
        pending = self.pending_round
        if pending is not None:
            raise RoundOrderError(
                Code.ROUND_PENDING,
                f"round {pending.number} still needs its middle counts; complete or "
                "remove it before finishing (T5)",
                rule="T5",
            )
        if self.complete_rounds == 0:
            raise RoundOrderError(
                Code.NO_ROUNDS, "a game without a complete round cannot be finished", rule="T5"
            )

    def finish(self) -> None:
        """Beenden (T5): close the game for entry; also ends a target game early."""
        if self.closed:
            return
        self._verify_can_finish()
        self.closed = True
        self._changed()

    def score(self) -> tuple[str, ...]:
        """Werten (T5): finish if needed and return the winner or winners."""
        if not self.closed:
            self._verify_can_finish()
        self.closed = True
        self.scored = True
        self._changed()
        return self.winners


def _parse_enum(kind: type[_E], value: object, code: Code, what: str, rule: str) -> _E:
    try:
        return kind(value)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        choices = ", ".join(repr(m.value) for m in kind)
        raise InvalidGameError(
            code, f"{what} must be one of {choices}, not {value!r} ({rule})", rule=rule
        ) from None


def _check_players(players: Iterable[str], deck: Deck) -> tuple[str, ...]:
    if isinstance(players, str | bytes) or not isinstance(players, Iterable):
        raise InvalidGameError(
            Code.TOO_FEW_PLAYERS,
            "players must be a list of names (T1)",
            rule="T1",
            params={"limit": MIN_PLAYERS},
        )
    names: list[str] = []
    seen: dict[str, str] = {}
    for raw in itertools.islice(players, max_players(Deck.CARDS) + 1):
        name = clean_name(raw)
        key = name_key(name)
        if key in seen:
            raise InvalidGameError(
                Code.DUPLICATE_NAME,
                f"{name}: the name is already taken by {seen[key]}; names must differ (T1)",
                rule="T1",
                player=name,
            )
        seen[key] = name
        names.append(name)
    maximum = max_players(deck)
    if len(names) < MIN_PLAYERS:
        raise InvalidGameError(
            Code.TOO_FEW_PLAYERS,
            f"a game needs at least {MIN_PLAYERS} players, {len(names)} given (T1)",
            rule="T1",
            params={"limit": MIN_PLAYERS},
        )
    if len(names) > maximum:
        with_cards = max_players(Deck.CARDS)
        hint = (
            "" if maximum >= with_cards else f"; up to {with_cards} when played with ordinary cards"
        )
        raise InvalidGameError(
            Code.TOO_MANY_PLAYERS,
            f"at most {maximum} players, {len(names)} given{hint} (T1)",
            rule="T1",
            params={"limit": maximum, "with_cards": with_cards},
        )
    return tuple(names)


def _check_target(target: object) -> int:
    if not is_whole(target) or not 1 <= target <= MAX_TARGET:  # type: ignore[operator]
        raise InvalidGameError(
            Code.BAD_TARGET,
            f"the target must be a whole number from 1 to {MAX_TARGET} "
            f"(usually 50, 99 or 150), not {target!r} (T1)",
            rule="T1",
            params={"low": 1, "high": MAX_TARGET},
        )
    assert isinstance(target, int)
    return target


def _check_agreed_rounds(rounds: object) -> int:
    if rounds is None:
        raise InvalidGameError(
            Code.BAD_ROUNDS,
            f"a rounds game needs the agreed number of rounds (1 to {MAX_AGREED_ROUNDS}) (T1)",
            rule="T1",
            params={"low": 1, "high": MAX_AGREED_ROUNDS},
        )
    if not is_whole(rounds) or not 1 <= rounds <= MAX_AGREED_ROUNDS:  # type: ignore[operator]
        raise InvalidGameError(
            Code.BAD_ROUNDS,
            f"the agreed number of rounds must be a whole number from 1 to "
            f"{MAX_AGREED_ROUNDS}, not {rounds!r} (T1)",
            rule="T1",
            params={"low": 1, "high": MAX_AGREED_ROUNDS},
        )
    assert isinstance(rounds, int)
    return rounds
