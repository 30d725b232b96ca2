"""A table's page: a table live on the devices shows its game and no
paper entry, and goes back to paper only after a confirmation; the move onto the devices asks
too; places and tournament points (with the tie-break's reason) show before players confirm; a
refused scorepad names each field beside it and sums them up near Save; the assistant's example
uses the table's own species."""

from __future__ import annotations

import html
import json
import re

from flask.testing import FlaskClient
from sqlmodel import Session, select

from engine.cards import species_code
from organizer.core.models import AuditEntry, Event, GameTable, Result, Round
from organizer.rounds import results as service
from organizer.rounds import service as rounds
from tests.fixtures.organizer import create_event, error_beside
from tests.rounds.support import published_table, scorepad_form, totals_form, url


def _table(session: Session) -> GameTable:
    session.expire_all()
    return session.exec(select(GameTable).where(GameTable.number == 1)).one()


def test_a_live_table_shows_its_game_and_refuses_paper_entry(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, round_formats=["draft"], entry_modes=["scorepad", "totals"])
    view = published_table(signed_in, session, event, players=2)
    assert view.table.digital and view.table.log_version > 0
    page = signed_in.get(url(event)).text
    assert "Playing on the players' devices" in html.unescape(page) and "round 1 of 3, pick 1 of 7" in page
    assert "Enter the result" not in page and 'name="pad_' not in page
    # it follows the game by itself (an HTMX GET of the table's fragment)
    assert re.search(r'id="live-state" hx-get="/events/\d+/rounds/1/tables/1"\s+hx-trigger="every 10s"', page)
    assert 'id="live-state"' in signed_in.get(url(event), headers={"HX-Request": "true"}).text
    # the way back is labelled, and its confirmation says what happens to the game
    confirm = re.search(r'action="[^"]*/tables/1/paper"\s+data-confirm="([^"]*)"', page)
    assert confirm and "Switch Table 1 back to paper?" in html.unescape(confirm.group(1))
    assert "Switch back to paper" in page
    # a paper entry posted anyway (an old form) is refused and stores nothing
    response = signed_in.post(url(event, "result"), data=scorepad_form(view, [[0] * 7, [0] * 7], [0, 0]))
    assert response.status_code == 422 and "switch the table back to paper first" in response.text
    assert session.exec(select(Result)).all() == []


def test_back_to_paper_discards_the_game_only_from_a_current_page(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, round_formats=["draft"], entry_modes=["totals"])
    view = published_table(signed_in, session, event, players=2)
    version = view.table.log_version
    stale = signed_in.post(url(event, "paper"), data={"version": version + 5})
    assert stale.status_code == 422 and "changed since you opened it; nothing was saved" in html.unescape(stale.text)
    assert _table(session).digital
    response = signed_in.post(url(event, "paper"), data={"version": version})
    assert response.status_code == 302
    table = _table(session)
    assert not table.digital and table.game is None and table.action_log == []
    page = signed_in.get(url(event)).text
    assert "is back on paper" in page and "Enter the result" in page and "Switch back to paper" not in page
    actions = [a.action for a in session.exec(select(AuditEntry)).all()]
    assert "live.back_to_paper" in actions
    assert signed_in.post(url(event, "result"), data=totals_form(view, [30, 20], [5, 4])).status_code == 302


def test_moving_a_paper_table_onto_the_devices_asks_first(signed_in: FlaskClient, session: Session, event: Event) -> None:
    published_table(signed_in, session, event)
    page = signed_in.get(url(event)).text
    form = re.search(r'<form[^>]*action="([^"]*/live/tables/1/digital)"\s+data-confirm="([^"]*)"', page)
    assert form, "a paper table offers the move onto the devices, with a question"
    assert "Play Table 1 on the players' devices?" in html.unescape(form.group(2))
    assert "switch back to paper" in html.unescape(form.group(2))


def test_places_and_tournament_points_before_confirmation(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    signed_in.post(url(event, "result"), data=totals_form(view, [31, 31, 40, 20], [5, 4, 6, 3]))
    page = signed_in.get(url(event)).text
    assert "Organizer confirms" in page and "Place" in page and "tournament points" in page
    assert "2nd — tie on 31 points broken by species count: 5 vs 4" in page
    assert "3rd — tie on 31 points broken by species count: 4 vs 5" in page
    cells = re.findall(r'<td class="place"[^>]*><strong>([^<]*)</strong><br><span class="tp">([^<]*)</span></td>', page)
    # "beaten" scheme: opponents beaten over opponents at the table
    assert cells == [("2nd", "0.67"), ("3rd", "0.33"), ("1st", "1.00"), ("4th", "0.00")]


def test_a_shared_place_says_so(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, edition="2010")
    view = published_table(signed_in, session, event, players=2)
    signed_in.post(url(event, "result"), data=totals_form(view, [31, 31], [5, 4]))
    page = signed_in.get(url(event)).text
    assert "shared 1st — tie on 31 points (these rules break no ties)" in page
    session.expire_all()
    rnd = session.exec(select(Round)).one()
    assert rnd.id is not None
    places = service.table_places(event, rnd, rounds.tables_of(session, rnd.id)[0])
    assert [p.place for p in places] == [1, 1] and all(p.shared for p in places)


def test_scorepad_errors_beside_each_field_and_summed_up_near_save(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, entry_modes=["scorepad"])
    view = published_table(signed_in, session, event)
    rows = [[0] * len(view.table.species) for _ in view.seats]
    rows[0][0], rows[2][1] = 1, "x"
    response = signed_in.post(url(event, "result"), data=scorepad_form(view, rows, [3, 3, 3, 3]))
    assert response.status_code == 422
    first, third = view.seats[0].seat.id, view.seats[2].seat.id
    assert "never scores 1" in error_beside(response.text, f"pad_{first}_0")
    assert "digits 0-9 only" in error_beside(response.text, f"pad_{third}_1")
    summary = re.search(r'<div class="error-summary".*?</div>', response.text, re.S)
    assert summary and "2 fields need attention" in summary.group(0)
    assert f'href="#f-pad_{first}_0"' in summary.group(0) and f'href="#f-pad_{third}_1"' in summary.group(0)
    # the summary sits just before Save; each field it links to exists and is marked invalid
    assert response.text.index("2 fields need attention") < response.text.index("Save result")
    for key in (f"pad_{first}_0", f"pad_{third}_1"):
        assert re.search(rf'id="f-{key}"[^>]*aria-invalid="true" aria-describedby="e-{key}"', response.text)


def test_the_assistant_speaks_of_the_tables_own_species(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, entry_modes=["assistant"])
    view = published_table(signed_in, session, event, players=2)
    species = list(view.table.species)
    page = signed_in.get(url(event)).text
    assert f"<code>0,0 {species[0]} 1</code>" in page
    if "Oak" not in species:
        assert "0,0 Oak" not in page
    strings = json.loads(html.unescape(re.search(r'class="assistant-strings">(.*?)</script>', page, re.S).group(1)))
    assert set(strings["species"]) == set(species)
    assert all(len(entry["code"]) == 2 for entry in strings["species"].values())
    assert strings["cardCounts"][1] == "1 card" and strings["cardCounts"][7] == "7 cards"
    # a line the assistant cannot read is explained with a species of this table
    data = {"mode": "assistant", "version": "0", f"arboretum_{view.seats[0].seat.id}": "somewhere"}
    response = signed_in.post(url(event, "result"), data=data)
    assert f"like 0,0 {species[0]} 3" in error_beside(response.text, f"arboretum_{view.seats[0].seat.id}")


def test_species_show_their_code_on_the_table_page(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    page = signed_in.get(url(event)).text
    for name in view.table.species:
        label = f'<abbr class="species-code" title="{name}">{species_code(name)}</abbr> <span class="species-name">{name}</span>'
        assert label in html.unescape(page)
