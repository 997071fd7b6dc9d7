"""The stored game always equals the same actions applied to a game in memory (T2–T6).

A Hypothesis state machine drives the service with random entries, corrections,
removals, Beenden and Werten — refused ones included — and compares what the
database gives back with a domain ``Game`` that saw the same actions.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from sqlalchemy import Engine

from helpers.profiles import examples
from ligretto.store import TafelService
from ligretto.tafel import Game, TafelError, describe

PLAYERS = ["Anna", "Ben", "Cleo"]
stack = st.integers(min_value=-1, max_value=11)
middle = st.integers(min_value=-1, max_value=41)
stacks = st.lists(stack, min_size=3, max_size=3)
middles = st.lists(middle, min_size=3, max_size=3)


def machine_for(engine: Engine) -> type[RuleBasedStateMachine]:
    class StoredEqualsMemory(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.service = TafelService(engine)
            made = self.service.create_game(PLAYERS, target=60)
            self.id, self.token = made.stored.id, made.edit_token
            self.model = Game(PLAYERS, target=60)
            self.version = 1

        def both(self, stored: Callable[[], object], memory: Callable[[], object]) -> None:
            """Apply an action to both; they must agree on refusing it."""
            try:
                memory()
            except TafelError as error:
                with pytest.raises(TafelError) as caught:
                    stored()
                assert caught.value.code == error.code
                return
            stored()
            self.version += 1

        @rule(values=stacks)
        def open_round(self, values: list[int]) -> None:
            self.both(
                lambda: self.service.open_round(self.id, self.token, values),
                lambda: self.model.open_round(values),
            )

        @rule(values=middles, confirm=st.booleans())
        def complete(self, values: list[int], confirm: bool) -> None:
            n = len(self.model.rounds)
            if n == 0 or self.model.rounds[-1].complete:
                return
            self.both(
                lambda: self.service.complete_round(
                    self.id, self.token, n, values, confirm=confirm
                ),
                lambda: self.model.complete_round(n, values, confirm=confirm),
            )

        @rule(data=st.data(), new_stacks=st.none() | stacks, new_middle=st.none() | middles)
        def correct(
            self, data: st.DataObject, new_stacks: list[int] | None, new_middle: list[int] | None
        ) -> None:
            if not self.model.rounds or (new_stacks is None and new_middle is None):
                return
            n = data.draw(st.integers(1, len(self.model.rounds)))
            before, version = self.model.rounds[n - 1], self.version
            self.both(
                lambda: self.service.correct_round(
                    self.id, self.token, n, stacks=new_stacks, middle=new_middle, confirm=True
                ),
                lambda: self.model.correct_round(
                    n, stacks=new_stacks, middle=new_middle, confirm=True
                ),
            )
            if self.version > version and self.model.rounds[n - 1] == before:
                self.version = version  # the same counts again: no new version (T6)

        @rule()
        def remove_last(self) -> None:
            self.both(
                lambda: self.service.remove_last_round(self.id, self.token),
                lambda: self.model.remove_last_round(),
            )

        @rule()
        def finish(self) -> None:
            if self.model.closed:
                return  # Beenden twice changes nothing and is no new version
            self.both(
                lambda: self.service.finish(self.id, self.token),
                lambda: self.model.finish(),
            )

        @rule()
        def score(self) -> None:
            if self.model.scored:
                return  # Werten twice changes nothing and is no new version
            self.both(
                lambda: self.service.score(self.id, self.token),
                lambda: self.model.score(),
            )

        @invariant()
        def stored_game_equals_the_game_in_memory(self) -> None:
            stored = self.service.get_game(self.id)
            assert stored.version == self.version
            assert describe(stored.game) == describe(self.model)
            # A second service (another process) reads the same from the database.
            assert describe(TafelService(engine).get_game(self.id).game) == describe(self.model)

    return StoredEqualsMemory


# Hundreds of stateful runs against PostgreSQL take minutes on a loaded
# 2-core machine: the suite's 300 s guard against hangs is too short here.
@pytest.mark.timeout(900)
def test_t6_stored_game_follows_every_action_like_the_game_in_memory(engine: Engine) -> None:
    run_state_machine_as_test(
        machine_for(engine),
        settings=settings(
            max_examples=examples(25),
            stateful_step_count=20,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
