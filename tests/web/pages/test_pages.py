"""The Tafel pages without JavaScript: plain form posts (T1–T6).

Every flow a phone without scripts can do: create a game, enter a round
stacks first (T2) then the middle (T3), see refusals in the page, correct
and remove rounds, Beenden/Werten (T5), and the watch page without any
edit token.
"""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from helpers.tafel_forms import create, game_id, middle, stacks, token, totals, version
from ligretto.tafel import Game


def test_start_page_offers_the_form_in_the_browser_language(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert page.status_code == 200
    assert '<html lang="de"' in page.text
    assert "Spiel anlegen" in page.text
    assert 'name="player"' in page.text
    assert "online-block" in page.text  # the place kept for online play


def test_t1_create_a_game_without_javascript_and_land_on_the_edit_page(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben", "  ", "Cleo"], mode="target", target="99")
    page = client.get(edit)
    assert page.status_code == 200
    for name in ("Anna", "Ben", "Cleo"):
        assert name in page.text
    assert "Target: 99 points" in page.text
    assert 'action="' + edit + '/stacks"' in page.text


def test_t1_name_rows_are_added_removed_and_moved_by_posting_the_form(client: TestClient) -> None:
    base = {"player": ["Anna", "Ben"], "mode": "target", "target": "99"}
    added = client.post("/", data={**base, "action": "add"})
    assert added.status_code == 200
    assert added.text.count('name="player"') == 3
    moved = client.post("/", data={"player": ["Anna", "Ben", "Cleo"], "action": "up-2"})
    names = re.findall(r'name="player" value="([^"]*)"', moved.text)
    assert names == ["Anna", "Cleo", "Ben"]
    removed = client.post("/", data={"player": ["Anna", "Ben", "Cleo"], "action": "remove-0"})
    assert re.findall(r'name="player" value="([^"]*)"', removed.text) == ["Ben", "Cleo"]


def test_t1_refused_games_say_why_and_keep_the_names(client: TestClient) -> None:
    one = client.post("/", data={"player": ["Anna", ""], "action": "create"})
    assert one.status_code == 422
    assert "A game needs at least 2 players." in one.text
    assert 'value="Anna"' in one.text
    twice = client.post("/", data={"player": ["Anna", "anna"], "action": "create"})
    assert "appears twice" in twice.text
    alike = client.post("/", data={"player": ["Anna", "\u0410nna"], "action": "create"})
    assert alike.status_code == 422 and "appears twice" in alike.text  # Cyrillic A
    hidden = client.post("/", data={"player": ["Anna", "Anna\ufe00"], "action": "create"})
    assert "A name cannot hold invisible or control characters" in hidden.text
    many = client.post("/", data={"player": [f"P{i}" for i in range(13)], "action": "create"})
    assert "At most 12 players. Up to 16 play with ordinary playing cards." in many.text
    sixteen = [f"P{i}" for i in range(16)]
    assert create(client, sixteen, deck="cards")
    tab = client.post("/", data={"player": ["An\tna", "Ben"], "action": "create"})
    assert tab.status_code == 422
    assert "A name cannot hold invisible or control characters" in tab.text
    bad_target = client.post(
        "/", data={"player": ["A", "B"], "target": "other", "target_other": "x", "action": "create"}
    )
    assert bad_target.status_code == 422 and "whole number" in bad_target.text
    assert "Traceback" not in bad_target.text


def test_numbers_in_other_scripts_are_refused_not_a_server_error(client: TestClient) -> None:
    # "²" is a digit to str.isdigit() but not to int(); a huge number is not either.
    odd = ["\u00b2", "9" * 5000]
    for text in odd:
        for fields in (
            {"target": "other", "target_other": text},
            {"mode": "rounds", "rounds": text},
        ):
            page = client.post("/", data={"player": ["A", "B"], "action": "create", **fields})
            assert page.status_code == 422, (text, fields)
            assert "whole number" in page.text
        moved = client.post("/", data={"player": ["A", "B"], "action": "up-" + text})
        assert moved.status_code == 200
    edit = create(client, ["Anna", "Ben"])
    for text in odd:
        page = client.post(f"{edit}/stacks", data={"stack-0": text, "stack-1": "3"})
        assert page.status_code == 422, text
        assert "whole number" in page.text or "holds 0 to 10" in page.text, text
        assert client.get(f"{edit}?saved={text}").status_code == 200
    for text in odd:  # an odd "stop" seat or version is ignored
        edit = create(client, ["Anna", "Ben"])
        page = client.post(
            f"{edit}/stacks", data={"stack-0": "1", "stack-1": "3", "stop": text, "version": text}
        )
        assert page.status_code == 303, text


def test_t2_t3_stacks_first_then_the_middle_gives_the_points(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben", "Cleo"])
    saved = stacks(client, edit, {1: "3", 2: "5"}, stop=0)  # Anna called: her stack is 0
    assert saved.status_code == 303
    pending = client.get(edit).text
    assert "Round 1: waiting for the middle" in pending
    assert 'action="' + edit + '/middle"' in pending
    done = middle(client, edit, 1, {0: "20", 1: "14", 2: "8"})
    assert done.status_code == 303
    assert "saved=1" in done.headers["location"]
    # R5: 20 − 0, 14 − 6 = 8 (the rules' example), 8 − 10 = −2
    assert totals(client, edit) == ["20", "8", "\u22122"]
    assert "Round 1 saved." in client.get(done.headers["location"]).text


SCRIPT = {"X-Requested-With": "ligretto-entry"}


def test_the_pages_script_gets_where_to_go_instead_of_a_redirect(client: TestClient) -> None:
    """A save sent by the page's script is answered 204 with the board's
    address: a 303 would make fetch draw the whole board once for nothing."""
    edit = create(client, ["Anna", "Ben", "Cleo"])
    page = client.get(edit).text
    data = {"version": version(page), "stop": "0", "stack-1": "3", "stack-2": "5"}
    answer = client.post(f"{edit}/stacks", data=data, headers=SCRIPT)
    assert answer.status_code == 204 and answer.content == b""
    where = answer.headers["x-entry-location"]
    assert re.fullmatch(rf"{edit}\?opened=1&undo=\d+#entry-title", where), where
    assert answer.headers["set-cookie"].startswith(f"tafel_edit_{game_id(edit)}=")  # as a 303
    assert "Round 1: waiting for the middle" in client.get(where.split("#")[0]).text
    # The same save without the script's name: the plain form's redirect.
    data = {"version": version(client.get(edit).text), "round": "1"}
    data |= {"middle-0": "20", "middle-1": "14", "middle-2": "8"}
    plain = client.post(f"{edit}/middle", data=data)
    assert plain.status_code == 303 and "x-entry-location" not in plain.headers
    # A refusal is the page that says why, for the script as for the form.
    refused = client.post(
        f"{edit}/stacks",
        data={"version": version(client.get(edit).text), "stack-0": "0", "stack-1": "0"},
        headers=SCRIPT,
    )
    assert refused.status_code == 422 and "x-entry-location" not in refused.headers
    assert totals(client, edit) == ["20", "8", "\u22122"]  # nothing else was saved


def test_t2_two_empty_stacks_are_refused_in_the_page(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben", "Cleo"])
    refused = stacks(client, edit, {0: "0", 1: "0", 2: "4"})
    assert refused.status_code == 422
    assert "Two empty stacks (Anna &amp; Ben): only one player can call Ligretto Stop." in (
        refused.text
    )
    assert 'value="4"' in refused.text  # what was typed stays
    assert "No rounds yet." in client.get(edit).text  # and nothing was saved


def refusals(page: str) -> str:
    """The page's "Not saved" box (the fields also carry their messages for the script)."""
    start = page.index('id="entry-errors"')
    return page[start : page.index("</div>", start)]


def test_t2_missing_and_out_of_range_numbers_are_named(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    missing = stacks(client, edit, {0: "0", 1: ""})
    assert "Ben: enter the cards left in the Ligretto stack (0 to 10)." in refusals(missing.text)
    assert 'aria-invalid="true"' in missing.text
    too_big = stacks(client, edit, {0: "0", 1: "11"})
    assert "Ben: a Ligretto stack holds 0 to 10 cards." in refusals(too_big.text)
    word = stacks(client, edit, {0: "0", 1: "three"})
    assert "Ben: enter a whole number." in refusals(word.text)
    # A minus sign makes a number out of range, not "not a whole number" (T2).
    for typed in ("-1", "\u22121"):
        negative = refusals(stacks(client, edit, {0: "0", 1: typed}).text)
        assert "Ben: a Ligretto stack holds 0 to 10 cards." in negative
        assert "whole number" not in negative


def test_t3_a_negative_middle_count_names_the_range(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {1: "2"}, stop=0)
    negative = refusals(middle(client, edit, 1, {0: "12", 1: "-3"}).text)
    assert "Ben: the middle can hold 0 to 38 of their cards." in negative


def test_t2_every_field_carries_its_own_messages_for_the_script(client: TestClient) -> None:
    page = client.get(create(client, ["Anna", "Ben"])).text
    assert 'data-range-error="Ben: a Ligretto stack holds 0 to 10 cards."' in page
    assert 'data-whole-error="Ben: enter a whole number."' in page
    assert 'aria-describedby="stack-1-error"' in page and 'id="stack-1-error"' in page
    assert (
        'data-two-callers="Two empty stacks ({names}): only one player can call Ligretto Stop."'
        in page
    )


def test_t3_an_implausible_round_needs_the_confirm_button(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {1: "2"}, stop=0)
    asked = middle(client, edit, 1, {0: "12", 1: "3"})  # Ben: 8 left the stack, 3 in the middle
    assert asked.status_code == 422
    assert "Ben: 3 in the middle, but 8 cards left the Ligretto stack." in asked.text
    assert 'name="confirm" value="1"' in asked.text
    # Enter in a field presses the form's first button: it must not be "Save anyway".
    form = asked.text[asked.text.index('data-entry="middle"') :]
    assert (
        'name="confirm"'
        not in form[: form.index("<button")] + form[form.index("<button") : form.index("</button>")]
    )
    confirmed = middle(client, edit, 1, {0: "12", 1: "3"}, confirm="1")
    assert confirmed.status_code == 303
    assert totals(client, edit) == ["12", "\u22121"]


def test_t6_a_stale_form_gets_a_conflict_message_and_changes_nothing(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    old = version(client.get(edit).text)
    stacks(client, edit, {1: "2"}, stop=0)  # another phone saves first
    late = client.post(
        f"{edit}/middle", data={"version": old, "round": "1", "middle-0": "10", "middle-1": "9"}
    )
    assert late.status_code == 409
    assert "Another phone saved first." in late.text
    assert "Round 1: waiting for the middle" in late.text


def test_t6_correct_a_round_and_remove_the_last_one(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {1: "2"}, stop=0)
    middle(client, edit, 1, {0: "12", 1: "9"})
    form = client.get(f"{edit}/rounds/1")
    assert form.status_code == 200 and 'name="middle-1" value="9"' in form.text
    corrected = client.post(
        f"{edit}/rounds/1",
        data={
            "version": version(form.text),
            "stop": "0",
            "stack-0": "0",
            "stack-1": "4",
            "middle-0": "12",
            "middle-1": "9",
        },
    )
    assert corrected.status_code == 303
    assert totals(client, edit) == ["12", "1"]  # 9 − 2 × 4
    page = client.get(f"{edit}/rounds/1").text
    removed = client.post(f"{edit}/rounds/1/remove", data={"version": version(page)})
    assert removed.status_code == 303
    assert "No rounds yet." in client.get(edit).text
    history = client.get(f"{edit}/history").text
    for line in (
        "Game created",
        "Round 1: stacks entered",
        "Round 1: middle entered",
        "Round 1 corrected",
        "Stacks: Ben 2 → 4",
        "Round 1 removed",
    ):
        assert line in history


def test_t6_a_correction_to_the_same_counts_offers_no_undo(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {1: "2"}, stop=0)
    middle(client, edit, 1, {0: "12", 1: "9"})
    form = client.get(f"{edit}/rounds/1")
    same = client.post(
        f"{edit}/rounds/1",
        data={
            "version": version(form.text),
            "stop": "0",
            "stack-0": "0",
            "stack-1": "2",
            "middle-0": "12",
            "middle-1": "9",
        },
    )
    assert same.status_code == 303
    assert "undo=" not in same.headers["location"]
    assert "corrected=" not in same.headers["location"]
    assert "Round 1 corrected" not in client.get(f"{edit}/history").text


def test_t5_rounds_game_finish_then_score_shows_the_shared_victory(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben", "Cleo"], mode="rounds", rounds="1")
    stacks(client, edit, {0: "3", 2: "5"}, stop=1)
    middle(client, edit, 1, {0: "16", 1: "10", 2: "5"})  # 16 − 6 = 10, 10, 5 − 10
    before = client.get(edit).text
    assert "The agreed round is played." in before
    # The victory waits for "Werten" (the script's own texts aside).
    assert "wins" not in before.split('id="offline-texts"')[0]
    client.post(f"{edit}/finish", data={"version": version(before)})
    closed = client.get(edit).text
    assert "The game is finished." in closed and ">Score<" in closed
    scored = client.post(f"{edit}/score", data={"version": version(closed)})
    assert scored.status_code == 303
    final = client.get(edit, params={"lang": "de"}).text
    assert "Geteilter Sieg: Anna &amp; Ben mit je 10 Punkten!" in final
    assert "Schlusswertung" in final


def test_t4_tie_at_the_target_is_announced(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"], target="other", target_other="10")
    stacks(client, edit, {1: "1"}, stop=0)
    middle(client, edit, 1, {0: "12", 1: "14"})  # 12 and 14 − 2 = 12: tied over 10
    page = client.get(edit).text
    assert "Tie at the top: Anna &amp; Ben." in page
    assert "play on until one alone is ahead" in page


def test_the_watch_page_has_no_token_and_no_forms(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {1: "1"}, stop=0)
    watch = client.get(f"/g/{game_id(edit)}")
    assert watch.status_code == 200
    assert token(edit) not in watch.text
    assert "<form" not in watch.text
    assert 'class="qr"' in watch.text and "<svg" in watch.text
    fragment = client.get(f"/g/{game_id(edit)}/board")
    assert fragment.status_code == 200
    assert token(edit) not in fragment.text and token(edit) not in str(fragment.headers)
    assert fragment.headers["X-Game-Version"] == "2"


def test_a_board_the_page_shows_already_is_not_drawn_again(client: TestClient) -> None:
    """The fragments answer 304 to the version and language the page shows
    (If-None-Match); the edit page's still checks the token first."""
    edit = create(client, ["Anna", "Ben"])
    gid, secret = game_id(edit), token(edit)
    client.cookies.clear()
    edit_board = {"X-Edit-Token": secret}
    drawn = client.get(f"{edit}/board", headers=edit_board)
    assert drawn.status_code == 200 and drawn.headers["etag"] == '"1-en"'
    same = client.get(f"{edit}/board", headers={**edit_board, "If-None-Match": '"1-en"'})
    assert same.status_code == 304 and same.content == b""
    assert same.headers["X-Game-Version"] == "1"
    wrong = client.get(f"{edit}/board", headers={"X-Edit-Token": "x", "If-None-Match": '"1-en"'})
    assert wrong.status_code == 404
    # Another language or an older version: the board is drawn.
    german = {**edit_board, "If-None-Match": '"1-de"', "Accept-Language": "de"}
    assert client.get(f"{edit}/board", headers=german).headers["etag"] == '"1-de"'
    assert client.get(f"/g/{gid}/board", headers={"If-None-Match": '"1-en"'}).status_code == 304
    opened = client.post(
        f"{edit}/stacks", data={"version": "1", "token": secret, "stop": "0", "stack-1": "1"}
    )
    assert opened.status_code == 303
    newer = client.get(f"/g/{gid}/board", headers={"If-None-Match": '"0-en", "1-en"'})
    assert newer.status_code == 200 and newer.headers["etag"] == '"2-en"'
    assert "Round 1: waiting for the middle" in newer.text


def test_t6_watchers_read_the_history_without_token_or_edit_controls(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {1: "2"}, stop=0)
    middle(client, edit, 1, {0: "12", 1: "9"})
    watch = f"/g/{game_id(edit)}"
    assert f'href="{watch}/history"' in client.get(watch).text  # linked from the watch page
    page = client.get(f"{watch}/history")
    assert page.status_code == 200
    for line in ("Game created", "Round 1: stacks entered", "Round 1: middle entered"):
        assert line in page.text
    assert token(edit) not in page.text and token(edit) not in str(page.headers)
    assert "/edit/" not in page.text and "<form" not in page.text
    assert f'href="{watch}"' in page.text  # back to the watch board, not the edit link
    assert client.get("/g/no-such-game/history").status_code == 404


def test_wrong_links_get_a_page_not_an_error(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    wrong = client.get(f"/g/{game_id(edit)}/edit/not-the-token")
    assert wrong.status_code == 403
    assert "This edit link is not valid" in wrong.text
    assert token(edit) not in wrong.text
    client.cookies.clear()
    post = client.post(f"{edit}/stacks", data={"stack-0": "0", "token": "not-the-token"})
    assert post.status_code == 403
    assert "This edit link is not valid" in post.text
    without = client.post(f"{edit}/stacks", data={"stack-0": "0"})
    assert without.status_code == 403
    missing = client.get("/g/nope")
    assert missing.status_code == 404 and "Game not found" in missing.text


def test_language_switch_by_query_sticks_in_a_cookie(client: TestClient) -> None:
    page = client.get("/?lang=nb")
    assert '<html lang="nb"' in page.text and "Opprett spill" in page.text
    assert "lang=nb" in page.headers["set-cookie"]
    again = client.get("/")
    assert '<html lang="nb"' in again.text


def test_sixteen_players_get_the_compact_transposed_board(client: TestClient) -> None:
    edit = create(client, [f"Player {i}" for i in range(16)], deck="cards")
    values = {seat: "2" for seat in range(1, 16)}
    stacks(client, edit, values, stop=0)
    page = client.get(edit).text
    assert "with ordinary playing cards" in page
    assert "players compact" in page
    assert "rounds transposed" in page


def test_the_board_matches_the_domain(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben", "Cleo"])
    rounds = [
        ({1: "3", 2: "5"}, 0, {0: "20", 1: "14", 2: "8"}),
        ({0: "4", 2: "2"}, 1, {0: "7", 1: "18", 2: "11"}),
    ]
    game = Game(["Anna", "Ben", "Cleo"])
    for number, (stack_values, caller, middle_values) in enumerate(rounds, start=1):
        stacks(client, edit, stack_values, stop=caller)
        middle(client, edit, number, middle_values)
        counts = [0 if seat == caller else int(stack_values[seat]) for seat in range(3)]
        game.open_round(counts)
        game.complete_round(number, [int(middle_values[s]) for s in range(3)])
    shown = [int(t.replace("\u2212", "-")) for t in totals(client, edit)]
    assert shown == list(game.totals)


def test_installable_manifest_icons_and_exports_are_served(client: TestClient) -> None:
    page = client.get("/").text
    manifest_url = re.search(r'<link rel="manifest" href="([^"]+)"', page)
    assert manifest_url
    manifest = client.get(manifest_url.group(1))
    assert manifest.status_code == 200
    data = manifest.json()
    assert data["start_url"] == "/" and data["display"] == "standalone"
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon["src"]
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {1: "2"}, stop=0)
    board = client.get(f"/g/{game_id(edit)}").text
    for link in re.findall(r'href="(/api/games/[^"]+/export\.(?:csv|json))"', board):
        exported = client.get(link)
        assert exported.status_code == 200
        assert token(edit) not in exported.text


def test_an_entry_for_a_finished_game_is_refused_with_a_message(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"], mode="rounds", rounds="1")
    stacks(client, edit, {1: "2"}, stop=0)
    middle(client, edit, 1, {0: "10", 1: "9"})
    # A form without a version (an old page) for a round that cannot exist.
    late = client.post(f"{edit}/stacks", data={"stop": "0", "stack-1": "3"})
    assert late.status_code == 422
    assert "All agreed rounds are played: no more rounds." in late.text


def test_the_edit_token_never_travels_in_an_address(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    secret = token(edit)
    stacks(client, edit, {1: "2"}, stop=0)
    middle(client, edit, 1, {0: "12", 1: "9"})
    pages = [edit, f"{edit}/rounds/1", f"{edit}/history", f"/g/{game_id(edit)}"]
    for path in pages:
        page = client.get(path)
        assert page.status_code == 200, path
        links = re.findall(r'(?:href|action|src)="([^"]+)"', page.text)
        assert links and not [link for link in links if secret in link], path
    # Without the cookie (another phone), the token in the form's hidden
    # field is enough: forms work without JavaScript and without the path.
    client.cookies.clear()
    bare = client.get(edit).text
    assert secret not in bare
    assert "This phone does not have the edit link of this game." in bare
    data = {"version": version(bare), "token": secret, "stack-0": "3", "stop": "1"}
    saved = client.post(f"{edit}/stacks", data=data)
    assert saved.status_code == 303
    assert saved.headers["location"] == f"{edit}?opened=2&undo=4#entry-title"
    assert secret not in saved.headers["location"]
    # The save keeps the token on the phone (HttpOnly, this game's edit pages only).
    cookie = saved.headers["set-cookie"]
    assert f"Path={edit};" in cookie or cookie.endswith(f"Path={edit}")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    # The live board of the edit page takes the token in a header.
    client.cookies.clear()
    assert client.get(f"{edit}/board").status_code == 404
    board = client.get(f"{edit}/board", headers={"X-Edit-Token": secret})
    assert board.status_code == 200 and secret not in board.text
    assert client.get(f"{edit}/board", headers={"X-Edit-Token": "wrong"}).status_code == 404


def test_old_edit_links_move_the_token_out_of_the_address(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    secret = token(edit)
    client.cookies.clear()
    old = client.get(f"{edit}/{secret}?lang=de")
    assert old.status_code == 303
    assert old.headers["location"] == f"{edit}?lang=de#t={secret}"
    assert "HttpOnly" in old.headers["set-cookie"]
    page = client.get(f"{edit}?lang=de").text
    assert f'name="token" value="{secret}"' in page
    sub = client.get(f"{edit}/{secret}/history")
    assert sub.headers["location"] == f"{edit}/history#t={secret}"
    # A form of a page opened before the move is sent on with its body (307).
    client.cookies.clear()
    form = client.post(f"{edit}/{secret}/stacks", data={"stop": "0", "stack-1": "3"})
    assert form.status_code == 307 and form.headers["location"] == f"{edit}/stacks"
    assert client.get(f"{edit}/not-the-token").status_code == 403


def test_new_game_same_players_keeps_names_seating_and_rules(client: TestClient) -> None:
    edit = create(client, ["Cleo", "Anna", "Ben"], mode="rounds", rounds="3", deck="cards")
    page = client.get(edit).text
    form = page[page.index('<form method="post" action="/" class="new-same">') :]
    form = form[: form.index("</form>")]
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
    assert [v for k, v in fields if k == "player"] == ["Cleo", "Anna", "Ben"]
    assert (
        ("mode", "rounds") in fields and ("rounds", "3") in fields and ("deck", "cards") in fields
    )
    data: dict[str, str | list[str]] = {}
    for key, value in fields:
        if key == "player":
            data.setdefault("player", [])
            data["player"].append(value)  # type: ignore[union-attr]
        else:
            data[key] = value
    created = client.post("/", data=data)
    assert created.status_code == 303
    match = re.fullmatch(r"(/g/[\w-]+/edit)\?created=1#t=([\w-]+)", created.headers["location"])
    assert match and match.group(1) != edit and match.group(2) != token(edit)
    fresh = client.get(match.group(1)).text
    assert "with ordinary playing cards" in fresh and "3 of 3 rounds left" in fresh
    assert fresh.index("Cleo") < fresh.index("Anna") < fresh.index("Ben")


def test_the_csv_export_for_spreadsheets_with_decimal_commas(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {1: "2"}, stop=0)
    middle(client, edit, 1, {0: "12", 1: "9"})
    page = client.get(f"{edit}?lang=de").text
    assert "CSV mit Semikolons und Dezimalkomma (;)" in page
    link = re.search(r'href="(/api/games/[^"]+/export\.csv\?style=regional&amp;lang=de)"', page)
    assert link
    german = client.get(link.group(1).replace("&amp;", "&"))
    assert german.status_code == 200
    assert "-de.csv" in german.headers["content-disposition"]
    lines = german.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Runde;Ligretto Stop gerufen von;Anna Stapel;Anna Mitte;")
    assert lines[1] == "1;Anna;0;12;12;12;2;9;5;5"
    plain = client.get(link.group(1).split("?")[0]).content.decode("utf-8-sig")
    assert plain.splitlines()[0].startswith("round,caller,Anna stack,")
    assert plain.splitlines()[1] == "1,Anna,0,12,12,12,2,9,5,5"
    # The old address keeps working, in German.
    old = client.get(link.group(1).split("?")[0] + "?style=de").content.decode("utf-8-sig")
    assert old.splitlines()[0].startswith("Runde;")


# --- Undo (T6): a short-lived Undo after a save or removal, without JavaScript ---
UNDO_FORM = re.compile(r'<form method="post" action="(/g/[\w-]+/edit/undo)"[^>]*data-undo')


def undo_version(html: str) -> str:
    match = re.search(r'data-undo[^>]*>\s*<input type="hidden" name="version" value="(\d+)"', html)
    assert match, "the page offers no Undo"
    return match.group(1)


def test_t6_undo_after_a_saved_middle_brings_back_the_middle_step(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    assert stacks(client, edit, {1: "3"}, stop=0).status_code == 303
    done = middle(client, edit, 1, {0: "20", 1: "14"})
    assert done.status_code == 303
    board = client.get(done.headers["location"]).text
    assert UNDO_FORM.search(board)
    assert "Round 1 saved." in board
    assert totals(client, edit) == ["20", "8"]
    undone = client.post(f"{edit}/undo", data={"version": undo_version(board)})
    assert undone.status_code == 303
    assert undone.headers["location"] == f"{edit}?undone=1#status"
    after = client.get(undone.headers["location"]).text
    assert "Round 1: last change undone." in after
    assert not UNDO_FORM.search(after)  # no Undo of the Undo
    assert "Round 1: waiting for the middle" in after
    assert totals(client, edit) == ["0", "0"]


def test_t6_undo_is_offered_only_for_the_change_the_notice_tells_of(
    client: TestClient,
) -> None:
    # The offline board's address after a correction the server found no change
    # in: the version is the saved middle's, which the notice does not tell of.
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {1: "3"}, stop=0)
    done = middle(client, edit, 1, {0: "20", 1: "14"})
    saved_version = re.search(r"undo=(\d+)", done.headers["location"])
    assert saved_version
    v = saved_version.group(1)
    assert UNDO_FORM.search(client.get(f"{edit}?saved=1&undo={v}").text)
    for notice in ("corrected=1", "opened=1", "saved=2", "removed=1"):
        board = client.get(f"{edit}?{notice}&undo={v}").text
        assert not UNDO_FORM.search(board), notice


def field_value(html: str, name: str) -> str | None:
    """The value an entry field is drawn with (its ``value=""``), or None without the field."""
    match = re.search(rf'<input[^>]*\bid="{name}"[^>]*>', html)
    if not match:
        return None
    value = re.search(r'\bvalue="([^"]*)"', match.group(0))
    return value.group(1) if value else ""


def test_t6_undo_of_a_middle_gives_back_the_numbers_that_were_saved(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {1: "3"}, stop=0)
    board = client.get(middle(client, edit, 1, {0: "20", 1: "14"}).headers["location"]).text
    undone = client.post(f"{edit}/undo", data={"version": undo_version(board)})
    after = client.get(undone.headers["location"]).text
    assert "Round 1: waiting for the middle" in after
    # The middle step is back with what had been typed: one slip, one number to change.
    assert field_value(after, "middle-0") == "20"
    assert field_value(after, "middle-1") == "14"
    # Only right after the Undo: the board itself starts empty as always.
    plain = client.get(edit).text
    assert field_value(plain, "middle-0") == "" and field_value(plain, "middle-1") == ""


def test_t6_undo_of_stacks_gives_back_the_stacks_and_the_caller(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben", "Cleo"])
    saved = stacks(client, edit, {1: "3", 2: "7"}, stop=0)
    board = client.get(saved.headers["location"]).text
    undone = client.post(f"{edit}/undo", data={"version": undo_version(board)})
    after = client.get(undone.headers["location"]).text
    assert field_value(after, "stack-1") == "3" and field_value(after, "stack-2") == "7"
    assert re.search(r'<input type="checkbox" name="stop" value="0"[^>]*checked', after)
    # Once the game moved on, an old address of the Undo fills nothing in.
    stacks(client, edit, {0: "4", 2: "1"}, stop=1)
    later = client.get(undone.headers["location"]).text
    assert field_value(later, "middle-0") == ""


def test_t6_undo_after_a_removal_brings_the_round_back(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    stacks(client, edit, {1: "3"}, stop=0)
    middle(client, edit, 1, {0: "20", 1: "14"})
    page = client.get(f"{edit}/rounds/1").text
    removed = client.post(f"{edit}/rounds/1/remove", data={"version": version(page)})
    assert removed.status_code == 303
    board = client.get(removed.headers["location"]).text
    assert "Round 1 removed." in board and totals(client, edit) == ["0", "0"]
    undone = client.post(f"{edit}/undo", data={"version": undo_version(board)})
    assert undone.status_code == 303
    assert totals(client, edit) == ["20", "8"]


def test_t6_undo_twice_or_after_another_phone_changes_nothing(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    saved = stacks(client, edit, {1: "3"}, stop=0)
    board = client.get(saved.headers["location"]).text
    mine = undo_version(board)
    # Another phone completes the round meanwhile.
    assert middle(client, edit, 1, {0: "20", 1: "14"}).status_code == 303
    refused = client.post(f"{edit}/undo", data={"version": mine})
    assert refused.status_code == 409
    assert "Not undone: another phone changed this game meanwhile." in refused.text
    assert totals(client, edit) == ["20", "8"]
    # The stale board no longer offers it either.
    assert not UNDO_FORM.search(client.get(saved.headers["location"]).text)
    # Undo of that other phone's save, then once more: the second is refused.
    latest = client.get(edit).text
    first = client.post(f"{edit}/undo", data={"version": version(latest)})
    assert first.status_code == 303
    again = client.post(f"{edit}/undo", data={"version": version(client.get(edit).text)})
    assert again.status_code == 422
    assert "Nothing to undo" in again.text
    assert "Round 1: waiting for the middle" in client.get(edit).text


def test_t6_undo_with_a_wrong_token_is_refused(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    saved = stacks(client, edit, {1: "3"}, stop=0)
    board = client.get(saved.headers["location"]).text
    secret = token(edit)
    client.cookies.clear()
    wrong = client.post(f"{edit}/undo", data={"version": undo_version(board), "token": "x" * 40})
    assert wrong.status_code == 403
    assert secret not in wrong.text
    page = client.get(edit, headers={"X-Edit-Token": secret}).text
    assert "Round 1: waiting for the middle" in page
