"""Secret tokens of a table: the host's key and each seat's link.

A token from a client is any text it sent (JSON allows every code point,
lone surrogates included), so tokens are compared as digests of their
bytes: ``secrets.compare_digest`` refuses a ``str`` that is not ASCII, and
comparing digests of equal length takes the same time whatever matches.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: Bytes of randomness in a token (24 URL-safe characters).
TOKEN_BYTES = 18


def new_token() -> str:
    """A fresh secret token, URL-safe (it travels in a link's fragment)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def _digest(token: str) -> bytes:
    # "surrogatepass": a lone surrogate from JSON is still some bytes.
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def same_token(given: str, expected: str) -> bool:
    """Whether ``given`` is ``expected``, for any text, in constant time."""
    return hmac.compare_digest(_digest(given), _digest(expected))


def token_hash(token: str) -> str:
    """What is kept of a token (in memory and in the database): its SHA-256.

    A token carries 144 random bits, so its hash needs no salt; whoever
    reads the database learns no token from it.
    """
    return _digest(token).hex()


def matches(given: str, stored_hash: str) -> bool:
    """Whether ``given`` is the token whose hash is ``stored_hash``, in constant time."""
    return hmac.compare_digest(_digest(given).hex(), stored_hash)
