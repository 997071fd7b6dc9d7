"""The store of idempotency keys: one first request per key, its answer kept and sealed."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, text

from ligretto.store.idempotency import (
    KEEP,
    IdempotencyStore,
    KeptAnswer,
    is_valid_key,
    key_id,
    seal,
)


def state(store: IdempotencyStore, key: str, request: str = "r1") -> str:
    return store.claim(key, scope="POST /api/x", credential="", request_hash=request).state


def test_a_sealed_answer_opens_with_its_key_only() -> None:
    body = b'{"edit_token": "secret"}'
    sealed = seal("key-1", b"salt", body)
    assert sealed != body and b"secret" not in sealed
    assert seal("key-1", b"salt", sealed) == body
    assert seal("key-2", b"salt", sealed) != body
    assert seal("key-1", b"other", sealed) != body


def test_a_key_is_its_scope_and_credential_too() -> None:
    ids = {
        key_id("k", "POST /api/games/a/rounds", "Bearer t"),
        key_id("k", "POST /api/games/b/rounds", "Bearer t"),
        key_id("k", "POST /api/games/a/rounds", "Bearer u"),
        key_id("kPOST", " /api/games/a/rounds", "Bearer t"),
    }
    assert len(ids) == 4


def test_valid_keys_are_1_to_255_visible_ascii_characters() -> None:
    assert is_valid_key("a") and is_valid_key("~" * 255) and is_valid_key("8e03-!")
    for bad in ("", "a" * 256, "a b", "ä", "\x7f"):
        assert not is_valid_key(bad)


def test_a_kept_answer_is_found_and_another_request_is_told_apart(engine: Engine) -> None:
    store = IdempotencyStore(engine)
    first = store.claim("kept", scope="POST /api/x", credential="", request_hash="r1")
    assert first.state == "new"
    assert state(store, "kept") == "running"
    store.keep("kept", first.key_id, KeptAnswer(201, [("etag", '"2"')], b"{}"))
    again = store.claim("kept", scope="POST /api/x", credential="", request_hash="r1")
    assert again.state == "done" and again.answer == KeptAnswer(201, [("etag", '"2"')], b"{}")
    other = store.claim("kept", scope="POST /api/x", credential="", request_hash="r2")
    assert other.state == "different"
    with engine.connect() as conn:
        stored = conn.execute(
            text("SELECT key_hash FROM api_idempotency_keys WHERE key_hash = :k"),
            {"k": first.key_id},
        ).scalar_one()
    assert "kept" not in stored


def test_a_released_key_runs_anew(engine: Engine) -> None:
    store = IdempotencyStore(engine)
    first = store.claim("released", scope="POST /api/x", credential="", request_hash="r1")
    store.release(first.key_id)
    assert state(store, "released") == "new"


def test_expired_keys_are_deleted_by_the_next_claim(engine: Engine) -> None:
    store = IdempotencyStore(engine)
    old = datetime.now(UTC) - KEEP - timedelta(seconds=1)
    first = store.claim("expired", scope="POST /api/x", credential="", request_hash="r1", now=old)
    store.keep("expired", first.key_id, KeptAnswer(200, [], b"{}"))
    store.claim("someone-else", scope="POST /api/x", credential="", request_hash="r1")
    with engine.connect() as conn:
        left = conn.execute(
            text("SELECT count(*) FROM api_idempotency_keys WHERE key_hash = :k"),
            {"k": first.key_id},
        ).scalar_one()
    assert left == 0


def test_of_two_requests_at_once_with_one_key_one_runs(engine: Engine) -> None:
    store = IdempotencyStore(engine)

    def take(_: int) -> str:
        return store.claim("at-once", scope="POST /api/x", credential="", request_hash="r").state

    with ThreadPoolExecutor(4) as pool:
        states = sorted(pool.map(take, range(8)))
    assert states == ["new"] + ["running"] * 7
