"""One name rule, one set of limits, one close code for flooding.

Names at a table follow the Tafel's rule (``ligretto.tafel.names``), so a
name the table takes is one its Tafel game takes; the request models of
online play are derived from the dataclasses they stand for; a flooding
socket is closed with 1008; the "too few players" refusal says R1's number.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from helpers.live_wire import join, open_table, receive_until, send
from ligretto.live.connection import Connection
from ligretto.live.protocol import Reason
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.seating import Seating, SeatingError
from ligretto.rules.options import MIN_PLAYERS, RuleOptions
from ligretto.tafel.limits import MAX_AGREED_ROUNDS, MAX_NAME_LENGTH, MAX_TARGET
from ligretto.tafel.names import InvalidNameError, clean_name, name_key
from ligretto.web.play.table_spec import CreateTable, EndIn, OptionsIn

# --------------------------------------------------------------------------
# names (T1)
# --------------------------------------------------------------------------


@given(st.text(max_size=MAX_NAME_LENGTH + 5))
def test_a_table_seats_exactly_the_names_the_tafel_takes(raw: str) -> None:
    seating = Seating(3, "host-token-1234")
    conn = Connection()
    try:
        expected: str | None = clean_name(raw)
    except InvalidNameError:
        expected = None
    try:
        seat, _token = seating.sit_down(conn, raw, lobby=True)
    except SeatingError as exc:
        assert expected is None
        assert exc.code is Reason.BAD_NAME
        # Nothing changed.
        assert conn.seat is None and all(s.kind == "empty" for s in seating)
    else:
        assert seat.name == expected


@pytest.mark.parametrize("taken", ["ANNA", "Ａｎｎａ", " anna "])
def test_names_are_compared_by_the_tafels_name_key(taken: str) -> None:
    seating = Seating(3, "host-token-1234")
    seating.seat_host(0, "Anna")
    assert name_key(taken) == name_key("Anna")
    with pytest.raises(SeatingError) as refused:
        seating.sit_down(Connection(), taken, lobby=True)
    assert refused.value.code is Reason.NAME_TAKEN
    assert [s.kind for s in seating] == ["human", "empty", "empty"]


def test_a_bot_never_takes_a_name_that_collides_under_the_name_key() -> None:
    seating = Seating(3, "host-token-1234")
    seating.seat_host(0, "BOT 2 (GREEDY)")
    seat = seating.add_bot(1, "greedy", "easy")
    assert seat.name is not None
    assert name_key(seat.name) != name_key("BOT 2 (GREEDY)")
    assert clean_name(seat.name) == seat.name


@pytest.mark.parametrize("name", ["An\x07na", "Anna\u200b", "\u202eAnna", "\u3164"])
def test_a_join_with_a_name_the_tafel_refuses_is_refused(client: TestClient, name: str) -> None:
    table = open_table(client, seats=3)
    with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
        refused = join(ws, name=name)
        assert refused["type"] == "refused" and refused["code"] == "bad_name"
    seats = client.get(f"/api/tables/{table['code']}").json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "empty", "empty"]


def test_the_host_name_follows_the_name_rule(client: TestClient) -> None:
    response = client.post("/api/tables", json={"seats": 2, "name": "Ann\x00a"})
    assert response.status_code == 422
    created = open_table(client, name="  Ame\u0301lie   Berg ")
    assert created["table"]["seats"][0]["name"] == "Am\u00e9lie Berg"


# --------------------------------------------------------------------------
# the request models come from the dataclasses (and the Tafel's limits)
# --------------------------------------------------------------------------


def test_the_options_model_is_rule_options_field_by_field() -> None:
    model = [(f.name, f.default) for f in dataclasses.fields(OptionsIn)]
    assert model == [(f.name, f.default) for f in dataclasses.fields(RuleOptions)]
    end = [(f.name, f.default) for f in dataclasses.fields(EndIn)]
    assert end == [(f.name, f.default) for f in dataclasses.fields(EndCondition)]


def test_the_openapi_schema_of_the_models_is_unchanged() -> None:
    defs = CreateTable.model_json_schema()["$defs"]
    assert defs["OptionsIn"] == {
        "additionalProperties": False,
        "description": "Every rule option of ``RuleOptions`` (docs/rules.md), with its default.",
        "properties": {
            "deadlock": {
                "default": "end",
                "enum": ["end", "reshuffle"],
                "title": "Deadlock",
                "type": "string",
            },
            "deck": {
                "default": "ligretto",
                "enum": ["ligretto", "cards"],
                "title": "Deck",
                "type": "string",
            },
            "recycle_shuffle": {"default": True, "title": "Recycle Shuffle", "type": "boolean"},
            "row_refill": {
                "default": "auto",
                "enum": ["auto", "manual"],
                "title": "Row Refill",
                "type": "string",
            },
            "row_storage": {"default": False, "title": "Row Storage", "type": "boolean"},
        },
        "title": "OptionsIn",
        "type": "object",
    }
    assert defs["EndIn"] == {
        "additionalProperties": False,
        "description": "How the game ends (T1): a target (50/99/150 or another) or rounds.",
        "properties": {
            "mode": {
                "default": "target",
                "enum": ["target", "rounds"],
                "title": "Mode",
                "type": "string",
            },
            "rounds": {
                "default": 8,
                "maximum": MAX_AGREED_ROUNDS,
                "minimum": 1,
                "title": "Rounds",
                "type": "integer",
            },
            "target": {
                "default": 99,
                "maximum": MAX_TARGET,
                "minimum": 1,
                "title": "Target",
                "type": "integer",
            },
        },
        "title": "EndIn",
        "type": "object",
    }


JSON_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 1200),
    st.sampled_from(
        ["ligretto", "cards", "auto", "manual", "end", "reshuffle", "target", "rounds"]
    ),
)


def _accepts(adapter: TypeAdapter[Any], data: dict[str, Any]) -> Any:
    try:
        return adapter.validate_python(data)
    except ValidationError:
        return None


@given(
    st.dictionaries(
        st.sampled_from([f.name for f in dataclasses.fields(RuleOptions)] + ["extra"]),
        JSON_VALUE,
    )
)
def test_the_options_json_accepted_is_what_rule_options_accepts(data: dict[str, Any]) -> None:
    parsed = _accepts(TypeAdapter(OptionsIn), data)
    try:
        plain: RuleOptions | None = RuleOptions(**data)
    except (TypeError, ValueError):
        plain = None
    if parsed is not None:
        # Whatever the model takes is a valid set of rule options.
        fields = dataclasses.asdict(parsed)
        assert dataclasses.asdict(RuleOptions(**fields)) == fields
    if plain is not None:
        # And it takes every set of rule options, as they are.
        assert parsed is not None
        assert dataclasses.asdict(parsed) == dataclasses.asdict(plain)


@given(
    st.dictionaries(
        st.sampled_from(["mode", "target", "rounds", "extra"]),
        JSON_VALUE,
    )
)
def test_the_end_json_accepted_keeps_both_limits(data: dict[str, Any]) -> None:
    parsed = _accepts(TypeAdapter(EndIn), data)
    if parsed is None:
        return
    assert "extra" not in data
    assert 1 <= parsed.target <= MAX_TARGET and 1 <= parsed.rounds <= MAX_AGREED_ROUNDS
    plain = EndCondition(parsed.mode, parsed.target, parsed.rounds)
    assert dataclasses.asdict(plain) == dataclasses.asdict(parsed)


def test_the_api_takes_the_same_json_as_before(client: TestClient) -> None:
    table = open_table(
        client,
        seats=3,
        options={"deck": "cards", "row_refill": "manual", "recycle_shuffle": False},
        end={"mode": "rounds", "rounds": MAX_AGREED_ROUNDS},
    )
    assert table["table"]["options"]["deck"] == "cards"
    assert table["table"]["end"] == {"mode": "rounds", "rounds": MAX_AGREED_ROUNDS}
    for bad in (
        {"options": {"deck": "tarot"}},
        {"options": {"shuffle": True}},
        {"end": {"mode": "target", "target": MAX_TARGET + 1}},
        {"end": {"mode": "rounds", "rounds": 5, "target": 0}},
        {"end": {"mode": "sudden-death"}},
    ):
        response = client.post("/api/tables", json={"seats": 2, **bad})
        assert response.status_code == 422, bad


# --------------------------------------------------------------------------
# flooding, too few players
# --------------------------------------------------------------------------


def test_a_socket_that_keeps_flooding_is_closed_with_1008(client: TestClient) -> None:
    table = open_table(client)
    with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
        join(ws)
        for _ in range(400):
            send(ws, "ping")
        while (message := ws.receive())["type"] != "websocket.close":
            pass
        assert message["code"] == 1008


def test_too_few_players_names_the_rules_number(client: TestClient) -> None:
    table = open_table(client, seats=3)
    with client.websocket_connect(f"/play/{table['code']}/ws") as host:
        join(host, host_token=table["host_token"])
        send(host, "start")
        refused = receive_until(host, "refused")
        assert refused["code"] == "too_few_players"
        assert f"at least {MIN_PLAYERS} seats" in refused["reason"]
        assert "two" not in refused["reason"]
