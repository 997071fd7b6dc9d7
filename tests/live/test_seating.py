"""Seating on its own: chairs, names, tokens and refusals with their reason."""

from __future__ import annotations

import pytest

from ligretto.live.connection import Connection
from ligretto.live.protocol import Reason
from ligretto.live.seating import BotSpec, Seating, SeatingError


def test_a_person_sits_in_the_first_free_chair_under_a_clean_unique_name() -> None:
    seating = Seating(3, "host-token-1234")
    seating.seat_host(0, "  Anna  ")
    seat, token = seating.sit_down(Connection(), " Ben   Berg ", lobby=True)
    assert (seat.index, seat.name, seat.kind) == (1, "Ben Berg", "human")
    assert seating.by_token(token) is seat
    # Only the token's hash is kept.
    assert seat.token_hash is not None and token not in seat.token_hash
    with pytest.raises(SeatingError) as taken:
        seating.sit_down(Connection(), "anna", lobby=True)
    assert taken.value.code is Reason.NAME_TAKEN


@pytest.mark.parametrize(
    ("name", "lobby", "code"),
    [("   ", True, Reason.BAD_NAME), ("Cleo", False, Reason.ALREADY_STARTED)],
)
def test_sitting_down_is_refused_with_a_reason_and_changes_nothing(
    name: str, lobby: bool, code: Reason
) -> None:
    seating = Seating(2, "host-token-1234")
    conn = Connection()
    with pytest.raises(SeatingError) as refused:
        seating.sit_down(conn, name, lobby=lobby)
    assert refused.value.code is code
    assert conn.seat is None and all(s.kind == "empty" for s in seating)


def test_bots_take_their_chair_or_the_first_free_one_and_leave_on_request() -> None:
    seating = Seating(3, "host-token-1234")
    seating.seat_host(0, "Anna")
    seating.place_bots([BotSpec(0, "greedy", "easy"), BotSpec(2, "greedy", "hard")])
    assert [s.kind for s in seating] == ["human", "bot", "bot"]
    with pytest.raises(SeatingError) as full:
        seating.add_bot(None, "greedy", "easy")
    assert full.value.code is Reason.TABLE_FULL
    seating.remove(1)
    assert seating[1].kind == "empty"
    with pytest.raises(SeatingError) as host:
        seating.remove(0)  # the host's own chair is never emptied
    assert host.value.code is Reason.NO_SUCH_SEAT


def test_a_token_on_a_new_connection_takes_the_seat_over() -> None:
    seating = Seating(2, "host-token-1234")
    seating.seat_host(0, "Anna")
    first, second = Connection(), Connection()
    seat, token, displaced = seating.claim(first, "host-token-1234")
    assert (seat, displaced) == (seating[0], []) and token is not None
    assert first.host and first.seat == 0
    seat, fresh, displaced = seating.claim(second, "host-token-1234")
    assert seat is seating[0] and displaced == [first]
    assert fresh != token and seating.by_token(token) is None and seating.by_token(fresh or "")
    # mypy narrowed these from the asserts above; the take-over changed them.
    assert (first.seat, first.host, first.taken_over) == (None, False, True)  # type: ignore[comparison-overlap]
    assert seating[0].conns == {second}
    with pytest.raises(SeatingError) as bad:
        seating.claim(Connection(), "not-a-token-of-this-table")
    assert bad.value.code is Reason.BAD_TOKEN


def test_the_tafel_names_bots_without_jargon_unless_a_person_would_share_the_name() -> None:
    seating = Seating(4, "host-token-1234")
    seating.seat_host(0, "Anna")
    seating.place_bots([BotSpec(1, "watchful", "easy"), BotSpec(3, "stack-first", "hard")])
    seating.close()  # the empty chair goes; the bots keep their names
    assert [s.name for s in seating] == ["Anna", "Bot 2 (watchful)", "Bot 4 (stack-first)"]
    assert seating.tafel_names() == ["Anna", "Bot 2", "Bot 4"]
    clash = Seating(2, "host-token-1234")
    clash.seat_host(0, "bot 2")
    clash.place_bots([BotSpec(1, "greedy", "easy")])
    assert clash.tafel_names() == ["bot 2", "Bot 2 (greedy)"]
