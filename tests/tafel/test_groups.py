"""Groups: members under the one name rule, games matched to members by name (T1)."""

from __future__ import annotations

import pytest

from ligretto.tafel.errors import Code, GroupError, TafelError
from ligretto.tafel.groups import Group
from ligretto.tafel.limits import MAX_MEMBERS


def test_members_are_unique_as_t1_compares_names() -> None:
    group = Group("Donnerstag", ["Anna", "Ben"])
    with pytest.raises(GroupError) as error:
        group.add_member(" ANNA ")
    assert error.value.code is Code.DUPLICATE_NAME
    assert [m.name for m in group.members] == ["Anna", "Ben"]
    assert group.member("ｂｅｎ") is not None


def test_new_players_join_only_when_confirmed() -> None:
    group = Group("Thursday", ["Anna"])
    with pytest.raises(GroupError) as error:
        group.admit(["anna", "Ben", "Cleo"], confirmed=["Ben"])
    assert error.value.code is Code.NEW_MEMBERS
    assert error.value.params["names"] == ("Cleo",)
    assert [m.name for m in group.members] == ["Anna"]  # nothing changed
    assert group.admit(["anna", "Ben", "Cleo"], confirmed=["ben", "CLEO"]) == ("Ben", "Cleo")
    assert group.match(["Cleo", "ANNA"]).members == ("Cleo", "Anna")


def test_group_name_and_size_limits() -> None:
    with pytest.raises(GroupError) as error:
        Group("  \u200b ")
    assert error.value.code is Code.BAD_GROUP_NAME
    with pytest.raises(TafelError):
        Group("x", [f"P{i}" for i in range(MAX_MEMBERS + 1)])
    group = Group("x", [f"P{i}" for i in range(MAX_MEMBERS - 1)])
    with pytest.raises(GroupError) as error:
        group.admit(["New 1", "New 2"], confirmed=["New 1", "New 2"])
    assert error.value.code is Code.TOO_MANY_MEMBERS
    assert len(group.members) == MAX_MEMBERS - 1
    with pytest.raises(GroupError):
        Group("x", "Anna")  # a string is not a list of names
