"""Secret ids and tokens: random, unguessable, and only a token's hash is kept.

Game ids and edit tokens of the Tafel, and the host's key and seat links of
an online table, all come from here.  A token from a client is any text it
sent (JSON allows every code point, lone surrogates included), so tokens
are compared as SHA-256 digests of their bytes: ``hmac.compare_digest``
refuses a ``str`` that is not ASCII, and comparing digests of equal length
takes the same time whatever matches.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

GAME_ID_BYTES = 12  # 96 random bits: nobody finds a game by counting
TOKEN_BYTES = 24  # 192 random bits
#: Bytes of randomness in an online table's host token and seat links
#: (24 URL-safe characters; 144 random bits need no salt for their hash).
TABLE_TOKEN_BYTES = 18
MAX_ID_LENGTH = 32
_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what secrets.token_urlsafe makes


def new_game_id() -> str:
    """A fresh random game id (URL-safe)."""
    return secrets.token_urlsafe(GAME_ID_BYTES)


def new_token(size: int = TOKEN_BYTES) -> str:
    """A fresh secret token of ``size`` random bytes, URL-safe (it travels
    in a link's fragment); shown once, kept only as its hash."""
    return secrets.token_urlsafe(size)


def hash_token(token: str) -> str:
    """The hex SHA-256 of *token*, as kept in memory and in the database."""
    # "surrogatepass": a lone surrogate from JSON is still some bytes.
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token_hash: str, token: str | None) -> bool:
    """Whether *token* hashes to *token_hash*, compared in constant time."""
    if not token:
        return False
    return hmac.compare_digest(token_hash, hash_token(token))


def is_game_id(game_id: object) -> bool:
    """Whether *game_id* could be a game id at all (checked before any query)."""
    # Anything else cannot be an id; refusing it early also keeps odd bytes
    # (PostgreSQL refuses NUL in text) away from the database.
    return isinstance(game_id, str) and _ID_PATTERN.fullmatch(game_id) is not None
