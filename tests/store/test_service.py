"""The Tafel service on SQLite and PostgreSQL: transactions, versions, history (T1–T6)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import Engine, func, select

from ligretto.store import (
    CreatedGame,
    ForbiddenError,
    GameNotFoundError,
    TafelService,
    VersionConflictError,
)
from ligretto.store.models import RoundRow
from ligretto.tafel import Code, ImplausibleRoundError, InvalidRoundError, RoundOrderError


@pytest.fixture
def changes() -> list[tuple[str, int]]:
    return []


@pytest.fixture
def service(engine: Engine, changes: list[tuple[str, int]]) -> TafelService:
    return TafelService(engine, [lambda game_id, version: changes.append((game_id, version))])


@pytest.fixture
def created(service: TafelService) -> CreatedGame:
    return service.create_game(["Anna", "Ben", "Cleo"], target=99)


def test_t1_created_game_has_unguessable_id_and_token(service: TafelService) -> None:
    first = service.create_game(["Anna", "Ben"])
    second = service.create_game(["Anna", "Ben"])
    assert first.stored.id != second.stored.id
    assert len(first.stored.id) >= 16  # 96 bits in URL-safe base64
    assert len(first.edit_token) >= 32  # 192 bits
    assert first.stored.version == 1
    assert service.check_token(first.stored.id, first.edit_token)
    assert not service.check_token(first.stored.id, second.edit_token)


def test_t2_t3_round_in_two_steps_is_stored(service: TafelService, created: CreatedGame) -> None:
    gid, token = created.stored.id, created.edit_token
    opened = service.open_round(gid, token, {"Anna": 0, "Ben": 3, "Cleo": 5})
    assert opened.stored.version == 2
    assert service.get_game(gid).game.pending_round is not None
    done = service.complete_round(gid, token, 1, {"Anna": 12, "Ben": 14, "Cleo": 5})
    assert done.stored.version == 3
    again = service.get_game(gid)
    assert again.version == 3
    assert again.game.totals == (12, 8, -5)
    assert again.describe()["rounds"][0]["caller"] == "Anna"


def test_t2_refused_round_changes_nothing(
    service: TafelService, created: CreatedGame, changes: list[tuple[str, int]], engine: Engine
) -> None:
    gid, token = created.stored.id, created.edit_token
    with pytest.raises(InvalidRoundError) as caught:
        service.open_round(gid, token, {"Anna": 0, "Ben": 0, "Cleo": 5})
    assert caught.value.code is Code.TWO_CALLERS
    stored = service.get_game(gid)
    assert stored.version == 1
    assert stored.game.rounds == []
    with engine.connect() as conn:
        count = conn.execute(
            select(func.count()).select_from(RoundRow).where(RoundRow.game_id == gid)
        ).scalar_one()
    assert count == 0
    assert changes == [(gid, 1)]  # only the creation was announced


def test_t3_implausible_round_saved_only_when_confirmed(
    service: TafelService, created: CreatedGame
) -> None:
    gid, token = created.stored.id, created.edit_token
    service.open_round(gid, token, {"Anna": 0, "Ben": 3, "Cleo": 5})
    with pytest.raises(ImplausibleRoundError):
        service.complete_round(gid, token, 1, {"Anna": 12, "Ben": 2, "Cleo": 5})
    result = service.complete_round(gid, token, 1, {"Anna": 12, "Ben": 2, "Cleo": 5}, confirm=True)
    assert result.round is not None and result.round.confirmed
    assert service.get_game(gid).game.rounds[0].confirmed


def test_t6_write_with_old_version_is_a_conflict(
    service: TafelService, created: CreatedGame
) -> None:
    gid, token = created.stored.id, created.edit_token
    service.open_round(gid, token, {"Anna": 0, "Ben": 3, "Cleo": 5}, expected_version=1)
    with pytest.raises(VersionConflictError) as caught:
        service.complete_round(
            gid, token, 1, {"Anna": 12, "Ben": 14, "Cleo": 5}, expected_version=1
        )
    assert (caught.value.expected, caught.value.current) == (1, 2)
    assert service.get_game(gid).game.pending_round is not None


def test_writes_need_the_edit_token(service: TafelService, created: CreatedGame) -> None:
    gid = created.stored.id
    for token in (None, "", "wrong", created.edit_token + "x"):
        with pytest.raises(ForbiddenError):
            service.open_round(gid, token, {"Anna": 0, "Ben": 3, "Cleo": 5})
    assert service.get_game(gid).version == 1


def test_unknown_game_is_not_found(service: TafelService) -> None:
    for gid in ("nope", "", "x" * 500):
        with pytest.raises(GameNotFoundError):
            service.get_game(gid)
        with pytest.raises(GameNotFoundError):
            service.open_round(gid, "t", [0, 1])
    with pytest.raises(GameNotFoundError):
        service.history("nope")


def test_t6_correction_remove_finish_score_and_history(
    service: TafelService, created: CreatedGame
) -> None:
    gid, token = created.stored.id, created.edit_token
    service.open_round(gid, token, [0, 3, 5])
    service.put_round(gid, token, 1, middle=[12, 14, 5])
    service.put_round(gid, token, 1, stacks=[3, 0, 5], middle=[14, 12, 5])
    service.open_round(gid, token, [0, 3, 5])
    with pytest.raises(RoundOrderError) as caught:
        service.finish(gid, token)
    assert caught.value.code is Code.ROUND_PENDING
    service.remove_last_round(gid, token, 2)
    finished = service.finish(gid, token)
    assert finished.stored.game.winners == ("Ben",)
    scored = service.score(gid, token)
    assert scored.stored.game.scored
    same = service.score(gid, token)  # Werten twice changes nothing
    assert same.stored.version == scored.stored.version
    history = service.history(gid)
    assert [h.action for h in history] == [
        "create",
        "open_round",
        "complete_round",
        "correct_round",
        "open_round",
        "remove_round",
        "finish",
        "score",
    ]
    assert [h.version for h in history] == list(range(1, 9))
    assert history[3].detail["before"]["stacks"] == {"Anna": 0, "Ben": 3, "Cleo": 5}
    assert history[3].detail["after"]["middle"] == {"Anna": 14, "Ben": 12, "Cleo": 5}
    assert history[-1].detail == {"winners": ["Ben"]}


def test_t6_export_reimports_as_a_new_game(service: TafelService, created: CreatedGame) -> None:
    gid, token = created.stored.id, created.edit_token
    service.open_round(gid, token, [0, 3, 5])
    service.complete_round(gid, token, 1, [12, 14, 5])
    service.open_round(gid, token, [2, 0, 5])
    exported = service.export_json(gid)
    assert exported["format"] == "ligretto-tafel"
    assert "token" not in str(exported)
    imported = service.import_game(exported)
    assert imported.stored.id != gid
    again = service.get_game(imported.stored.id)
    original = service.get_game(gid)
    assert again.game.rounds == original.game.rounds
    assert again.game.totals == (12, 8, -5)
    # Only what the domain made of the export, never a value sent with it.
    assert service.history(imported.stored.id)[0].detail == {
        "players": ["Anna", "Ben", "Cleo"],
        "rounds": 2,
    }


def test_t6_csv_export_has_one_line_per_round(service: TafelService) -> None:
    made = service.create_game(["=Anna", "Ben"])
    gid, token = made.stored.id, made.edit_token
    service.open_round(gid, token, [0, 3])
    service.complete_round(gid, token, 1, [12, 14])
    lines = service.export_csv(gid).splitlines()
    assert lines[0].startswith("round,caller,'=Anna stack,'=Anna middle")
    assert lines[1] == "1,'=Anna,0,12,12,12,3,14,8,8"


def test_concurrent_round_openings_save_exactly_one(service: TafelService) -> None:
    made = service.create_game(["Anna", "Ben"])
    gid, token = made.stored.id, made.edit_token
    outcomes: list[str] = []
    lock = threading.Lock()

    def enter() -> None:
        try:
            service.open_round(gid, token, [0, 3])
            result = "saved"
        except RoundOrderError as error:
            result = error.code
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=enter) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["round_pending"] * 3 + ["saved"]
    assert len(service.get_game(gid).game.rounds) == 1


def test_t6_writes_see_changes_made_by_another_process(engine: Engine) -> None:
    # Two services on one database stand for two server processes: each keeps
    # the last written game in memory, which must never hide the other's write.
    first, second = TafelService(engine), TafelService(engine)
    made = first.create_game(["Anna", "Ben"])
    gid, token = made.stored.id, made.edit_token
    first.open_round(gid, token, [0, 3])
    first.complete_round(gid, token, 1, [12, 14])
    second.correct_round(gid, token, 1, middle=[20, 14])
    second.open_round(gid, token, [3, 0])
    result = first.complete_round(gid, token, 2, [10, 20])
    assert result.stored.version == 6
    assert result.stored.game.totals == (20 + 4, 8 + 20)
    assert first.get_game(gid).game.totals == (24, 28)
    second.open_round(gid, token, [0, 5])  # first's memory is now one version behind
    assert first.get_game(gid).game.pending_round is not None
    assert first.get_game(gid).version == 7


def test_returned_game_is_the_callers_own(service: TafelService) -> None:
    made = service.create_game(["Anna", "Ben"])
    gid, token = made.stored.id, made.edit_token
    result = service.open_round(gid, token, [0, 3])
    result.stored.game.rounds.clear()  # whatever a caller does with its copy …
    done = service.complete_round(gid, token, 1, [12, 14])
    assert done.stored.game.totals == (12, 8)  # … the next write is unaffected
