"""Reading the wire view back into the engine's view type.

A bot client on the far side of the WebSocket (the benchmark, tests) gets
the table as JSON; :func:`view_from_dict` turns it back into the
:class:`~ligretto.rules.view.TableView` that the bot strategies read, so a
remote bot decides exactly as a server-side one does, from the same view.
Its legal actions are rebuilt from their structured fields; a ``move``
sends back ``str(action)``, which is the action's ``text``.
"""

from __future__ import annotations

from typing import Any

from ligretto.live.protocol import wire_action_adapter
from ligretto.rules.actions import Action
from ligretto.rules.cards import Card, Colour
from ligretto.rules.options import RuleOptions
from ligretto.rules.view import PileView, RowPositionView, SeatView, TableView


def _card(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


# Rebuilt once per distinct action text; a remote bot sees the same few
# hundred actions again and again.
_ACTIONS: dict[str, Action] = {}


def _action(data: dict[str, Any]) -> Action:
    action = _ACTIONS.get(data["text"])
    if action is None:
        action = wire_action_adapter.validate_python(data).to_action()
        if str(action) != data["text"]:
            raise ValueError(f"action fields {data!r} do not describe its text")
        if len(_ACTIONS) < 1 << 16:
            _ACTIONS[data["text"]] = action
    return action


def view_from_dict(data: dict[str, Any]) -> TableView:
    """The inverse of ``TableView.to_dict`` (as sent in ``view`` and ``events``)."""
    return TableView(
        viewer=data["viewer"],
        players=data["players"],
        options=RuleOptions(**data["options"]),
        middle=tuple(
            PileView(p["id"], Colour(p["colour"]), Card.parse(p["top"]), p["count"], p["closed"])
            for p in data["middle"]
        ),
        seats=tuple(
            SeatView(
                seat=s["seat"],
                stack_top=_card(s["stack_top"]),
                stack_count=s["stack_count"],
                row=tuple(RowPositionView(_card(r["top"]), r["depth"]) for r in s["row"]),
                discard_top=_card(s["discard_top"]),
                discard_count=s["discard_count"],
                hand_count=s["hand_count"],
                middle_count=s["middle_count"],
            )
            for s in data["seats"]
        ),
        is_over=data["is_over"],
        caller=data["caller"],
        deadlock=data["deadlock"],
        actions=tuple(_action(a) for a in data["actions"]),
    )
