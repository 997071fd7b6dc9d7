"""The strategy lab's pages: a study from the form to its plots, and the lab's limits.

Requests come through a trusted proxy (``X-Forwarded-For``), so that one
test client can be several clients, counted as the rate limits count them.
"""

from __future__ import annotations

import gzip
import json
import re
import shlex
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ligretto.cli import app as cli
from ligretto.store.studies import StudyStore
from ligretto.web.app import create_app
from ligretto.web.settings import Settings

PROXY = "127.0.0.1"
CAP = 60_000


@pytest.fixture(scope="module")
def app(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    return create_app(
        Settings(
            data_dir=tmp_path_factory.mktemp("data"),
            database_url=database_url,
            trusted_proxies=[PROXY],
            lab_workers=1,
            lab_running=1,
            lab_client_studies=2,
            lab_max_seat_rounds=CAP,
        )
    )


@pytest.fixture(scope="module")
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, client=(PROXY, 50000), follow_redirects=False) as test_client:
        yield test_client


def _as(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def _form(bots: list[str], count: int, seed: int | None = 5, **more: str) -> dict[str, str]:
    data = {
        "question": "custom",
        "players": str(len(bots)),
        "count": str(count),
        "amount": "rounds",
        "seed": "" if seed is None else str(seed),
        "deck": "ligretto",
        "row_refill": "auto",
        "recycle_shuffle": "on",
        "deadlock": "end",
        **more,
    }
    for seat, bot in enumerate(bots):
        data[f"strategy{seat}"], _, data[f"level{seat}"] = bot.partition(":")
    return data


def _start(client: TestClient, data: dict[str, str], address: str) -> str:
    response = client.post("/lab", data=data, headers=_as(address))
    assert response.status_code == 303, response.text
    location: str = response.headers["location"]
    return location


def _progress(client: TestClient, study: str) -> list[dict[str, Any]]:
    """Every progress event of the study's stream, until the stream ends with the study."""
    seen = []
    with client.stream("GET", f"{study}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("data:"):
                seen.append(json.loads(line.removeprefix("data:")))
    return seen


def _count(app: FastAPI) -> int:
    store: StudyStore = app.state.lab.store
    with store.engine.connect() as conn:
        return int(conn.exec_driver_sql("SELECT count(*) FROM lab_studies").scalar_one())


def test_a_study_runs_to_plots_and_its_command_gives_the_same_numbers(client: TestClient) -> None:
    study = _start(client, _form(["stack-first:medium", "greedy:medium"], 300), "192.0.2.1")
    events = _progress(client, study)
    assert events[-1]["state"] == "done"
    done = [e["done"] for e in events if e["state"] == "running"]
    assert done == sorted(done) and done[-1] == 300  # the bar only goes forward, to the end

    page = client.get(study)
    assert page.status_code == 200
    assert page.text.count('<svg class="chart lab-chart"') == 4  # points, wins, stack, paired
    command = "ligretto simulate --bots stack-first:medium,greedy:medium --rounds 300 --seed 5"
    assert command in page.text

    # the seats by name and the bots in /play's words, in every language, no "Platz 1"
    german = client.get(study, headers={"Accept-Language": "de"}).text
    assert "Anna: nach Lehrbuch, mittel" in german and "Ben: eifrig, mittel" in german
    assert "Platz" not in german
    assert "Ben: eager, medium" in page.text
    norwegian = client.get(study, headers={"Accept-Language": "nb"}).text
    assert "Anna: etter boka, middels" in norwegian

    # the answer in one sentence with its ±, and every round as a line of JSON
    assert re.search(r'id="lab-answer">[^<]*± [^<]*\.</p>', page.text)
    rounds = client.get(f"{study}/rounds.jsonl.gz")
    assert rounds.status_code == 200
    lines = [json.loads(line) for line in gzip.decompress(rounds.content).splitlines()]
    assert [line["round"] for line in lines] == list(range(300))

    result = client.get(f"{study}.json").json()
    assert result["state"] == "done" and result["result"]["command"] == command
    for seat, numbers in enumerate(result["result"]["report"]["seats"]):
        mean = sum(line["points"][seat] for line in lines) / 300
        assert mean == pytest.approx(numbers["points_per_round"]["mean"])
    cli_run = CliRunner().invoke(cli, [*shlex.split(command)[1:], "--json"])
    assert cli_run.exit_code == 0, cli_run.output
    numbers = json.loads(cli_run.stdout)
    del numbers["config"]["workers"]
    assert numbers == result["result"]["report"]


def test_a_study_over_the_cap_is_refused_and_nothing_is_kept(
    app: FastAPI, client: TestClient
) -> None:
    before = _count(app)
    response = client.post(
        "/lab", data=_form(["greedy:easy"] * 4, 20_000), headers=_as("192.0.2.2")
    )
    assert response.status_code == 400
    assert "This study is too big: 80,000 rounds × seats" in response.text
    assert "at most 60,000" in response.text
    assert _count(app) == before


def test_a_second_clients_study_queues_with_its_place_and_the_quota_holds(
    app: FastAPI, client: TestClient
) -> None:
    first, second = "198.51.100.1", "198.51.100.2"
    # a study that runs far longer than this test: the one place to run is taken
    long = _start(client, _form(["greedy:easy", "random:easy"], 29_000), first)
    queued = _start(client, _form(["greedy:easy", "random:easy"], 200), second)
    assert "place 1 in the queue" in client.get(queued, headers=_as(second)).text
    also = _start(client, _form(["greedy:easy", "random:easy"], 100), first)
    assert "place 2 in the queue" in client.get(also, headers=_as(first)).text

    # the first client has its two studies: a third is refused, nothing kept
    before = _count(app)
    refused = client.post("/lab", data=_form(["greedy:easy"] * 2, 50), headers=_as(first))
    assert refused.status_code == 429
    assert "You have 2 studies queued or running already" in refused.text
    assert _count(app) == before

    # only the client who started a study may cancel it
    assert client.post(f"{long}/cancel", headers=_as(second)).status_code == 403
    assert client.post(f"{long}/cancel", headers=_as(first)).status_code == 303
    assert "This study was cancelled." in client.get(long).text
    assert _progress(client, queued)[-1]["state"] == "done"
    assert _progress(client, also)[-1]["state"] == "done"
    assert client.get(f"{long}.json").json()["state"] == "cancelled"
    assert client.get(f"{long}/rounds.jsonl.gz").status_code == 404  # no result, no records


def test_the_form_fills_the_seats_of_a_question(client: TestClient) -> None:
    page = client.get("/lab?question=r7")
    assert page.status_code == 200
    assert page.text.count('class="lab-seat"') == 8
    # another question than the one shown brings its own players; the same keeps them
    assert client.get("/lab?shown=versus&question=r7&players=4").text.count('"lab-seat"') == 8
    assert client.get("/lab?shown=r7&question=r7&players=4").text.count('"lab-seat"') == 4
    levels = client.get("/lab?question=levels", headers={"Accept-Language": "de"})
    assert "Strategielabor" in levels.text
    for level in ("easy", "medium", "hard", "expert"):
        assert f'<option value="{level}" selected>' in levels.text


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("count", "0", "at least 1"),
        ("count", "²", "at least 1"),
        ("seed", "abc", "The seed is a whole number"),
        ("players", "40", "2 to 12 seats"),
        ("strategy1", "genius", "Ben: there is no bot strategy “genius”. Nothing was started."),
        ("strategy0", "", "Anna: there is no bot strategy “”."),
        ("level0", "superhuman", "Anna: there is no bot level “superhuman”."),
        ("deck", "tarot", "The form sent a choice the lab does not offer (“tarot”)."),
        ("deadlock", "shrug", "does not offer (“shrug”)"),
        ("question", "meaning-of-life", "does not offer (“meaning-of-life”)"),
        ("speed0", "fast", "Anna: a speed is a number from 0.25 to 4"),
        ("speed1", "9", "Ben: a speed is a number from 0.25 to 4"),
        ("overlook1", "150", "Ben: how often a card that fits is overlooked is a whole percent"),
        ("shuffle0", "shake", "Anna: there is no way of shuffling “shake”."),
        ("shuffle0", "riffle:1", "Shuffling between rounds needs whole games"),
        ("stack_penalty", "7", "costs are a whole number from 0 to 5, not “7”"),
        ("sets", "4", "does not offer (“4”)"),
    ],
)
def test_odd_input_is_a_message(
    app: FastAPI, client: TestClient, field: str, value: str, message: str
) -> None:
    before = _count(app)
    data = {**_form(["greedy:easy", "random:easy"], 10), field: value}
    response = client.post("/lab", data=data, headers=_as("203.0.113.9"))
    assert response.status_code == 400
    assert message in response.text
    assert _count(app) == before  # refused, never run as another strategy or rule


def test_a_question_brings_its_seats_run_and_rules(client: TestClient) -> None:
    faster = client.get("/lab?question=faster").text
    assert 'name="speed0" value="1.5"' in faster and 'name="speed1" value="1"' in faster
    assert '<input type="radio" name="amount" value="games" checked>' in faster
    shuffle = client.get("/lab?question=shuffle").text
    assert '<option value="riffle:1" selected>riffles once</option>' in shuffle
    recycle = client.get("/lab?question=recycle").text
    assert (
        'name="recycle_shuffle" checked' not in recycle
        and '<details class="panel" open>' in recycle
    )
    assert (
        'name="stack_penalty" min="0" max="5" value="1"' in client.get("/lab?question=penalty").text
    )


def test_ten_million_rounds_are_refused_by_the_cap_with_its_reason(
    app: FastAPI, client: TestClient
) -> None:
    before = _count(app)
    data = _form(["greedy:easy"] * 4, 10_000_000)
    response = client.post("/lab", data=data, headers=_as("203.0.113.10"))
    assert response.status_code == 400
    assert "This study is too big: 40,000,000 rounds × seats" in response.text
    assert "whole number of at least 1" not in response.text
    german = client.post(
        "/lab", data=data, headers={**_as("203.0.113.10"), "Accept-Language": "de"}
    )
    assert "Diese Studie ist zu groß: 40.000.000 Runden" in german.text
    assert _count(app) == before


def test_the_form_names_the_players_and_says_the_bots_as_play_does(client: TestClient) -> None:
    german = client.get("/lab?question=versus", headers={"Accept-Language": "de"}).text
    assert '<span class="lab-seat-name">Anna</span>' in german
    assert ">Nach Lehrbuch: leert zuerst den Ligretto-Stapel</option>" in german
    assert '<option value="medium" selected>mittel</option>' in german
    assert "Platz" not in german.split('id="lab-form"')[1]


def test_no_such_study_is_404(client: TestClient) -> None:
    assert client.get("/lab/nothing-here").status_code == 404
    assert client.get("/lab/nothing-here.json").status_code == 404
