"""The JSON answers of ``/api/groups``: a group, its statistics, league, members and history.

Each function turns what the store's reads hand out
(:class:`~ligretto.store.results.StoredGroup`,
:mod:`ligretto.store.group_queries`) into the data of one response model
of :mod:`ligretto.web.api.group_schemas`; the numbers themselves come from
:mod:`ligretto.tafel.stats` and :mod:`ligretto.tafel.ratings`.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from fastapi import Request

from ligretto.store.group_queries import MemberData
from ligretto.store.results import StoredGroup
from ligretto.tafel.group_exchange import season_to_json
from ligretto.tafel.ratings import League, Rating
from ligretto.tafel.stats import HeadToHead, HistoryItem, MemberStats, RoundRef
from ligretto.web.api.exports import N_
from ligretto.web.deps import group_watch_path, watch_path
from ligretto.web.i18n import translations
from ligretto.web.public_url import absolute


def group_out(request: Request, stored: StoredGroup) -> dict[str, Any]:
    """The group: name, members, season, number of games, its read-only link."""
    return {
        "id": stored.id,
        "version": stored.version,
        "name": stored.name,
        "members": list(stored.members),
        "season": season_to_json(stored.season),
        "games": stored.games,
        "created_at": stored.created_at.isoformat(),
        "updated_at": stored.updated_at.isoformat(),
        "watch_url": absolute(request, group_watch_path(stored.id)),
    }


def _ref(ref: RoundRef | None) -> dict[str, Any] | None:
    if ref is None:
        return None
    return {
        "points": ref.points,
        "game_id": ref.game_id,
        "round": ref.round,
        "played_at": ref.played_at.isoformat(),
    }


def member_stats_out(s: MemberStats) -> dict[str, Any]:
    return {
        "name": s.name,
        "games": s.games,
        "wins": s.wins,
        "shared_wins": s.shared_wins,
        "win_rate": s.win_rate,
        "rounds": s.rounds,
        "points": s.points,
        "points_per_round": s.points_per_round,
        "points_per_round_low": s.points_low,
        "points_per_round_high": s.points_high,
        "stops": s.stops,
        "stop_rate": s.stop_rate,
        "stack_cards_per_round": s.stack_cards_per_round,
        "best_round": _ref(s.best_round),
        "worst_round": _ref(s.worst_round),
        "longest_streak": s.longest_streak,
    }


def head_to_head_out(h: HeadToHead) -> dict[str, Any]:
    return {
        "member": h.member,
        "opponent": h.opponent,
        "games": h.games,
        "ahead": h.ahead,
        "behind": h.behind,
        "level": h.level,
    }


def rating_out(r: Rating) -> dict[str, float]:
    return {"mu": r.mu, "sigma": r.sigma, "rating": r.conservative}


def league_out(table: League) -> dict[str, Any]:
    return {
        "season": season_to_json(table.season),
        "games": table.games,
        "rows": [
            {
                "rank": row.rank,
                "name": row.name,
                "rating": rating_out(row.rating),
                "games": row.games,
                "wins": row.wins,
                "shared_wins": row.shared_wins,
                "points": row.points,
                "rounds": row.rounds,
                "points_per_round": row.points_per_round,
            }
            for row in table.rows
        ],
        "steps": [
            {"game_id": s.game_id, "ratings": {n: rating_out(r) for n, r in s.ratings.items()}}
            for s in table.steps
        ],
    }


def member_out(member: MemberData) -> dict[str, Any]:
    """One member: statistics, head-to-head, rating over time, points of every round."""
    name = member.stats.name
    return {
        "stats": member_stats_out(member.stats),
        "head_to_head": [head_to_head_out(h) for h in member.pairs],
        "rating": None if member.rating is None else rating_out(member.rating),
        "ratings": [
            {"game_id": game_id, "ratings": {name: rating_out(rating)}}
            for game_id, rating in member.ratings
        ],
        "round_points": member.round_points,
    }


def history_item_out(request: Request, item: HistoryItem) -> dict[str, Any]:
    """One game of the group's history, with its read-only link."""
    return {
        "id": item.id,
        "played_at": item.played_at.isoformat(),
        "players": list(item.players),
        "winners": list(item.winners),
        "mode": item.mode,
        "target": item.target,
        "rounds": item.rounds,
        "status": item.status,
        "totals": dict(zip(item.players, item.totals, strict=True)),
        "watch_url": absolute(request, watch_path(item.id)),
    }


STATS_COLUMNS = (
    "member",
    "games",
    "wins",
    "shared_wins",
    "win_rate",
    "rounds",
    "points",
    "points_per_round",
    "points_per_round_low",
    "points_per_round_high",
    "stops",
    "stop_rate",
    "stack_cards_per_round",
    "best_round",
    "worst_round",
    "longest_streak",
)


STATS_WORDS = {
    "member": N_("Member"),
    "games": N_("Games finished"),
    "wins": N_("Wins"),
    "shared_wins": N_("Shared wins"),
    "win_rate": N_("Win rate"),
    "rounds": N_("Rounds"),
    "points": N_("Points"),
    "points_per_round": N_("Points per round"),
    "points_per_round_low": N_("Points per round, lower bound"),
    "points_per_round_high": N_("Points per round, upper bound"),
    "stops": N_("Ligretto Stop called"),
    "stop_rate": N_("Share of rounds with Ligretto Stop called"),
    "stack_cards_per_round": N_("Stack cards left per round"),
    "best_round": N_("Best round"),
    "worst_round": N_("Worst round"),
    "longest_streak": N_("Longest winning streak"),
}
"""The statistics export's columns in words, for the regional CSV's header row."""


def stats_header(language: str) -> list[str]:
    """The regional statistics export's header row in *language*."""
    words = translations(language)
    return [words.gettext(STATS_WORDS[column]) for column in STATS_COLUMNS]


def stats_csv(stats: list[MemberStats]) -> str:
    """One line per member, the numbers of :class:`MemberStats` (decimals with a point)."""
    out = io.StringIO()
    table = csv.writer(out, lineterminator="\r\n")
    table.writerow(STATS_COLUMNS)
    for s in stats:
        data = member_stats_out(s)
        row: list[object] = [s.name]
        for column in STATS_COLUMNS[1:]:
            value = data[column]
            if column in ("best_round", "worst_round"):
                value = None if value is None else value["points"]
            if isinstance(value, float):
                value = f"{value:.3f}"
            row.append("" if value is None else value)
        table.writerow(row)
    return out.getvalue()
