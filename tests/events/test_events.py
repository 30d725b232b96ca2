"""Creating and editing events."""

from __future__ import annotations

from datetime import date

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import AuditEntry, Event, Round
from tests.fixtures.organizer import HX, error_beside, event_form


def test_new_event_form_shows_the_defaults(signed_in: FlaskClient) -> None:
    page = signed_in.get("/events/new").text
    assert 'name="rounds" type="number" value="3"' in page
    assert "Opponents beaten divided by opponents at the table, a tie counting half" in page
    assert 'value="beaten" checked' in page
    assert ("Default: Total game points → Opponents&#39; average tournament points → "
            "Species count → Results between the tied players.") in page
    assert 'value="4" checked' in page
    assert 'value="totals" checked' in page


def test_create_event(signed_in: FlaskClient, session: Session) -> None:
    response = signed_in.post("/events/new", data=event_form(pick_timer_seconds="45"))
    assert response.status_code == 302
    event = session.exec(select(Event)).one()
    assert response.headers["Location"] == f"/events/{event.id}/players"
    assert event.name == "Autumn Cup" and event.date == date(2026, 10, 3)
    assert event.round_formats == ["standard", "draft", "standard"] and event.rounds == 3
    assert event.tiebreak_order == ["game_points", "opponents_average", "species_count", "head_to_head"]
    assert event.entry_modes == ["totals", "scorepad"]
    assert event.pick_timer_seconds == 45
    overview = signed_in.get(f"/events/{event.id}").text
    assert "Autumn Cup" in overview and "2: Draft" in overview
    assert session.exec(select(AuditEntry).where(AuditEntry.action == "event.created")).one().actor == "Tess"
    assert "Autumn Cup" in signed_in.get("/").text


def test_create_event_with_htmx_redirects_the_page(signed_in: FlaskClient) -> None:
    response = signed_in.post("/events/new", data=event_form(), headers=HX)
    assert response.status_code == 200 and response.headers["HX-Redirect"].endswith("/players")


def test_bad_event_input_gets_messages_beside_fields_and_keeps_what_was_typed(signed_in: FlaskClient, session: Session) -> None:
    response = signed_in.post("/events/new", data=event_form(
        name="Typed Name", date="03/10/2026", rounds="3", format_2="chess", preferred_table_size="5",
        tiebreak_2="game_points", entry_modes=[], pick_timer_seconds="5"))
    assert response.status_code == 422
    html = response.text
    assert "YYYY-MM-DD" in error_beside(html, "date") or "YYYY-MM-DD" in html
    assert "Nothing was saved" in html
    assert "4, 3 or 2" in html
    assert "each tie-break exactly once" in html
    assert "at least one way of entering results" in html
    assert "Choose standard game or draft" in html
    assert "10 to 600 seconds" in error_beside(html, "pick_timer_seconds")
    assert 'value="Typed Name"' in html
    assert session.exec(select(Event)).all() == []


def test_empty_name_and_bad_round_count(signed_in: FlaskClient) -> None:
    response = signed_in.post("/events/new", data=event_form(name="  ", rounds="0"), headers=HX)
    assert response.status_code == 422
    assert not response.text.lstrip().startswith("<!doctype")
    assert "Give the event a name" in error_beside(response.text, "name")
    assert "1 to 20" in error_beside(response.text, "rounds")


def test_round_format_fragment_follows_the_round_count(signed_in: FlaskClient) -> None:
    response = signed_in.get("/events/round-formats?rounds=5&format_2=draft", headers=HX)
    assert response.status_code == 200
    assert response.text.count("<select") == 5
    assert 'value="draft" selected' in response.text
    assert signed_in.get("/events/round-formats?rounds=abc", headers=HX).text.count("<select") == 3


def test_edit_event(signed_in: FlaskClient, session: Session, event: Event) -> None:
    page = signed_in.get(f"/events/{event.id}/edit").text
    assert 'value="Spring Open"' in page
    response = signed_in.post(f"/events/{event.id}/edit", data=event_form(
        version="1", name="Spring Open II", rounds="4", format_4="draft", tiebreak_1="species_count",
        tiebreak_3="game_points"))
    assert response.status_code == 302
    session.refresh(event)
    assert event.name == "Spring Open II" and event.round_formats[-1] == "draft"
    assert event.tiebreak_order[0] == "species_count"
    audit = session.exec(select(AuditEntry).where(AuditEntry.action == "event.updated")).one()
    assert audit.old and audit.old["name"] == "Spring Open" and audit.new and audit.new["name"] == "Spring Open II"


def test_bad_edit_changes_nothing(signed_in: FlaskClient, session: Session, event: Event) -> None:
    response = signed_in.post(f"/events/{event.id}/edit", data=event_form(version="1", name="New name", edition="1999"))
    assert response.status_code == 422
    assert "2018 or the 2010" in response.text
    session.refresh(event)
    assert event.name == "Spring Open"


def test_edit_cannot_contradict_rounds_already_made(signed_in: FlaskClient, session: Session, event: Event) -> None:
    assert event.id is not None
    session.add(Round(event_id=event.id, number=1, format="standard", status="published"))
    session.add(Round(event_id=event.id, number=2, format="standard", status="proposed"))
    session.commit()
    response = signed_in.post(f"/events/{event.id}/edit", data=event_form(version="1", rounds="1", edition="2010"))
    assert response.status_code == 422
    assert "2 rounds already exist" in response.text
    assert "edition can no longer change" in response.text
    response = signed_in.post(f"/events/{event.id}/edit", data=event_form(version="1", format_1="draft"))
    assert "Round 1 already exists as a standard round" in response.text
    session.refresh(event)
    assert event.round_formats == ["standard"] * 3 and event.edition == "2018"


def test_stale_edit_is_refused_and_shows_the_settings_now(signed_in: FlaskClient, session: Session,
                                                          event: Event) -> None:
    """Two organizers opened the form at version 1; the second save would revert the first."""
    assert 'name="version" value="1"' in signed_in.get(f"/events/{event.id}/edit").text
    assert signed_in.post(f"/events/{event.id}/edit", data=event_form(version="1", name="Spring Open II")).status_code == 302
    response = signed_in.post(f"/events/{event.id}/edit", data=event_form(version="1", name="Spring Open",
                                                                          pick_timer_seconds="45"))
    assert response.status_code == 422
    assert "changed since you opened it; nothing was saved" in response.text
    assert 'value="Spring Open II"' in response.text and 'name="version" value="2"' in response.text
    session.refresh(event)
    assert (event.name, event.pick_timer_seconds, event.version) == ("Spring Open II", None, 2)
    assert signed_in.post(f"/events/{event.id}/edit", data=event_form(name="No version")).status_code == 422


def test_unknown_event_is_404(signed_in: FlaskClient) -> None:
    assert signed_in.get("/events/42/edit").status_code == 404
    assert signed_in.post("/events/42/edit", data=event_form()).status_code == 404


def test_language_and_time_zone_are_event_settings(signed_in: FlaskClient, session: Session) -> None:
    """The room's language and the event's clock; a new event offers the browser's
    zone (filled in by static/events/time_zone.js), an existing one keeps its own."""
    new = signed_in.get("/events/new").text
    assert 'name="time_zone"' in new and "data-browser-zone" in new and 'value=""' in new.split('name="time_zone"')[1][:200]
    assert '<option value="Europe/Berlin">' in new and 'src="/static/events/time_zone.js"' in new
    assert 'value="de" lang="de"' in new
    response = signed_in.post("/events/new", data=event_form(language="fr", time_zone="America/Montreal"))
    assert response.status_code == 302
    event = session.exec(select(Event).where(Event.name == "Autumn Cup")).one()
    assert (event.language, event.time_zone) == ("fr", "America/Montreal")
    edit = signed_in.get(f"/events/{event.id}/edit").text
    assert "data-browser-zone" not in edit and 'value="America/Montreal"' in edit
    overview = signed_in.get(f"/events/{event.id}").text
    assert "Français" in overview and "America/Montreal" in overview
    # nothing typed (no script): UTC
    signed_in.post("/events/new", data=event_form(name="Plain Cup", time_zone=""))
    assert session.exec(select(Event).where(Event.name == "Plain Cup")).one().time_zone == "UTC"


def test_an_unknown_time_zone_or_language_is_refused_beside_its_field(signed_in: FlaskClient, session: Session) -> None:
    response = signed_in.post("/events/new", data=event_form(time_zone="Mars/Olympus", language="xx"))
    assert response.status_code == 422
    assert "time zone from the list" in error_beside(response.text, "time_zone")
    assert "listed languages" in error_beside(response.text, "language")
    assert 'value="Mars/Olympus"' in response.text  # what was typed stays
    assert session.exec(select(Event).where(Event.name == "Autumn Cup")).first() is None


def test_a_city_names_its_time_zone(signed_in: FlaskClient, session: Session) -> None:
    """The field's hint says to type "Berlin": a city (any case, spaces for underscores) is
    stored as its IANA zone."""
    assert signed_in.post("/events/new", data=event_form(time_zone="Berlin")).status_code == 302
    assert session.exec(select(Event).where(Event.name == "Autumn Cup")).one().time_zone == "Europe/Berlin"
    assert signed_in.post("/events/new", data=event_form(name="Big Apple", time_zone="new york")).status_code == 302
    assert session.exec(select(Event).where(Event.name == "Big Apple")).one().time_zone == "America/New_York"
    assert signed_in.post("/events/new", data=event_form(name="Lower", time_zone="europe/paris")).status_code == 302
    assert session.exec(select(Event).where(Event.name == "Lower")).one().time_zone == "Europe/Paris"


def test_an_unknown_city_is_refused_beside_the_field_in_the_users_language(signed_in: FlaskClient) -> None:
    signed_in.get("/language/de")
    response = signed_in.post("/events/new", data=event_form(time_zone="Atlantis"))
    assert response.status_code == 422
    message = error_beside(response.text, "time_zone")
    assert "Atlantis" in message and "Berlin" in message and "Zeitzone" in message


def test_event_pages_render_in_every_language_and_errors_have_a_title(signed_in: FlaskClient, event: Event) -> None:
    """The pages of this area answer in each shipped language (the catalogs fill in the
    words; a missing one falls back to English, never to an error)."""
    for language in ("de", "fr", "es", "nl", "en"):
        headers = {"Accept-Language": language}
        for path in ("/", f"/events/{event.id}", f"/events/{event.id}/edit", "/events/new", f"/events/{event.id}/audit",
                     f"/events/{event.id}/staff", "/organizers"):
            response = signed_in.get(path, headers=headers)
            assert response.status_code == 200, (language, path)
            assert '<html lang="' + language in response.text, (language, path)
    missing = signed_in.get("/events/999999")
    assert missing.status_code == 404 and "<h1>Page not found</h1>" in missing.text
    assert "There is nothing at this address." in missing.text
