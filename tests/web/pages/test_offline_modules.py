"""The offline board's modules: in the import map (kept by the service worker), served, small."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ligretto.web.rendering import IMPORTED_MODULES, STATIC_DIR, import_map

OFFLINE = sorted(STATIC_DIR.glob("js/offline/*.js"))


def test_every_offline_module_is_in_the_import_map() -> None:
    assert OFFLINE, "static/js/offline/ holds the offline board's modules"
    listed = {path for path in IMPORTED_MODULES if path.startswith("js/offline/")}
    assert listed == {path.relative_to(STATIC_DIR).as_posix() for path in OFFLINE}
    for path in OFFLINE:
        assert f'"/static/js/offline/{path.name}":' in import_map()


def test_every_offline_module_is_served_and_stays_small(client: TestClient) -> None:
    for path in [STATIC_DIR / "js" / "offline.js", *OFFLINE]:
        answer = client.get(f"/static/{path.relative_to(STATIC_DIR).as_posix()}")
        assert answer.status_code == 200, path.name
        assert "javascript" in answer.headers["content-type"]
        assert len(path.read_text().splitlines()) <= 300, path.name


def test_the_edit_page_carries_the_boards_pieces_and_the_watch_page_does_not(
    client: TestClient,
) -> None:
    created = client.post(
        "/api/games", json={"players": ["Anna", "Ben", "Cleo"], "mode": "target", "target": 50}
    ).json()
    edit = client.get(f"/g/{created['id']}/edit").text
    pieces = ("players", "ranking", "rounds", "row", "cell", "stacks", "middle", "correct")
    for name in (*pieces, "replay-link"):
        assert f'<template id="tpl-{name}">' in edit, name
    assert '<template id="offline-messages"' in edit
    watch = client.get(f"/g/{created['id']}").text
    assert "<template" not in watch
