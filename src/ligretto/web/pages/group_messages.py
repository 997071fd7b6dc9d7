"""A group page's refusals in the reader's language, from the error's code.

The domain refuses with a :class:`~ligretto.tafel.TafelError`, the store
with a :class:`~ligretto.store.errors.StoreError`; both carry a stable
``code`` and this module turns it into a translated sentence. The
English message of an error is never read, nor shown.
"""

from __future__ import annotations

from ligretto.store.errors import StoreCode, StoreError
from ligretto.tafel import Code, TafelError
from ligretto.tafel.errors import GroupError
from ligretto.tafel.limits import MAX_MEMBERS
from ligretto.web.pages.messages import refusal
from ligretto.web.text import N_, gettext

GROUP_REFUSALS: dict[Code, str] = {
    Code.BAD_GROUP_NAME: N_("A group needs a visible name of at most %(max)s characters."),
    Code.TOO_MANY_MEMBERS: N_("A group has at most %(max)s members."),
    Code.NEW_MEMBERS: N_(
        "Not yet members of the group: %(names)s. Tick “Add new players to the group” to add them."
    ),
    Code.BAD_SEASON: N_("A season ends on or after its first day."),
    Code.DUPLICATE_NAME: N_("%(name)s is already a member."),
}

STORE_REFUSALS: dict[StoreCode, str] = {
    # Adding an existing game to a group checks the game's edit token too.
    StoreCode.FORBIDDEN: N_(
        "This link does not allow adding that game: it needs the game's edit link."
    ),
    StoreCode.GROUP_FORBIDDEN: N_(
        "This needs the group's link. Open the group from its link again."
    ),
    StoreCode.GAME_NOT_FOUND: N_("There is no game at this link."),
    StoreCode.GAME_IN_GROUP: N_("This game already belongs to a group."),
    StoreCode.VERSION_CONFLICT: N_("The group was changed meanwhile; please try again."),
    StoreCode.BUSY: N_("The server is busy. Nothing was changed; please try again."),
}
"""The sentence a group's form shows for each store error it can meet."""

ANSWERED_ELSEWHERE: frozenset[StoreCode] = frozenset(
    {
        StoreCode.GROUP_NOT_FOUND,  # the page of an unknown address, not a sentence
        StoreCode.GAME_NOT_IN_GROUP,  # no form of the pages takes a game out of a group
    }
)
"""The store codes a group's form never shows as a sentence."""


def group_refusal(language: str, error: TafelError) -> str:
    """A group refusal in the reader's language (game refusals as the board says them)."""
    template = GROUP_REFUSALS.get(error.code)
    if template is None or not isinstance(error, GroupError):
        return refusal(language, error)  # a game's refusal, as the board says it
    return gettext(
        language,
        template,
        max=error.params.get("limit", MAX_MEMBERS),
        names=", ".join(error.params.get("names", ())),
        name=error.player or "",
    )


def store_refusal(language: str, error: StoreError) -> str | None:
    """The sentence for a store error met by a group's form, or None if it has none."""
    template = STORE_REFUSALS.get(error.code)
    return None if template is None else gettext(language, template)
