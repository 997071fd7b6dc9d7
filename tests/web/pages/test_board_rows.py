"""The board's rows are kept from one rendering to the next, never stale (T6).

After a new round every earlier row of the board is the same, so its
rendering is kept (``pages/cells.py``, ``pages/view.py``); a correction
changes the running totals of every later round, and a removed round its
row. Whatever the changes, the board rendered with what was kept is the
board rendered from nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ligretto.store import StoredGame
from ligretto.tafel import Game
from ligretto.tafel.errors import TafelError
from ligretto.web import rendering
from ligretto.web.pages.board import render_fragment
from ligretto.web.pages.view import round_view


def _cold(stored: StoredGame, language: str, token: str | None) -> str:
    """The board rendered with nothing kept from before."""
    round_view.cache_clear()
    rendering.environment.cache_clear()
    return render_fragment(stored, language, token)[0]


def _stored(game: Game, version: int) -> StoredGame:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return StoredGame("G" * 16, version, game, now, now)


counts = st.lists(st.integers(0, 10), min_size=3, max_size=3)
step = st.one_of(
    st.tuples(st.just("add"), counts, counts),
    st.tuples(st.just("correct"), st.integers(1, 40), counts),
    st.just(("remove",)),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.lists(step, min_size=1, max_size=25),
    language=st.sampled_from(["de", "en", "nb"]),
    editing=st.booleans(),
)
def test_the_board_from_kept_rows_is_the_board_from_nothing(
    steps: list[tuple[object, ...]], language: str, editing: bool
) -> None:
    game = Game(["Anna", "Ben", "Cleo"], target=1000)
    token = "t" if editing else None
    for version, action in enumerate(steps, start=2):
        try:
            if action[0] == "add" and game.accepts_new_round:
                stacks = [0, *action[1][1:]]  # type: ignore[index]  # Anna called Stop
                game.open_round(stacks)
                game.complete_round(len(game.rounds), action[2], confirm=True)  # type: ignore[arg-type]
            elif action[0] == "correct" and game.rounds:
                number = 1 + (action[1] - 1) % len(game.rounds)  # type: ignore[operator]
                game.correct_round(number, middle=action[2], confirm=True)  # type: ignore[arg-type]
            elif action[0] == "remove" and game.rounds:
                game.remove_last_round(len(game.rounds))
        except TafelError:
            pass  # refused: nothing changed, the board is drawn all the same
        stored = _stored(game.copy(), version)
        warm = render_fragment(stored, language, token)[0]  # with what earlier boards kept
        assert warm == _cold(stored, language, token)
