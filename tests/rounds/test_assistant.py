"""The scoring assistant: arboretums and hands scored by the engine, or a score case uploaded."""

from __future__ import annotations

import io
import json

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event, Result, Round
from organizer.rounds import service as round_service
from tests.fixtures.organizer import HX, add_players, create_event, error_beside
from tests.rounds.support import typed_form


def two_player_table(client: FlaskClient, session: Session) -> tuple[Event, round_service.TableSeating]:
    event = create_event(session, preferred_table_size=2, entry_modes=["totals", "assistant"])
    add_players(session, event, 2)
    client.post(f"/events/{event.id}/rounds/propose", data={"seed": "8"})
    client.post(f"/events/{event.id}/rounds/1/publish")
    rnd = session.exec(select(Round).where(Round.event_id == event.id)).one()
    assert rnd.id is not None
    return event, round_service.tables_of(session, rnd.id)[0]


def url(event: Event, action: str = "") -> str:
    return f"/events/{event.id}/rounds/1/tables/1" + (f"/{action}" if action else "")


def test_assistant_scores_the_table_and_shows_the_paths(signed_in: FlaskClient, session: Session) -> None:
    event, view = two_player_table(signed_in, session)
    page = signed_in.get(url(event) + "?mode=assistant").text
    assert 'name="arboretum_' in page and 'name="case_file"' in page
    response = signed_in.post(url(event, "result"), data=typed_form(view))
    assert response.status_code == 302, response.text
    result = session.exec(select(Result)).one()
    assert result.entry_mode == "assistant"
    # 1-4-8 of one species: 3 cards + 1 (starts on a 1) + 2 (ends on an 8); 2-5: 2 cards.
    assert [s["points"] for s in result.seats] == [6, 2]
    assert [s["species_count"] for s in result.seats] == [1, 1]
    assert result.score_case and result.score_case["rules"] == "standard-2018"
    winner = view.seats[0].player
    assert winner is not None and result.score_output and result.score_output["winners"] == [winner.name]
    sheet = signed_in.get(url(event)).text
    assert "Score sheet" in sheet and "(0,0)→<wbr>(1,0)→<wbr>(2,0)" in sheet  # a path breaks only at its arrows
    download = signed_in.get(url(event, "case.json"))
    assert download.status_code == 200 and "attachment" in download.headers["Content-Disposition"]
    assert json.loads(download.text) == result.score_case
    # A correction starts from what was typed.
    assert f"0,0 {view.table.species[0]} 1" in signed_in.get(url(event) + "?edit=1").text


def test_assistant_refusals_keep_what_was_typed(signed_in: FlaskClient, session: Session) -> None:
    event, view = two_player_table(signed_in, session)
    form = typed_form(view)
    first = view.seats[0].seat.id
    form[f"arboretum_{first}"] += "\nsomewhere Oak"
    response = signed_in.post(url(event, "result"), data=form, headers=HX)
    assert response.status_code == 422
    assert "Line 5 ('somewhere Oak')" in error_beside(response.text, f"arboretum_{first}")
    sp = view.table.species
    form = typed_form(view)
    form[f"arboretum_{first}"] += f"\n5,5 {sp[0]} 2"  # not connected to the rest
    response = signed_in.post(url(event, "result"), data=form, headers=HX)
    assert response.status_code == 422 and "The engine refuses this table" in response.text
    form = typed_form(view)
    form[f"hand_{view.seats[1].seat.id}"] = ", ".join(f"{sp[1]} {v}" for v in range(1, 8))  # same cards as seat 1
    response = signed_in.post(url(event, "result"), data=form, headers=HX)
    assert response.status_code == 422 and "appears twice" in response.text
    assert f"{sp[0]} 4" in response.text  # the typed arboretum is still in the form
    assert session.exec(select(Result)).all() == []


def test_upload_a_score_case(signed_in: FlaskClient, session: Session) -> None:
    event, view = two_player_table(signed_in, session)
    sp = view.table.species
    names = [s.player.name for s in view.seats if s.player]
    case = {"rules": "standard-2018", "species": list(sp), "players": [
        {"name": names[1],
         "arboretum": [{"x": 0, "y": 0, "species": sp[2], "value": 3}, {"x": 0, "y": 1, "species": sp[2], "value": 6}],
         "hand": [f"{sp[3]} {v}" for v in range(1, 8)]},
        {"name": names[0], "arboretum": [{"x": 0, "y": 0, "species": sp[0], "value": 2}],
         "hand": [f"{sp[1]} {v}" for v in range(1, 8)]},
    ]}
    data = {"mode": "assistant", "version": "0", "case_file": (io.BytesIO(json.dumps(case).encode()), "table.json")}
    response = signed_in.post(url(event, "result"), data=data, content_type="multipart/form-data")
    assert response.status_code == 302, response.text
    result = session.exec(select(Result)).one()
    assert [s["points"] for s in result.seats] == [0, 2]  # stored in seat order, not file order
    assert result.score_case and [p["name"] for p in result.score_case["players"]] == names


def test_bad_uploads(signed_in: FlaskClient, session: Session) -> None:
    event, view = two_player_table(signed_in, session)
    for content, message in ((b"{not json", "not valid JSON"),
                             (json.dumps({"rules": "standard-2010", "players": []}).encode(), "This table plays standard-2018"),
                             (json.dumps({"rules": "standard-2018", "players": [{"name": "Zed"}, {"name": "Yan"}]}).encode(),
                              "'Zed' is not a player of this table")):
        data = {"mode": "assistant", "version": "0", "case_file": (io.BytesIO(content), "case.json")}
        response = signed_in.post(url(event, "result"), data=data, content_type="multipart/form-data")
        assert response.status_code == 422
        assert message in error_beside(response.text, "case_file")
    assert session.exec(select(Result)).all() == []


def test_typed_cards_may_name_species_in_the_readers_language_or_by_code() -> None:
    """A German player types "Eiche 3" or "Ok 3" for Oak 3: the engine gets its own names."""
    from organizer.core.translate import species_from_text

    table = ["Oak", "Willow", "Royal Poinciana"]
    assert species_from_text("ok", table) == "Oak"
    assert species_from_text("RP", table) == "Royal Poinciana"
    assert species_from_text("  royal   poinciana ", table) == "Royal Poinciana"
    assert species_from_text("Larch", table) == "Larch"  # unknown: left for the engine to refuse by name
    assert species_from_text("Ca", table) == "Ca"  # a code of a species not at this table is not guessed


def test_arboretums_no_finished_game_leaves_are_refused(signed_in: FlaskClient, session: Session) -> None:
    """Every player plants one card a turn: a single card beside an arboretum of 8 is refused,
    naming the player, and nothing is saved."""
    event, view = two_player_table(signed_in, session)
    form = typed_form(view)
    sp = view.table.species
    first, second = (s.seat.id for s in view.seats)
    form[f"arboretum_{first}"] = f"0,0 {sp[0]} 1"
    form[f"arboretum_{second}"] = "\n".join(f"{v},0 {sp[2]} {v}" for v in range(1, 9))
    response = signed_in.post(url(event, "result"), data=form)
    assert response.status_code == 422
    message = error_beside(response.text, f"arboretum_{first}")
    name = view.seats[0].player.name if view.seats[0].player else ""
    assert name in message and "planted 1 cards" in message and "at most 1" in message, message
    assert session.exec(select(Result)).all() == []
    form[f"arboretum_{first}"] = "\n".join(f"{v},0 {sp[0]} {v}" for v in range(1, 8))
    assert signed_in.post(url(event, "result"), data=form).status_code == 302
