"""/play says how strong each bot level is, from the stored OpenSkill calibration."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ligretto.bots import Level
from ligretto.simulate.calibrate import STRATEGIES, level_ratings, load_table
from ligretto.web.app import create_app
from ligretto.web.play.levels import level_strength
from ligretto.web.settings import Settings


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path, database_url=None))) as client:
        yield client


def test_the_stored_table_rates_every_strategy_at_every_level() -> None:
    table = load_table()
    assert table["command"].startswith("ligretto calibrate ")
    assert set(table["ratings"]) == {f"{s}:{lv.value}" for lv in Level for s in STRATEGIES}
    assert all(r["games"] > 0 and r["sigma"] > 0 for r in table["ratings"].values())
    rows = level_ratings(table)
    assert [row.level for row in rows] == [lv.value for lv in Level]
    # Speed beats strategy (docs/strategy.md): each level's best bot is
    # stronger than the level below's best.
    assert [row.high for row in rows] == sorted(row.high for row in rows)


@pytest.mark.parametrize(
    ("lang", "medium", "anchor"),
    [
        ("en", "Medium: skill {}, about as strong as a casual player", "reaction times"),
        (
            "de",
            "Mittel: Spielstärke {}, etwa so stark wie jemand, der ab und zu spielt",
            "Reaktionszeiten",
        ),
        (
            "nb",
            "Middels: ferdighet {}, omtrent like sterk som en som spiller av og til",
            "reaksjonstidene",
        ),
    ],
)
def test_play_shows_each_levels_skill_in_the_readers_language(
    app_client: TestClient, lang: str, medium: str, anchor: str
) -> None:
    page = html.unescape(app_client.get(f"/play?lang={lang}").text)
    strength = level_strength()
    assert medium.format(strength["levels"]["medium"]) in page
    for level in ("easy", "hard", "expert"):
        assert f'data-level="{level}"' in page
        assert strength["levels"][level] in page
    assert f"{strength['games']}" in page and anchor in page
