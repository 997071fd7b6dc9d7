"""Idempotency keys: a write's first answer kept for its retries, in the database.

The IETF draft "The Idempotency-Key HTTP Header Field": a client names a
write with a key of its choice; the first request with the key runs, its
answer is kept, and a retry with the same key and the same request gets
that answer again instead of writing twice. The keys live in the database
(``api_idempotency_keys``), so a retry that reaches another process, or
the same one after a restart, is answered the same.

What is kept, and for how long:

- a key is known by the SHA-256 of the key, the method and path, and the
  request's credential (``Authorization``): the same key from a client
  without the game's edit token is another key, and the key itself is never
  stored;
- the answer's body is sealed with the key (a keystream of SHAKE-256 from
  the key and a random salt): the answer that creates a game holds its
  edit token, which the database otherwise keeps only as a hash;
- a key expires :data:`KEEP` after its first request; expired keys are
  deleted by the next keyed write (their index is on ``created_at``);
- a first request still running after :data:`ABANDONED` is taken to have
  died with its process: the next retry runs the write anew.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ligretto.store.database import busy_guard, writer
from ligretto.store.models import Base, IdempotencyKeyRow
from ligretto.store.rows import aware

KEEP = timedelta(hours=24)
"""How long a key and its answer are kept (the draft suggests at least 24 hours)."""

ABANDONED = timedelta(minutes=5)
"""A first request that has not answered after this long is taken over by a retry.

Far longer than any write runs (a lock is waited for five seconds at most,
the largest import takes seconds): only a process that stopped leaves a
key this long.
"""

MAX_KEY_LENGTH = 255
"""The longest key accepted, in characters (visible ASCII, ``!`` to ``~``)."""

MAX_KEPT_BODY = 256 * 1024
"""The largest answer body kept for a retry, in bytes.

Every answer to a write is a few KiB at most (a game without its rounds, a
group with its members); only an import's answer, which repeats every round,
can be larger. A larger answer is not kept: its retry is told so (and where
the new resource is) instead of getting it again.
"""

_SEAL_CONTEXT = b"ligretto idempotency answer\x00"
_SALT_BYTES = 16

_ROWS = Base.metadata.tables[IdempotencyKeyRow.__tablename__]

State = Literal["new", "running", "different", "done"]


@dataclass(frozen=True, slots=True)
class KeptAnswer:
    """The answer of a key's first request; ``body`` None when it was too large to keep."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes | None


@dataclass(frozen=True, slots=True)
class Claim:
    """What a key's record says about a request.

    ``new``: nobody ran it yet (or its first run died): run it now, then
    :meth:`IdempotencyStore.keep` or :meth:`IdempotencyStore.release`.
    ``running``: its first request still runs. ``different``: the key was
    used for another request. ``done``: ``answer`` is what it got.
    """

    state: State
    key_id: str
    answer: KeptAnswer | None = None


def is_valid_key(key: str) -> bool:
    """Whether *key* is 1 to :data:`MAX_KEY_LENGTH` visible ASCII characters."""
    return 1 <= len(key) <= MAX_KEY_LENGTH and all("!" <= c <= "~" for c in key)


def key_id(key: str, scope: str, credential: str) -> str:
    """The hex SHA-256 a key is stored under: the key within its scope and credential."""
    parts = (key, scope, credential)
    data = b"".join(
        len(p.encode("utf-8", "surrogatepass")).to_bytes(4, "big")
        + p.encode("utf-8", "surrogatepass")
        for p in parts
    )
    return hashlib.sha256(data).hexdigest()


def fingerprint(method: str, path: str, query: bytes, body: bytes) -> str:
    """The hex SHA-256 of what makes two requests the same: method, path, query and body."""
    digest = hashlib.sha256()
    for part in (method.encode("ascii"), path.encode("utf-8", "surrogatepass"), query, body):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def _keystream(key: str, salt: bytes, size: int) -> bytes:
    return hashlib.shake_256(_SEAL_CONTEXT + salt + key.encode("ascii")).digest(size)


def seal(key: str, salt: bytes, data: bytes) -> bytes:
    """*data* sealed with *key* and *salt*; :func:`seal` again opens it."""
    if not data:
        return data
    stream = _keystream(key, salt, len(data))
    mixed = int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")
    return mixed.to_bytes(len(data), "big")


class IdempotencyStore:
    """The keys of API writes in the database. Thread-safe; one transaction per call."""

    def __init__(self, engine: Engine) -> None:
        self._writer = writer(engine)

    def claim(
        self,
        key: str,
        *,
        scope: str,
        credential: str,
        request_hash: str,
        now: datetime | None = None,
    ) -> Claim:
        """Look the key up for this request and, if nobody runs it, take it.

        Deletes the expired keys first, so an expired key counts as new.
        Two processes taking one new key at once: one inserts, the other
        finds it (PostgreSQL raises the second insert; it reads again).
        """
        ident = key_id(key, scope, credential)
        moment = now or datetime.now(UTC)
        for attempt in range(2):
            try:
                return self._claim(ident, key, scope, request_hash, moment)
            except IntegrityError:
                if attempt:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _claim(self, ident: str, key: str, scope: str, request_hash: str, now: datetime) -> Claim:
        with busy_guard(), self._writer.begin() as conn:
            conn.execute(delete(_ROWS).where(_ROWS.c.created_at < now - KEEP))
            row = conn.execute(
                select(_ROWS).where(_ROWS.c.key_hash == ident).with_for_update()
            ).first()
            if row is None:
                conn.execute(
                    insert(_ROWS).values(
                        key_hash=ident,
                        scope=scope[:2000],
                        request_hash=request_hash,
                        created_at=now,
                    )
                )
                return Claim("new", ident)
            if row.request_hash != request_hash:
                return Claim("different", ident)
            if row.status is None:
                if aware(row.created_at) > now - ABANDONED:
                    return Claim("running", ident)
                # Its process stopped before the answer: this retry runs it.
                conn.execute(update(_ROWS).where(_ROWS.c.key_hash == ident).values(created_at=now))
                return Claim("new", ident)
            body = None if row.body is None else seal(key, row.salt or b"", row.body)
            headers = [(str(n), str(v)) for n, v in json.loads(row.headers or "[]")]
            return Claim("done", ident, KeptAnswer(row.status, headers, body))

    def keep(self, key: str, ident: str, answer: KeptAnswer) -> None:
        """Keep *answer* for the key's retries (a body over :data:`MAX_KEPT_BODY` is not kept)."""
        salt = secrets.token_bytes(_SALT_BYTES)
        body = answer.body
        sealed = None if body is None or len(body) > MAX_KEPT_BODY else seal(key, salt, body)
        with busy_guard(), self._writer.begin() as conn:
            conn.execute(
                update(_ROWS)
                .where(_ROWS.c.key_hash == ident)
                .values(
                    status=answer.status,
                    headers=json.dumps([list(h) for h in answer.headers]),
                    salt=salt,
                    body=sealed,
                )
            )

    def release(self, ident: str) -> None:
        """Forget a key whose request changed nothing (refused or failed): a retry runs anew."""
        with busy_guard(), self._writer.begin() as conn:
            conn.execute(delete(_ROWS).where(_ROWS.c.key_hash == ident, _ROWS.c.status.is_(None)))
