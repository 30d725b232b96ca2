"""Registering players: one by one, CSV, check-in, drop, late entry, fixed tables."""

from __future__ import annotations

import html
import io

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event, GameTable, Player, Round, Seat
from organizer.players import service
from tests.fixtures.organizer import HX, error_beside


def on_the_list(event: Event, search: str = "") -> dict[str, str]:
    """The headers of an htmx request made from the players list (searching for ``search``)."""
    return {**HX, "HX-Current-URL": f"http://localhost/events/{event.id}/players" + (f"?q={search}" if search else "")}


def players_of(session: Session, event: Event) -> list[Player]:
    session.expire_all()
    return list(session.exec(select(Player).where(Player.event_id == event.id).order_by(Player.id)).all())


def add(client: FlaskClient, event: Event, name: str, club: str = "", email: str = "", htmx: bool = False):  # type: ignore[no-untyped-def]
    return client.post(f"/events/{event.id}/players", data={"name": name, "club": club, "email": email},
                       headers=HX if htmx else {})


def test_add_players_one_by_one(signed_in: FlaskClient, session: Session, event: Event) -> None:
    assert add(signed_in, event, "Ann Lee", "Riverside", "ann@example.org").status_code == 302
    response = add(signed_in, event, "Bo Chen", htmx=True)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="players-panel">')
    assert "Bo Chen added." in response.text and "Ann Lee" in response.text
    assert 'name="name" type="text" value=""' in response.text  # the form is ready for the next name
    players = players_of(session, event)
    assert [(p.name, p.club, p.email, p.joined_round) for p in players] == [
        ("Ann Lee", "Riverside", "ann@example.org", 1), ("Bo Chen", "", "", 1)]
    page = signed_in.get(f"/events/{event.id}/players").text
    assert "2 registered, 0 checked in" in page


def test_duplicate_names_are_refused(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add(signed_in, event, "Ann Lee")
    response = add(signed_in, event, "  ann   LEE ", "Other club", htmx=True)
    assert response.status_code == 422
    assert "Ann Lee is already registered" in error_beside(response.text, "name")
    assert 'value="Other club"' in response.text
    assert len(players_of(session, event)) == 1


def test_bad_player_fields(signed_in: FlaskClient, session: Session, event: Event) -> None:
    response = add(signed_in, event, "", email="not-an-address")
    assert response.status_code == 422
    assert "Enter the player's name" in error_beside(response.text, "name")
    assert "is not an e-mail address" in error_beside(response.text, "email")
    assert players_of(session, event) == []


def test_paste_csv_with_header_any_column_order(signed_in: FlaskClient, session: Session, event: Event) -> None:
    text = "Name;E-mail;Club\nAnn Lee;ann@example.org;Riverside\n\n\"Chen, Bo\";;\nCy Dorn;;Hill Club\n"
    response = signed_in.post(f"/events/{event.id}/players/import", data={"csv_text": text})
    assert response.status_code == 302
    players = players_of(session, event)
    assert [(p.name, p.club, p.email) for p in players] == [
        ("Ann Lee", "Riverside", "ann@example.org"), ("Chen, Bo", "", ""), ("Cy Dorn", "Hill Club", "")]
    assert "3 players imported" in signed_in.get(f"/events/{event.id}/players").text


def test_upload_csv_file_without_header(signed_in: FlaskClient, session: Session, event: Event) -> None:
    data = {"csv_file": (io.BytesIO("\ufeffZoë Ward,North,zoe@example.org\nYan Li\n".encode("utf-8")), "players.csv")}
    response = signed_in.post(f"/events/{event.id}/players/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 302
    assert [p.name for p in players_of(session, event)] == ["Zoë Ward", "Yan Li"]


def test_windows_encoded_upload(signed_in: FlaskClient, session: Session, event: Event) -> None:
    data = {"csv_file": (io.BytesIO("José Ruiz,Café Club\n".encode("cp1252")), "players.csv")}
    signed_in.post(f"/events/{event.id}/players/import", data=data, content_type="multipart/form-data")
    assert [(p.name, p.club) for p in players_of(session, event)] == [("José Ruiz", "Café Club")]


def test_a_bad_csv_line_is_named_and_nothing_is_imported(signed_in: FlaskClient, session: Session, event: Event) -> None:
    text = "Ann Lee,Riverside\nBo Chen,Club,bad-email\nCy Dorn,a,b@c.de,extra\nann lee\n"
    response = signed_in.post(f"/events/{event.id}/players/import", data={"csv_text": text}, headers=HX)
    assert response.status_code == 422
    assert response.text.lstrip().startswith('<form id="player-import-form"')
    assert "Line 2:" in response.text and "bad-email" in response.text
    assert "Line 3: 4 columns" in response.text
    assert "Line 4: ann lee already appears on line 1" in response.text
    assert "Ann Lee,Riverside" in response.text  # the pasted text is still there
    assert players_of(session, event) == []


def test_csv_clashing_with_registered_players_imports_nothing(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add(signed_in, event, "Ann Lee")
    response = signed_in.post(f"/events/{event.id}/players/import", data={"csv_text": "Dee Fox\nANN LEE\n"})
    assert response.status_code == 422
    assert "Nothing imported. ANN LEE is already registered" in response.text
    assert [p.name for p in players_of(session, event)] == ["Ann Lee"]


def test_empty_import_and_unknown_header(signed_in: FlaskClient, event: Event) -> None:
    response = signed_in.post(f"/events/{event.id}/players/import", data={"csv_text": "  \n"})
    assert "No players found" in response.text
    response = signed_in.post(f"/events/{event.id}/players/import", data={"csv_text": "name,phone\nAnn,123\n"})
    assert "Line 1: unknown column “phone”" in html.unescape(response.text)


def test_check_in_toggle_is_an_htmx_fragment_and_idempotent(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add(signed_in, event, "Ann Lee")
    ann = players_of(session, event)[0]
    url = f"/events/{event.id}/players/{ann.id}/check-in"
    for _ in range(2):  # a double tap leaves the player checked in
        response = signed_in.post(url, data={"checked_in": "1"}, headers=HX)
        assert response.status_code == 200
        assert response.text.lstrip().startswith(f'<tr id="player-{ann.id}"')
        assert "✓ Checked in" in response.text and 'aria-pressed="true"' in response.text
    assert players_of(session, event)[0].checked_in is True
    signed_in.post(url, data={"checked_in": "0"})
    assert players_of(session, event)[0].checked_in is False


def test_drop_keeps_the_player_and_reinstate(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add(signed_in, event, "Ann Lee")
    ann = players_of(session, event)[0]
    assert event.id is not None and ann.id is not None
    session.add(Round(event_id=event.id, number=1, status="published"))
    session.commit()
    response = signed_in.post(f"/events/{event.id}/players/{ann.id}/drop", data={"dropped": "1"}, headers=HX)
    assert "Dropped after round 1" in response.text
    ann = players_of(session, event)[0]
    assert ann.dropped and ann.dropped_after_round == 1
    signed_in.post(f"/events/{event.id}/players/{ann.id}/drop", data={"dropped": "0"})
    ann = players_of(session, event)[0]
    assert not ann.dropped and ann.joined_round == 2


def test_late_entry_joins_the_next_round(signed_in: FlaskClient, session: Session, event: Event) -> None:
    assert event.id is not None
    session.add(Round(event_id=event.id, number=1, status="published"))
    session.commit()
    response = add(signed_in, event, "Late Larry", htmx=True)
    assert "Late entry: joins from round 2" in response.text
    assert players_of(session, event)[0].joined_round == 2
    assert "from round 2" in signed_in.get(f"/events/{event.id}/players").text


def test_fix_a_player_to_a_table(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add(signed_in, event, "Ann Lee")
    ann = players_of(session, event)[0]
    url = f"/events/{event.id}/players/{ann.id}/fixed-table"
    response = signed_in.post(url, data={"fixed_table": "3"}, headers=HX)
    assert response.status_code == 200 and 'value="3"' in response.text
    assert players_of(session, event)[0].fixed_table == 3
    response = signed_in.post(url, data={"fixed_table": "zero"}, headers=HX)
    assert response.status_code == 422
    assert "table number from 1 to 500" in response.text and 'value="zero"' in response.text
    assert players_of(session, event)[0].fixed_table == 3
    signed_in.post(url, data={"fixed_table": ""})
    assert players_of(session, event)[0].fixed_table is None


def test_remove_only_before_seated(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add(signed_in, event, "Ann Lee")
    add(signed_in, event, "Bo Chen")
    ann, bo = players_of(session, event)
    gone = signed_in.post(f"/events/{event.id}/players/{ann.id}/remove", headers=on_the_list(event)).text
    # the row is replaced by nothing; only the counts and "Check in all" come back, out of band
    assert gone.strip().startswith('<span id="player-counts"') and 'hx-swap-oob="true"' in gone
    assert "(1 registered, 0 checked in)" in gone and "Check in the last one (1)" in gone
    assert event.id is not None
    rnd = Round(event_id=event.id, number=1)
    session.add(rnd)
    session.flush()
    assert rnd.id is not None
    table = GameTable(round_id=rnd.id, number=1)
    session.add(table)
    session.flush()
    assert table.id is not None
    session.add(Seat(table_id=table.id, player_id=bo.id, position=0))
    session.commit()
    response = signed_in.post(f"/events/{event.id}/players/{bo.id}/remove", headers=HX)
    assert response.status_code == 422 and "drop them instead" in response.text
    assert [p.name for p in players_of(session, event)] == ["Bo Chen"]


def test_player_of_another_event_is_404(signed_in: FlaskClient, session: Session, event: Event) -> None:
    from tests.fixtures.organizer import create_event

    other = create_event(session, name="Other")
    add(signed_in, other, "Zed")
    zed = players_of(session, other)[0]
    assert signed_in.post(f"/events/{event.id}/players/{zed.id}/check-in", data={"checked_in": "1"}).status_code == 404


def test_csv_parser_directly() -> None:
    assert service.parse_player_csv("a\tb\tc@d.ef\n") == [service.PlayerInput("a", "b", "c@d.ef")]


def test_edit_a_player(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add(signed_in, event, "Ann Lee", "Riverside")
    add(signed_in, event, "Bo Chen")
    ann = players_of(session, event)[0]
    url = f"/events/{event.id}/players/{ann.id}/edit"
    form = signed_in.get(url, headers=HX)
    assert form.text.lstrip().startswith(f'<tr id="player-{ann.id}" class="editing">') and 'value="Riverside"' in form.text
    assert signed_in.get(url).text.lstrip().startswith("<!doctype html>")
    response = signed_in.post(url, data={"name": "bo chen", "club": "X", "email": ""}, headers=HX)
    assert response.status_code == 422 and "Bo Chen is already registered" in error_beside(response.text, "name")
    assert 'value="X"' in response.text
    response = signed_in.post(url, data={"name": "Ann Lee-Park", "club": "Riverside", "email": "ann@example.org"}, headers=HX)
    assert response.status_code == 200 and "Ann Lee-Park" in response.text and 'class="editing"' not in response.text
    ann = players_of(session, event)[0]
    assert (ann.name, ann.name_key, ann.email) == ("Ann Lee-Park", "ann lee-park", "ann@example.org")
    cancel = signed_in.get(f"/events/{event.id}/players/{ann.id}", headers=HX)
    assert cancel.text.lstrip().startswith(f'<tr id="player-{ann.id}"')


def _many(session: Session, event: Event, count: int) -> None:
    session.add_all([Player(event_id=event.id, name=f"Player {i:03d}", name_key=f"player {i:03d}", checked_in=i % 3 == 0)
                     for i in range(count)])
    session.commit()


def test_a_long_list_is_paged_and_says_how_many_there_are(signed_in: FlaskClient, session: Session, event: Event) -> None:
    _many(session, event, 120)
    page = signed_in.get(f"/events/{event.id}/players").text
    assert "120 registered, 40 checked in" in page
    assert "Players 1–100 of 120" in page
    assert "Player 000" in page and "Player 099" in page and "Player 100" not in page
    second = signed_in.get(f"/events/{event.id}/players?page=2").text
    assert "Players 101–120 of 120" in second
    assert "Player 100" in second and "Player 119" in second and "Player 099" not in second


def test_search_by_name_as_typed_gets_only_the_list(signed_in: FlaskClient, session: Session, event: Event) -> None:
    _many(session, event, 120)
    add(signed_in, event, "Ann  LEE")
    found = signed_in.get(f"/events/{event.id}/players?q=ann+lee", headers=HX)
    assert found.text.lstrip().startswith('<div id="player-list">')
    assert "Ann  LEE" in html.unescape(found.text) or "Ann LEE" in html.unescape(found.text)
    assert "Player 0" not in found.text
    assert "1 player named “ann lee”" in html.unescape(found.text)
    # a part of a name, in any case
    part = html.unescape(signed_in.get(f"/events/{event.id}/players?q=PLAYER+1").text)
    assert "Players named “PLAYER 1”: 1–20 of 20" in part  # Player 100 to 119
    assert "Player 119" in part and "Player 099" not in part
    assert "No players named “zz”." in html.unescape(signed_in.get(f"/events/{event.id}/players?q=zz").text)
    # wildcards are letters like any other
    assert "No players named “%”." in html.unescape(signed_in.get(f"/events/{event.id}/players?q=%25").text)


def test_check_in_from_a_search_result_changes_that_row_only(signed_in: FlaskClient, session: Session,
                                                            event: Event) -> None:
    _many(session, event, 3)
    target = players_of(session, event)[1]
    found = signed_in.get(f"/events/{event.id}/players?q=player+001", headers=HX).text
    assert f'/players/{target.id}/check-in' in found
    row = signed_in.post(f"/events/{event.id}/players/{target.id}/check-in", data={"checked_in": "1"}, headers=HX)
    assert row.text.lstrip().startswith(f'<tr id="player-{target.id}"') and "✓ Checked in" in row.text
    assert [p.checked_in for p in players_of(session, event)] == [True, True, False]


def test_a_check_in_tap_updates_the_counts_above_the_list(signed_in: FlaskClient, session: Session,
                                                         event: Event) -> None:
    add(signed_in, event, "Ann Lee")
    add(signed_in, event, "Bo Chen")
    ann = players_of(session, event)[0]
    url = f"/events/{event.id}/players/{ann.id}"
    row = signed_in.post(f"{url}/check-in", data={"checked_in": "1"}, headers=on_the_list(event)).text
    counts = row[row.index('<span id="player-counts"'):]
    assert 'hx-swap-oob="true"' in counts.split(">", 1)[0]
    assert "(2 registered, 1 checked in)" in counts
    bulk = row[row.index('<div id="bulk-check-in"'):]
    assert 'hx-swap-oob="true"' in bulk.split(">", 1)[0] and "Check in the last one (1)" in bulk
    dropped = signed_in.post(f"{url}/drop", data={"dropped": "1"}, headers=on_the_list(event)).text
    assert "(2 registered, 0 checked in, 1 dropped)" in dropped
    # with a search in the box, the bulk form is the search's
    row = signed_in.post(f"{url}/drop", data={"dropped": "0", "q": "bo"}, headers=on_the_list(event, "bo")).text
    assert "Check in this one (1)" in row and "Bo Chen" not in row  # Bo waits; Ann (reinstated) is checked in
    # from the stand-alone edit page there is no list to update
    saved = signed_in.post(f"{url}/edit", data={"name": "Ann Lee", "club": "", "email": ""},
                           headers={**HX, "HX-Current-URL": f"http://localhost{url}/edit"}).text
    assert "player-counts" not in saved and "bulk-check-in" not in saved


def test_one_compact_row_with_one_toggle_and_drop_behind_more(signed_in: FlaskClient, session: Session,
                                                             event: Event) -> None:
    add(signed_in, event, "Ann Lee", "Riverside")
    ann = players_of(session, event)[0]
    page = signed_in.get(f"/events/{event.id}/players").text
    row = page[page.index(f'<tr id="player-{ann.id}"'):]
    row = row[:row.index("</tr>")]
    cells = row.split("<td")[1:]
    assert len(cells) == 3  # name, the check-in toggle, "More"
    assert "Ann Lee" in cells[0] and "Riverside" in cells[0]
    assert cells[1].count("<button") == 1 and "Check in" in cells[1] and 'aria-pressed="false"' in cells[1]
    assert "/drop" not in cells[1]
    more = cells[2]
    assert '<details class="more"' in more and ">More<" in more
    for action in ("/drop", "/fixed-table", "/edit", "/remove"):
        assert action in more


def test_a_dropped_player_is_marked_in_words(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add(signed_in, event, "Ann Lee")
    ann = players_of(session, event)[0]
    row = signed_in.post(f"/events/{event.id}/players/{ann.id}/drop", data={"dropped": "1"}, headers=HX).text
    assert "Dropped" in row and "/check-in" not in row  # no toggle for a dropped player
    assert "Reinstate" in row
    assert "Dropped" in signed_in.get(f"/events/{event.id}/players").text


def _waiting_ids(page: str) -> str:
    start = page.index('name="ids" value="') + len('name="ids" value="')
    return page[start:page.index('"', start)]


def test_check_in_all_checks_in_whom_the_list_showed(signed_in: FlaskClient, session: Session, event: Event) -> None:
    _many(session, event, 6)  # players 000 and 003 are checked in already
    page = signed_in.get(f"/events/{event.id}/players").text
    assert "Check in all (4)" in page
    assert 'data-confirm="Check in all 4 players who are not checked in yet?"' in page
    ids = _waiting_ids(page)
    add(signed_in, event, "Late Larry")  # arrives after the list was shown: not in the form
    response = signed_in.post(f"/events/{event.id}/players/check-in-all", data={"ids": ids, "q": ""}, headers=HX)
    assert response.status_code == 200 and response.text.lstrip().startswith('<div id="player-list">')
    assert "4 players checked in." in response.text
    assert "(7 registered, 6 checked in)" in response.text
    assert {p.name: p.checked_in for p in players_of(session, event)}["Late Larry"] is False
    assert "Check in the last one (1)" in response.text  # Larry is still waiting
    # the same form again changes nothing and says so
    again = signed_in.post(f"/events/{event.id}/players/check-in-all", data={"ids": ids, "q": ""}, headers=HX)
    assert "0 players checked in." in again.text


def test_check_in_these_from_a_search(signed_in: FlaskClient, session: Session, event: Event) -> None:
    _many(session, event, 12)
    found = signed_in.get(f"/events/{event.id}/players?q=player+01", headers=HX).text
    assert "Check in these 2" in found  # Player 010 and 011 (none is checked in yet)
    ids = _waiting_ids(found)
    signed_in.post(f"/events/{event.id}/players/check-in-all", data={"ids": ids, "q": "player 01"})
    checked = {p.name for p in players_of(session, event) if p.checked_in}
    assert checked == {"Player 000", "Player 003", "Player 006", "Player 009", "Player 010", "Player 011"}
    assert "2 players checked in." in signed_in.get(f"/events/{event.id}/players").text  # the flash, without JS


def test_a_stale_check_in_all_changes_nothing(signed_in: FlaskClient, session: Session, event: Event) -> None:
    _many(session, event, 3)
    ids = _waiting_ids(signed_in.get(f"/events/{event.id}/players").text)
    dropped = players_of(session, event)[1]
    signed_in.post(f"/events/{event.id}/players/{dropped.id}/drop", data={"dropped": "1"})
    before = [p.checked_in for p in players_of(session, event)]
    response = signed_in.post(f"/events/{event.id}/players/check-in-all", data={"ids": ids, "q": ""}, headers=HX)
    assert response.status_code == 409
    assert "changed since you opened it; nothing was saved" in response.text
    assert [p.checked_in for p in players_of(session, event)] == before
    # a player of another event, or none at all, is stale too
    from tests.fixtures.organizer import create_event

    other = create_event(session, name="Other")
    add(signed_in, other, "Zed")
    zed = players_of(session, other)[0]
    response = signed_in.post(f"/events/{event.id}/players/check-in-all", data={"ids": str(zed.id)}, headers=HX)
    assert response.status_code == 409 and players_of(session, other)[0].checked_in is False
