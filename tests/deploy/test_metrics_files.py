"""The Grafana dashboard and the alerting rules in ``deploy/`` read series that exist.

A renamed series would leave a panel empty and an alert silent without an
error anywhere; here every ``ligretto_…`` name they use is checked against
the series the app defines, and the dashboard shows each of them.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client import REGISTRY

import ligretto.metrics.series  # noqa: F401 - defines the series in the registry

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
DASHBOARD = DEPLOY / "grafana-dashboard.json"
ALERTS = DEPLOY / "prometheus-alerts.yml"
NAME = re.compile(r"\bligretto_\w+")


def series() -> dict[str, set[str]]:
    """Each ``ligretto_`` series by its name, with the names of its samples."""
    suffixes = {"counter": ["_total"], "gauge": [""], "histogram": ["_bucket", "_sum", "_count"]}
    return {
        family.name: {family.name + suffix for suffix in suffixes[family.type]}
        for family in REGISTRY.collect()
        if family.name.startswith("ligretto_")
    }


def dashboard_exprs() -> list[str]:
    board: dict[str, Any] = json.loads(DASHBOARD.read_text())
    exprs = [t["expr"] for p in board["panels"] for t in p.get("targets", [])]
    exprs += [v["definition"] for v in board["templating"]["list"] if "definition" in v]
    return exprs


def alert_rules() -> list[dict[str, Any]]:
    rules: dict[str, Any] = yaml.safe_load(ALERTS.read_text())
    return [rule for group in rules["groups"] for rule in group["rules"]]


def test_every_name_the_dashboard_and_the_alerts_read_is_a_series() -> None:
    samples = set().union(*series().values())
    exprs = dashboard_exprs() + [rule["expr"] for rule in alert_rules()]
    unknown = sorted({name for expr in exprs for name in NAME.findall(expr)} - samples)
    assert unknown == []


def test_the_dashboard_shows_every_series() -> None:
    used = {name for expr in dashboard_exprs() for name in NAME.findall(expr)}
    missing = sorted(name for name, samples in series().items() if not samples & used)
    assert missing == []


def test_the_dashboard_is_one_importable_document() -> None:
    board = json.loads(DASHBOARD.read_text())
    panels = board["panels"]
    assert len({p["id"] for p in panels}) == len(panels)
    for panel in panels:
        if panel["type"] != "row":
            assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
            assert panel["targets"] and panel["title"]


def test_the_alerts_watch_the_loop_lag_and_the_5xx_rate() -> None:
    rules = {rule["alert"]: rule for rule in alert_rules()}
    assert set(rules) == {"LigrettoEventLoopLag", "LigrettoHttp5xxRate"}
    assert "ligretto_event_loop_lag_seconds_bucket" in rules["LigrettoEventLoopLag"]["expr"]
    assert 'status=~"5.."' in rules["LigrettoHttp5xxRate"]["expr"]
    for rule in rules.values():
        assert rule["for"] and rule["annotations"]["summary"] and rule["labels"]["severity"]


def test_promtool_accepts_the_rules() -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool is not installed (Debian's prometheus package)")
    checked = subprocess.run(
        [promtool, "check", "rules", str(ALERTS)], capture_output=True, check=False, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
