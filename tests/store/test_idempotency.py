"""The store of idempotency keys: one first request per key, its answer kept and sealed."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, text

from ligretto.store.idempotency import (
    KEEP,
    Claim,
    IdempotencyStore,
    KeptAnswer,
    KeyLimits,
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


T0 = datetime(2026, 12, 6, 12, tzinfo=UTC)


def _claim(
    store: IdempotencyStore,
    key: str,
    *,
    token: str = "",
    client: str = "192.0.2.1",
    at: float = 0.0,
) -> Claim:
    return store.claim(
        key,
        scope="POST /api/bounded",
        credential=token,
        client=client,
        request_hash="r",
        now=T0 + timedelta(seconds=at),
    )


def test_new_keys_beyond_a_tokens_rate_are_refused_until_the_minute_moves(
    engine: Engine,
) -> None:
    store = IdempotencyStore(engine, KeyLimits(per_minute=3, per_owner=100, per_client=100))
    for n in range(3):
        assert _claim(store, f"rate-{n}", token="Bearer rate", at=n).state == "new"
    refused = _claim(store, "rate-3", token="Bearer rate", at=10)
    assert refused.state == "refused" and refused.refusal is not None
    assert refused.refusal.code == "idempotency_key_rate"
    assert refused.refusal.retry_after == 50  # the first key leaves the minute at 60 s
    assert _claim(store, "rate-0", token="Bearer rate", at=11).state == "running"  # a retry
    assert _claim(store, "rate-x", token="Bearer other", at=12).state == "new"  # its own
    assert _claim(store, "rate-3", token="Bearer rate", at=61).state == "new"


def test_a_token_keeps_so_many_keys_and_a_refused_or_released_one_counts_not(
    engine: Engine,
) -> None:
    store = IdempotencyStore(engine, KeyLimits(per_minute=100, per_owner=3, per_client=100))
    released = _claim(store, "kept-released", token="Bearer kept")
    store.release(released.key_id)  # a refused write: forgotten, not counted
    for n in range(3):
        claim = _claim(store, f"kept-{n}", token="Bearer kept", at=100 * n)
        store.keep(f"kept-{n}", claim.key_id, KeptAnswer(200, [], b"{}"))
    refused = _claim(store, "kept-3", token="Bearer kept", at=300)
    assert refused.refusal is not None and refused.refusal.code == "too_many_idempotency_keys"
    assert refused.refusal.by == "owner" and refused.refusal.limit == 3
    assert refused.refusal.retry_after == KEEP.total_seconds() - 300
    assert _claim(store, "kept-3", token="Bearer kept", at=301).state == "refused"  # nothing kept
    assert _claim(store, "kept-1", token="Bearer kept", at=302).state == "done"  # retries answer


def test_a_client_keeps_so_many_keys_over_all_its_tokens(engine: Engine) -> None:
    store = IdempotencyStore(engine, KeyLimits(per_minute=100, per_owner=100, per_client=4))
    for n in range(4):
        claim = _claim(store, f"c-{n}", token=f"Bearer game-{n}", client="198.51.100.0/24")
        assert claim.state == "new"
    refused = _claim(store, "c-4", token="Bearer game-9", client="198.51.100.0/24")
    assert refused.refusal is not None and refused.refusal.by == "client"
    assert _claim(store, "c-4", token="Bearer game-9", client="203.0.113.0/24").state == "new"


def test_a_key_without_a_token_is_its_clients_alone(engine: Engine) -> None:
    store = IdempotencyStore(engine)
    first = _claim(store, "create-1", client="192.0.2.50")
    store.keep("create-1", first.key_id, KeptAnswer(201, [], b'{"edit_token": "mine"}'))
    assert _claim(store, "create-1", client="192.0.2.50").state == "done"
    other = _claim(store, "create-1", client="192.0.2.51")
    assert other.state == "new" and other.answer is None  # never the first client's answer
