"""The base of the frozen value classes: pickling that works compiled or not.

A frozen dataclass compiled with mypyc is unpickled by setting its fields
one by one, which the frozen class refuses; :class:`FrozenValue` gives the
value classes a state that is read and restored past the frozen check, so
that values (cards, actions, events, views, results, bot specs) pickle and
deep-copy alike in both builds — the simulator sends bot specs to its
worker processes.

>>> import pickle
>>> from ligretto.rules.cards import Card
>>> pickle.loads(pickle.dumps(Card.parse("G7"))) == Card.parse("G7")
True
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # as Event, which derives from it
class FrozenValue:
    """Mixed into every frozen dataclass of the core (pickling, ``copy``)."""

    __slots__ = ()

    def __getstate__(self) -> dict[str, Any]:
        names: dict[str, Any] = getattr(type(self), "__dataclass_fields__")  # noqa: B009
        return {name: getattr(self, name) for name in names}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
