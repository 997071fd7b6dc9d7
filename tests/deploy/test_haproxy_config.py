"""The rate limits in ``deploy/haproxy.cfg`` are the processes' rate limits: the
same request classes, the same numbers, the same grouping of addresses.

The proxy counts per deployment what each process counts on its own
(docs/limits.md), so the two must not drift apart. Reading the
configuration needs no HAProxy; ``test_haproxy.py`` runs it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st
from limits import parse
from starlette.types import Receive, Scope, Send

from helpers.haproxy import CONFIG
from ligretto.web.ratelimit import RULES, RateLimit, RateLimits, RateRule

TEXT = CONFIG.read_text()
METHODS = ("GET", "POST", "PUT", "DELETE", "HEAD")


@dataclass(frozen=True)
class ProxyClass:
    """One ``set-var(txn.rate)`` line: a class, its methods, its path pattern."""

    name: str
    methods: frozenset[str]
    pattern: re.Pattern[str]


def _proxy_classes() -> list[ProxyClass]:
    found = []
    for line in TEXT.splitlines():
        match = re.fullmatch(
            r"    http-request set-var\(txn\.rate\) str\((\w+)\) if"
            r"(?: !\{ var\(txn\.rate\) -m found \})?"
            r" (METH_POST|\{ method [A-Z ]+ \})"
            r" \{ var\(txn\.path\) -m reg (\S+) \}",
            line,
        )
        if match:
            name, methods, pattern = match.groups()
            verbs = {"POST"} if methods == "METH_POST" else set(methods[9:-2].split())
            found.append(ProxyClass(name, frozenset(verbs), re.compile(pattern)))
    return found


CLASSES = _proxy_classes()


async def _nothing(scope: Scope, receive: Receive, send: Send) -> None:
    """The app behind the middleware; only its classification is used here."""


APP = RateLimit(_nothing)


def proxy_class(method: str, path: str) -> str | None:
    """The class HAProxy gives a request: the first line that matches."""
    for cls in CLASSES:
        if method in cls.methods and cls.pattern.search(path):
            return cls.name
    return None


def app_class(method: str, path: str) -> str | None:
    scope = {"type": "http", "method": method, "path": path, "headers": []}
    rule = APP.rule_for(scope)
    return rule.name if rule else None


def test_the_proxy_counts_every_class_the_processes_count() -> None:
    assert [c.name for c in CLASSES] == [rule.name for rule in RULES]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/play",
        "/play/",
        "/play/quick",
        "/play/practice/",
        "/play/ABCDEF",
        "/play/abcdef/",
        "/play/ABCDEF/ws",
        "/play/ABCDEF/seat-link",
        "/play/ABCDEF/other",
        "/play/ABCDEF/rounds/1/replay",
        "/play/ABCDEF/rounds/1",
        "/api/tables/ABCDEF/rounds",
        "/api/tables/ABCDEF/rounds/2/replay",
        "/api/tables/ABCDEF/rounds/2/replay/x",
        "/api/tables",
        "/api/tables/",
        "/api/tables/ABCDEF",
        "/api/tables/ABCDEF/seats",
        "/api/games",
        "/api/games/",
        "/api/games/import",
        "/api/games/x1/rounds",
        "/api/groups",
        "/api/groups/import",
        "/api/groups/G1/games",
        "/api/groups/G1",
        "/groups",
        "/groups/G1",
        "/groups/G1/edit/games",
        "/groups/G1/edit/games/",
        "/static/css/tafel.css",
        "/healthz",
        "/rules",
        "//api/games",
    ],
)
def test_the_proxy_and_the_processes_put_a_request_in_the_same_class(
    method: str, path: str
) -> None:
    assert proxy_class(method, path) == app_class(method, path)


@given(
    method=st.sampled_from(METHODS),
    path=st.one_of(
        *(st.from_regex(rule.pattern, fullmatch=True) for rule in RULES),
        # Without a newline: before a final one, `$` matches in PCRE as in
        # Python's `re.search`, so the proxy counts `/play%0A`, which no
        # route of the processes takes (404) and they do not count.
        st.text(st.characters(blacklist_characters="\n")).map(lambda s: "/" + s),
    ),
)
def test_any_request_falls_in_the_same_class_at_the_proxy_and_in_the_processes(
    method: str, path: str
) -> None:
    assert proxy_class(method, path) == app_class(method, path)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.name)
def test_the_proxy_allows_what_one_process_allows_by_default(rule: RateRule) -> None:
    name = rule.name
    item = parse(getattr(RateLimits(), name))
    limit = re.search(
        rf"\{{ var\(txn\.rate\) -m str {name} \}} "
        rf"\{{ var\(txn\.client\),table_http_req_rate\(rate_{name}\) ge (\d+) \}}",
        TEXT,
    )
    assert limit is not None, f"no limit for {name} in deploy/haproxy.cfg"
    assert int(limit.group(1)) == item.amount
    table = re.search(
        rf"^backend rate_{name}\n    stick-table .* store http_req_rate\((\d+)s\)", TEXT, re.M
    )
    assert table is not None, f"no table rate_{name} in deploy/haproxy.cfg"
    assert int(table.group(1)) == item.get_expiry()
    track = f"track-sc0 var(txn.client) table rate_{name} if {{ var(txn.rate) -m str {name} }}"
    assert f"    http-request {track}\n" in TEXT


def test_the_proxy_groups_addresses_as_the_processes_do_by_default() -> None:
    defaults = RateLimits()
    assert (
        f"http-request set-var(txn.client) src,ipmask({defaults.ipv4_prefix},"
        f"{defaults.ipv6_prefix})" in TEXT
    )


def test_the_proxy_limits_turn_off_as_the_processes_do() -> None:
    """``LIGRETTO_RATE_LIMITS=0`` in HAProxy's environment, for trials."""
    block = re.search(
        r'^\.if !streq\("\$LIGRETTO_RATE_LIMITS",0\)\n(.*?)^\.endif$', TEXT, re.M | re.S
    )
    assert block is not None
    outside = TEXT.replace(block.group(0), "")
    assert "txn.rate" not in outside and "txn.limited" not in outside
    assert "txn.client" not in outside and "status 429" not in outside
