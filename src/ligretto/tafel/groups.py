"""A group: the people who play together evening after evening (no I/O).

A group has a name and members. Member names follow the one name rule
(:mod:`ligretto.tafel.names`) and are unique in the group as T1 compares
names, so "Anna" in Monday's game and "ANNA" on Friday are the same member.
A game joins a group with its players matched to members by name; a player
who is not yet a member joins only when the table confirms the new name
(:meth:`Group.match` names them, :meth:`Group.admit` adds them).

>>> group = Group("Thursday table", ["Anna", "Ben"])
>>> group.match(["anna", "Ben", "Cleo"]).new
('Cleo',)
>>> group.admit(["anna", "Ben", "Cleo"], confirmed=["cleo"])
('Cleo',)
>>> [m.name for m in group.members]
['Anna', 'Ben', 'Cleo']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ligretto.tafel.errors import Code, GroupError, TafelError
from ligretto.tafel.limits import MAX_MEMBERS, MAX_NAME_LENGTH
from ligretto.tafel.names import clean_name, name_key, printable

__all__ = ["Group", "Matching", "Member", "clean_group_name"]


@dataclass(frozen=True, slots=True)
class Member:
    """One member: the name as shown and the key names are compared by (T1)."""

    name: str
    key: str


@dataclass(frozen=True, slots=True)
class Matching:
    """A game's players matched to a group's members, in seating order."""

    members: tuple[str | None, ...]
    """The member name for each seat; None for a player who is not a member yet."""
    new: tuple[str, ...]
    """The players (as the game names them) who would join the group."""


def clean_group_name(raw: object) -> str:
    """A group's name under the one name rule (visible, at most MAX_NAME_LENGTH characters)."""
    try:
        return clean_name(raw)
    except TafelError as error:
        raise GroupError(
            Code.BAD_GROUP_NAME,
            f"a group needs a visible name of at most {MAX_NAME_LENGTH} characters "
            f"({error.message})",
            rule="T1",
            params={"limit": MAX_NAME_LENGTH},
        ) from None


class Group:
    """A group's name and members; every change verifies first, then changes."""

    def __init__(self, name: object, members: Iterable[object] = ()) -> None:
        self.name = clean_group_name(name)
        self._members: list[Member] = []
        self._by_key: dict[str, Member] = {}
        for raw in _bounded(members):
            self.add_member(raw)

    @classmethod
    def restore(cls, name: str, members: Iterable[str]) -> Group:
        """A stored group, its name and members' names taken as stored (trusted input).

        A name accepted before the name rule (T1) refused its invisible
        characters stays a member; of two members the rule now finds alike,
        the first is found by the name, and no third one can join as it.
        """
        group = cls.__new__(cls)
        group.name = name
        group._members = []
        group._by_key = {}
        for member_name in members:
            member = Member(member_name, name_key(member_name))
            group._members.append(member)
            group._by_key.setdefault(member.key, member)
        return group

    @property
    def members(self) -> tuple[Member, ...]:
        """The members in the order they joined."""
        return tuple(self._members)

    def member(self, name: str) -> Member | None:
        """The member called *name* (as T1 compares names), or None."""
        return self._by_key.get(name_key(name)) if isinstance(name, str) else None

    def check_new_member(self, raw: object) -> str:
        """The cleaned name *raw* would join as; refused if taken or the group is full."""
        name = clean_name(raw)
        taken = self._by_key.get(name_key(name))
        if taken is not None:
            raise GroupError(
                Code.DUPLICATE_NAME,
                f"{name}: {taken.name} is already a member; names must differ (T1)",
                rule="T1",
                player=name,
            )
        if len(self._members) >= MAX_MEMBERS:
            raise GroupError(
                Code.TOO_MANY_MEMBERS,
                f"a group has at most {MAX_MEMBERS} members",
                rule="T1",
                params={"limit": MAX_MEMBERS},
            )
        return name

    def add_member(self, raw: object) -> Member:
        """Add one member (the one name rule, unique in the group)."""
        name = self.check_new_member(raw)
        member = Member(name, name_key(name))
        self._members.append(member)
        self._by_key[member.key] = member
        return member

    def match(self, players: Sequence[str]) -> Matching:
        """Match a game's players (already valid names, T1) to members by name."""
        found = tuple(self.member(p) for p in players)
        return Matching(
            tuple(None if m is None else m.name for m in found),
            tuple(p for p, m in zip(players, found, strict=True) if m is None),
        )

    def admit(self, players: Sequence[str], confirmed: Iterable[object] = ()) -> tuple[str, ...]:
        """Add the game's players who are not members yet, if each one was confirmed.

        *confirmed* names the new members the table agreed to (as T1 compares
        names). Refused, changing nothing, when a new player is not confirmed
        (``new_members``, with their names) or the group would grow too big.
        Returns the names that joined.
        """
        new = self.match(players).new
        agreed = {name_key(c) for c in _bounded(confirmed) if isinstance(c, str)}
        missing = [p for p in new if name_key(p) not in agreed]
        if missing:
            shown = ", ".join(printable(p) for p in missing)
            raise GroupError(
                Code.NEW_MEMBERS,
                f"not yet members of the group: {shown}; confirm them as new members "
                "(or correct the names)",
                rule="T1",
                player=missing[0],
                params={"names": tuple(missing)},
            )
        if len(self._members) + len(new) > MAX_MEMBERS:
            raise GroupError(
                Code.TOO_MANY_MEMBERS,
                f"a group has at most {MAX_MEMBERS} members",
                rule="T1",
                params={"limit": MAX_MEMBERS},
            )
        for name in new:
            self.add_member(name)
        return new


def _bounded(values: Iterable[object]) -> list[object]:
    """At most one more than MAX_MEMBERS values (the next check refuses the rest)."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise GroupError(Code.BAD_GROUP_NAME, "members must be a list of names", rule="T1")
    out: list[object] = []
    for value in values:
        out.append(value)
        if len(out) > MAX_MEMBERS:
            break
    return out
