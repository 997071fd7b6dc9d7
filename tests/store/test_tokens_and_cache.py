"""The store's ids, edit tokens and game cache on their own."""

from __future__ import annotations

from ligretto.store.cache import GameCache
from ligretto.store.tokens import (
    hash_token,
    is_game_id,
    new_game_id,
    new_token,
    token_matches,
)
from ligretto.tafel import Game


def test_ids_and_tokens_are_random_and_url_safe() -> None:
    ids = {new_game_id() for _ in range(50)}
    assert len(ids) == 50 and all(is_game_id(i) for i in ids)
    token = new_token()
    assert len(token) == 32 and token != new_token()


def test_only_a_matching_token_passes() -> None:
    token = new_token()
    stored = hash_token(token)
    assert len(stored) == 64 and token not in stored
    assert token_matches(stored, token)
    assert not token_matches(stored, token + "x")
    assert not token_matches(stored, None) and not token_matches(stored, "")


def test_odd_ids_are_refused_before_any_query() -> None:
    for odd in ("", "a" * 33, "a b", "n\x00pe", "ü", 12, None):
        assert not is_game_id(odd)


def test_cache_keeps_the_most_recently_written_games() -> None:
    cache = GameCache(2)
    games = [Game(["Anna", "Ben"]) for _ in range(3)]
    for number, game in enumerate(games, start=1):
        cache.keep(f"g{number}", number, game)
    assert cache.get("g1") is None  # the oldest went first
    g2, g3 = cache.get("g2"), cache.get("g3")
    assert g2 is not None and (g2.version, g2.game) == (2, games[1])
    assert g3 is not None and g3.version == 3
    cache.keep("g2", 4, games[1])  # written again: now the newest
    cache.keep("g4", 1, games[0])
    assert cache.get("g3") is None and cache.get("g2") is not None
