"""A table's state record: stored with one call, built again with one, printable."""

from __future__ import annotations

import json

import pytest

from ligretto.live.persistence import RestoreError, restore_state, table_state
from ligretto.live.phase import Phase
from ligretto.live.scoring.keeper import EndCondition, GroupLink
from ligretto.live.seating import BotSpec
from ligretto.live.state import GameState, TableRound, TableState
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round
from ligretto.store.live_tables import StoredAction, StoredTable


def state_in_play(moves: int = 6) -> tuple[TableState, list[StoredAction]]:
    """Anna and a bot, the first round dealt and ``moves`` actions into it."""
    options = RuleOptions()
    state = TableState.open(
        "ABCDEF",
        seats=3,
        options=options,
        end=EndCondition(mode="rounds", rounds=3),
        host_token="host-token-1234",
        host_name="Anna",
        bots=[BotSpec(None, "greedy", "easy")],
        group=GroupLink("g1", "group-secret"),
        bot_pace=2.5,
    )
    state.seating.close()  # the empty third chair goes (R1: two seats)
    state.tags.add("practice")
    state.phase = Phase.PLAYING
    state.game = GameState(round_no=1, tafel_game="game-1", tafel_token="edit-secret")
    state.game.totals = [0, 0]
    state.round = TableRound(Round.deal(2, 42, options))
    actions: list[StoredAction] = []
    dealt = state.round.dealt
    assert dealt is not None
    for n in range(moves):
        seat = n % 2
        action = dealt.legal_actions(seat)[0]
        dealt.apply(seat, action)
        state.seq += 1
        actions.append(StoredAction("ABCDEF", 1, n, seat, str(action), state.seq))
        state.round.actions += 1
    return state, actions


def test_a_state_stored_and_restored_is_the_same_state() -> None:
    state, actions = state_in_play()
    stored = table_state(state)
    # What the journal writes is JSON, read back as JSON.
    data = json.loads(json.dumps(stored))
    restored = restore_state(StoredTable("ABCDEF", data, actions))
    assert table_state(restored) == stored
    assert restored.round.dealt is not None and state.round.dealt is not None
    assert restored.round.dealt.snapshot() == state.round.dealt.snapshot()
    assert restored.round.actions == state.round.actions == len(actions)
    assert restored.phase == Phase.PLAYING and restored.seq == state.seq
    assert restored.group == state.group and restored.tags == {"practice"}
    assert restored.bot_pace == 2.5
    assert restored.seating.host_hash == state.seating.host_hash
    assert restored.seating.host_token is None  # only its hash is kept
    assert [s.name for s in restored.seating] == ["Anna", "Bot 2 (greedy)"]


def test_a_lobby_comes_back_a_lobby() -> None:
    state = TableState.open(
        "LOBBY1", seats=4, options=RuleOptions(), end=EndCondition(), host_token="h" * 12
    )
    stored = table_state(state)
    restored = restore_state(StoredTable("LOBBY1", stored, []))
    assert table_state(restored) == stored
    assert restored.round == TableRound() and restored.game == GameState()


def test_the_stored_record_holds_no_token_only_hashes() -> None:
    state, _ = state_in_play()
    text = json.dumps(table_state(state))
    assert "host-token-1234" not in text
    assert state.seating.host_hash in text


def test_a_state_that_cannot_be_trusted_is_refused() -> None:
    state, actions = state_in_play()
    stored = table_state(state)
    with pytest.raises(RestoreError):
        restore_state(StoredTable("ABCDEF", {**stored, "format": 0}, actions))
    with pytest.raises(RestoreError):  # R1: one seat is no table
        restore_state(StoredTable("ABCDEF", {**stored, "seats": stored["seats"][:1]}, actions))
    bad = [StoredAction("ABCDEF", 1, 0, 0, "play nothing", 1)]
    with pytest.raises(RestoreError):
        restore_state(StoredTable("ABCDEF", stored, bad))


def test_the_state_prints_in_one_shape_without_secrets() -> None:
    state, _ = state_in_play()
    text = repr(state)
    assert text.startswith("TableState(code='ABCDEF', ")
    for part in ("GameState(round_no=1, tafel_game='game-1'", "TableRound(dealt=", "Seating("):
        assert part in text
    assert "phase=<Phase.PLAYING: 'playing'>" in text
    # The secrets stay out of logs: edit token, group token, host token.
    for secret in ("edit-secret", "group-secret", "host-token-1234"):
        assert secret not in text
