"""The wire protocol refuses what it cannot accept, with a reason code."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ligretto.live.protocol import (
    MAX_MESSAGE_BYTES,
    AddBot,
    Join,
    Move,
    ProtocolError,
    Reason,
    parse_client_message,
)


def test_a_move_parses_with_its_fields() -> None:
    message = parse_client_message('{"v": 1, "type": "move", "action": "turn", "ref": 7}')
    assert message == Move(type="move", action="turn", ref=7)


def test_join_by_name_and_by_token() -> None:
    assert parse_client_message('{"v":1,"type":"join","name":"Anna"}') == Join(
        type="join", name="Anna"
    )
    joined = parse_client_message('{"v":1,"type":"join","token":"abcdefgh12"}')
    assert isinstance(joined, Join) and joined.token == "abcdefgh12"


def test_bot_fields_are_checked() -> None:
    bot = parse_client_message('{"v":1,"type":"add_bot","strategy":"greedy","level":"expert"}')
    assert isinstance(bot, AddBot) and (bot.strategy, bot.level) == ("greedy", "expert")
    with pytest.raises(ProtocolError) as caught:
        parse_client_message('{"v":1,"type":"add_bot","strategy":"cheater"}')
    assert caught.value.code is Reason.MALFORMED


def test_a_strategy_alias_is_accepted_where_its_name_is() -> None:
    # Issue 6 asks for bots "by strategy and level"; the simulator's example
    # names the own strategy by its alias (``mine:hard``).
    bot = parse_client_message('{"v":1,"type":"add_bot","strategy":"mine","level":"hard"}')
    assert isinstance(bot, AddBot) and (bot.strategy, bot.level) == ("mine", "hard")


@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        "[]",
        "{}",
        '{"v":1}',
        '{"v":1,"type":"fly"}',
        '{"v":1,"type":"move"}',
        '{"v":1,"type":"move","action":""}',
        '{"v":1,"type":"move","action":"turn","seat":99}',
        '{"v":1,"type":"move","action":"turn","extra":1}',
        '{"v":1,"type":"join","token":"../../etc"}',
        '{"v":1,"type":"join","name":""}',
    ],
)
def test_malformed_messages_are_refused_as_malformed(raw: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(raw)
    assert caught.value.code is Reason.MALFORMED
    assert caught.value.reason


def test_another_protocol_version_is_named_as_such() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message('{"v":2,"type":"move","action":"turn"}')
    assert caught.value.code is Reason.UNSUPPORTED_VERSION


def test_oversized_messages_are_refused_before_parsing() -> None:
    raw = json.dumps({"v": 1, "type": "join", "name": "x" * MAX_MESSAGE_BYTES})
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(raw)
    assert caught.value.code is Reason.TOO_LARGE


def test_a_view_read_back_from_the_wire_equals_the_engines_view() -> None:
    from ligretto.live.client import view_from_dict
    from ligretto.live.encoder import view_dict
    from ligretto.rules.options import RuleOptions
    from ligretto.rules.round import Round

    rnd = Round.deal(3, 5, RuleOptions(deck="cards", row_storage=True))
    rnd.apply(1, rnd.legal_actions(1)[-1])
    for seat in (0, 1, None):
        view = rnd.view(seat)
        assert view_from_dict(json.loads(json.dumps(view_dict(view)))) == view


@pytest.mark.parametrize(
    ("text", "structured"),
    [
        (
            "play R5 row2 p3",
            {"kind": "play", "card": "R5", "source": "row", "slot": 2, "pile": 3},
        ),
        (
            "play B1 stack new",
            {"kind": "play", "card": "B1", "source": "stack", "slot": None, "pile": None},
        ),
        (
            "play Y4 discard p12",
            {"kind": "play", "card": "Y4", "source": "discard", "slot": None, "pile": 12},
        ),
        ("store G3 discard row0", {"kind": "store", "card": "G3", "source": "discard", "slot": 0}),
        ("refill row1", {"kind": "refill", "slot": 1}),
        ("turn", {"kind": "turn"}),
        ("recycle", {"kind": "recycle"}),
    ],
)
def test_an_action_is_sent_structured_with_its_text(text: str, structured: dict[str, Any]) -> None:
    # The shapes of docs/protocol.md, "Legal actions".
    from ligretto.live.protocol import wire_action, wire_action_adapter
    from ligretto.rules.actions import Action

    action = Action.parse(text)
    sent = json.loads(wire_action(action).model_dump_json())
    assert sent == {"text": text, **structured}
    assert next(iter(sent)) == "text"
    assert wire_action_adapter.validate_python(sent).to_action() == action


def test_a_structured_action_has_exactly_the_fields_of_its_kind() -> None:
    from pydantic import ValidationError

    from ligretto.live.protocol import wire_action_adapter

    with pytest.raises(ValidationError):
        wire_action_adapter.validate_python({"text": "turn", "kind": "turn", "slot": 1})
    with pytest.raises(ValidationError):
        wire_action_adapter.validate_python(
            {
                "text": "store R5 row1 row2",
                "kind": "store",
                "card": "R5",
                "source": "row",
                "slot": 2,
            }
        )
