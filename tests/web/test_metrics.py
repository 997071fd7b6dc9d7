"""``/metrics``: served on an address of its own, requests counted by route template,
refusals by their limit, seats, tables and studies published, and no label ever
carrying a token, a game's id or a table's code."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY, CollectorRegistry, Histogram
from pydantic import ValidationError

from helpers.live_wire import join, open_table, receive_until
from helpers.metrics import scrape, value
from ligretto.child_process import free_port
from ligretto.metrics.series import LOOP_LAG_BUCKETS
from ligretto.simulate.study import StudySpec
from ligretto.web.app import create_app
from ligretto.web.health import LoopLag
from ligretto.web.lab.runner import LiveStudy
from ligretto.web.limits import DEFAULT_LIMIT
from ligretto.web.metrics import MetricsPublisher
from ligretto.web.settings import Settings

PLAYERS = {"players": ["Anna", "Ben"], "mode": "target", "target": 99}


@pytest.fixture(scope="module")
def metrics_port() -> int:
    return free_port()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, metrics_port: int) -> Iterator[TestClient]:
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("data"),
        database_url=None,
        metrics_address=f"127.0.0.1:{metrics_port}",
    )
    with TestClient(create_app(settings)) as c:
        yield c


def publisher(client: TestClient) -> MetricsPublisher:
    found: MetricsPublisher = client.app.state.metrics  # type: ignore[attr-defined]
    return found


def requests(route: str, method: str, status: str) -> float:
    return value("ligretto_http_requests_total", route=route, method=method, status=status)


def test_metrics_are_served_on_their_own_address_not_the_apps(
    client: TestClient, metrics_port: int
) -> None:
    assert client.get("/metrics").status_code == 404
    samples = scrape(f"http://127.0.0.1:{metrics_port}/metrics")
    names = {name for name, _ in samples}
    for name in (
        "ligretto_seats",
        "ligretto_tables",
        "ligretto_moves_received_total",
        "ligretto_moves_answered_total",
        "ligretto_move_answer_seconds_count",
        "ligretto_event_loop_lag_seconds_count",
        "ligretto_gc_pause_seconds_count",
        "ligretto_journal_batch_actions_count",
        "ligretto_journal_commit_seconds_count",
        "ligretto_http_requests_total",
        "ligretto_refusals_total",
        "ligretto_lab_studies",
    ):
        assert name in names, name


def test_requests_are_counted_by_route_template_method_and_status(client: TestClient) -> None:
    created = requests("/api/games", "POST", "201")
    read = requests("/api/games/{game_id}", "GET", "200")
    missing = requests("none", "GET", "404")
    odd = requests("none", "other", "404")
    game = client.post("/api/games", json=PLAYERS).json()
    assert client.get(f"/api/games/{game['id']}").status_code == 200
    assert client.get("/no/such/page").status_code == 404
    assert client.request("BREW", "/no/such/pot").status_code == 404
    assert requests("/api/games", "POST", "201") == created + 1
    assert requests("/api/games/{game_id}", "GET", "200") == read + 1
    assert requests("none", "GET", "404") == missing + 1
    assert requests("none", "other", "404") == odd + 1


def test_no_label_carries_a_token_a_game_id_or_a_table_code(
    client: TestClient, metrics_port: int
) -> None:
    game = client.post("/api/games", json=PLAYERS).json()
    table = open_table(client, bots=[{"strategy": "greedy", "level": "easy"}])
    secrets = [game["id"], game["edit_token"], table["code"], table["host_token"]]
    client.get(f"/g/{game['id']}")
    client.get(f"/g/{game['id']}/edit/{game['edit_token']}")  # an old edit link
    client.get(f"/play/{table['code']}")
    client.get(f"/api/tables/{table['code']}")
    client.get(f"/api/tables/{table['code'].lower()}xyz")
    with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
        join(ws, token=table["host_token"])
        publisher(client).publish()
        text = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", trust_env=False).text
    assert "/g/{game_id}/edit/{token}" in text  # the old edit link was counted, by its template
    for secret in secrets:
        assert secret.lower() not in text.lower()


def test_seats_tables_and_studies_are_published_from_what_the_process_holds(
    client: TestClient,
) -> None:
    table = open_table(client, seats=3, bots=[{"strategy": "greedy", "level": "easy"}])
    lab = client.app.state.lab  # type: ignore[attr-defined]
    study = LiveStudy("s1", StudySpec(bots=("greedy:easy", "greedy:easy"), rounds=1), "c")
    study.state = "running"
    lab.studies[study.id] = study
    try:
        with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
            join(ws, token=table["host_token"])
            receive_until(ws, "table")
            publisher(client).publish()
            assert value("ligretto_seats", occupant="person") == 1
            assert value("ligretto_seats", occupant="bot") >= 1
            assert value("ligretto_tables", phase="lobby") >= 1
            assert value("ligretto_lab_studies", state="running") == 1
    finally:
        del lab.studies[study.id]
    deadline = time.monotonic() + 30
    while True:  # Anna left: her table hears it in its own time
        publisher(client).publish()
        if value("ligretto_seats", occupant="person") == 0:
            break
        assert time.monotonic() < deadline, "the seat stayed taken"
        time.sleep(0.05)
    assert value("ligretto_lab_studies", state="running") == 0


def test_a_refusal_is_counted_by_the_limit_that_refused(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path, database_url=None, rate_limits=True, rate_create_game="1/minute"
    )
    limited = value("ligretto_refusals_total", limit="create_game")
    too_large = value("ligretto_refusals_total", limit="body_too_large")
    with TestClient(create_app(settings)) as c:
        assert c.post("/api/games", json=PLAYERS).status_code == 201
        assert c.post("/api/games", json=PLAYERS).status_code == 429
        body = b"{" + b" " * DEFAULT_LIMIT + b"}"
        assert c.put("/api/games/x/rounds/1", content=body).status_code == 413
    assert value("ligretto_refusals_total", limit="create_game") == limited + 1
    assert value("ligretto_refusals_total", limit="body_too_large") == too_large + 1
    # Every limit's series is there from the start, at 0 until it refuses.
    assert (
        REGISTRY.get_sample_value("ligretto_refusals_total", {"limit": "table_lookup"}) is not None
    )


def test_each_measurement_of_the_loop_lag_is_observed() -> None:
    # A registry of its own: the module's app runs a watchdog that observes
    # into the process's series every 0.1 s, so counting there races with it.
    registry = CollectorRegistry()
    histogram = Histogram(
        "ligretto_event_loop_lag_seconds", "lag", buckets=LOOP_LAG_BUCKETS, registry=registry
    )
    LoopLag(histogram=histogram).record(1.0, 0.03)
    name = "ligretto_event_loop_lag_seconds_bucket"
    assert registry.get_sample_value(name, {"le": "0.05"}) == 1
    assert registry.get_sample_value(name, {"le": "0.025"}) == 0


@pytest.mark.parametrize("address", ["nonsense", "127.0.0.1", "[::1]", "::1:80"])
def test_a_metrics_address_must_be_host_and_port(tmp_path: Path, address: str) -> None:
    with pytest.raises(ValidationError):
        Settings(data_dir=tmp_path, metrics_address=address)


def test_metrics_are_off_unless_an_address_is_given(tmp_path: Path) -> None:
    assert Settings(data_dir=tmp_path).metrics_address is None
    assert Settings(data_dir=tmp_path, metrics_address="off").metrics_address is None
    given = Settings(data_dir=tmp_path, metrics_address=" 127.0.0.1:18001 ")
    assert given.metrics_address == "127.0.0.1:18001"
