"""Hypothesis's games among a small pool of members, for the group statistics' tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import strategies as st

from ligretto.tafel import Game
from ligretto.tafel.stats import PlayedGame

POOL = ["Anna", "Ben", "Cleo", "Dora", "Emil"]
START = datetime(2025, 3, 1, tzinfo=UTC)


@st.composite
def played_games(draw: st.DrawFn) -> list[PlayedGame]:
    """A few games among POOL (names in any case), some unfinished."""
    games = []
    for index in range(draw(st.integers(0, 6))):
        players = draw(st.lists(st.sampled_from(POOL), min_size=2, max_size=5, unique=True))
        # The same member written differently in another game (T1 compares keys).
        players = [p.upper() if draw(st.booleans()) else p for p in players]
        agreed = draw(st.integers(1, 4))
        game = Game(players, mode="rounds", agreed_rounds=agreed)
        for _ in range(draw(st.integers(0, agreed))):
            caller = draw(st.one_of(st.none(), st.integers(0, len(players) - 1)))
            stacks = [
                0 if seat == caller else draw(st.integers(1, 10)) for seat in range(len(players))
            ]
            n = game.open_round(stacks).number
            if draw(st.integers(0, 5)) == 0:
                break  # a pending round adds nothing
            middle = [draw(st.integers(10 - s, 40 - s)) for s in stacks]
            game.complete_round(n, middle)
        if game.complete_rounds and game.pending_round is None and draw(st.booleans()):
            game.finish()  # Beenden (T5) before the agreed rounds
        when = START + timedelta(days=draw(st.integers(0, 800)), minutes=index)
        games.append(PlayedGame(f"g{index}", when, game))
    return games
