"""The round page and the live overview as the TO reads them in a noisy room: the
filled button is the next thing to do, a swap says who moved, a player who dropped is marked on
their seat, times are the event's local time, and every sentence follows the reader's language."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.errors import InputError
from organizer.core.models import Event, Result, Round, Seat
from organizer.rounds import service
from tests.fixtures.organizer import HX, add_players


def _primary(page: str) -> list[str]:
    """The labels of the filled (primary) buttons and links of a page."""
    found = re.findall(r'class="button primary"[^>]*>([^<]+)<', page)
    return [html.unescape(text).strip() for text in found]


def _publish(client: FlaskClient, event: Event, seed: str = "4") -> None:
    assert client.post(f"/events/{event.id}/rounds/propose", data={"seed": seed}).status_code == 302
    assert client.post(f"/events/{event.id}/rounds/1/publish").status_code == 302


def _result(session: Session, rnd_id: int, table_number: int, status: str) -> None:
    view = next(v for v in service.tables_of(session, rnd_id) if v.table.number == table_number)
    session.add(Result(table_id=view.table.id or 0, status=status,
                       seats=[{"player_id": s.seat.player_id, "points": 10 + i, "species_count": 3}
                              for i, s in enumerate(view.seats)]))
    session.commit()


def test_the_filled_button_is_the_next_step_of_the_round(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add_players(session, event, 8)
    _publish(signed_in, event)
    rnd = session.exec(select(Round)).one()
    assert rnd.id is not None
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    # no result anywhere: enter the first table's, not close the round
    assert _primary(page) == ["Enter results: Table 1"]
    assert f'href="/events/{event.id}/rounds/1/tables/1"' in page
    assert "0 of 2 results confirmed." in page and "2 tables have no result yet." in page
    _result(session, rnd.id, 1, "confirmed")
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert _primary(page) == ["Enter results: Table 2"] and "1 table has no result yet." in page
    _result(session, rnd.id, 2, "entered")
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert _primary(page) == ["Confirm the result: Table 2"]
    result = session.exec(select(Result).where(Result.status == "entered")).one()
    result.status = "confirmed"
    session.add(result)
    session.commit()
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert _primary(page) == ["Close round 1"] and "2 of 2 results confirmed." in page


def test_a_swap_says_which_two_players_moved(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add_players(session, event, 8)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "9"})
    rnd = session.exec(select(Round)).one()
    assert rnd.id is not None
    tables = service.tables_of(session, rnd.id)
    first, second = tables[0].seats[0].player, tables[1].seats[1].player
    assert first is not None and second is not None
    said = f"{first.name} (Table 1) and {second.name} (Table 2) swapped."
    response = signed_in.post(f"/events/{event.id}/rounds/1/swap", data={"first": first.id, "second": second.id},
                              headers=HX)
    text = html.unescape(response.text)
    # htmx: the message goes out of band into the page's messages area, where flashes appear
    messages = re.search(r'<div id="messages"[^>]*hx-swap-oob="true"[^>]*>(.*?)</div>', text, re.S)
    assert messages is not None and said in messages.group(1) and "After this swap:" in messages.group(1)
    # without htmx: flashed, shown on the page the swap redirects to (now they are back)
    response = signed_in.post(f"/events/{event.id}/rounds/1/swap", data={"first": first.id, "second": second.id},
                              follow_redirects=True)
    assert f"{first.name} (Table 2) and {second.name} (Table 1) swapped." in html.unescape(response.text)


def test_a_player_who_drops_mid_round_is_marked_on_their_seat(signed_in: FlaskClient, session: Session,
                                                            event: Event) -> None:
    players = add_players(session, event, 8)
    _publish(signed_in, event)
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert "Dropped" not in page and "dropped this round" not in page
    quitter = players[3]
    assert signed_in.post(f"/events/{event.id}/players/{quitter.id}/drop", data={"dropped": "1"}).status_code in (200, 302)
    seat = session.exec(select(Seat).where(Seat.player_id == quitter.id)).one()
    rnd = session.exec(select(Round)).one()
    table = next(v.table.number for v in service.tables_of(session, rnd.id or 0) if v.table.id == seat.table_id)
    page = html.unescape(signed_in.get(f"/events/{event.id}/rounds/1").text)
    assert f"1 player dropped this round: {quitter.name} (Table {table})" in page
    # on the seat itself, in words (not only struck through): the seat's list item carries the badge
    item = re.search(rf'<li class="dropped"><strong>{re.escape(quitter.name)}</strong>\s*<span class="badge bad">Dropped</span>',
                     page)
    assert item is not None
    assert page.count('<li class="dropped">') == 1
    # and the grid's own refresh keeps it
    assert 'class="badge bad">Dropped</span>' in signed_in.get(f"/events/{event.id}/rounds/1?part=grid", headers=HX).text


def test_the_round_clock_ends_in_the_events_time_zone(signed_in: FlaskClient, session: Session, event: Event) -> None:
    event.time_zone = "Europe/Berlin"
    session.add(event)
    session.commit()
    add_players(session, event, 4)
    _publish(signed_in, event)
    rnd = session.exec(select(Round)).one()
    rnd.duration_minutes = 50
    rnd.clock_started_at = datetime(2026, 4, 18, 9, 0, tzinfo=UTC)  # 11:00 in Berlin (summer time)
    session.add(rnd)
    session.commit()
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert "Ends at 11:50" in page and "UTC" not in page


def test_the_live_overview_is_one_card_per_table(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add_players(session, event, 8)
    _publish(signed_in, event)
    signed_in.post(f"/events/{event.id}/rounds/1/live/tables/1/digital")
    rnd = session.exec(select(Round)).one()
    quitter = service.tables_of(session, rnd.id or 0)[0].seats[2].player
    assert quitter is not None
    signed_in.post(f"/events/{event.id}/players/{quitter.id}/drop", data={"dropped": "1"})
    page = html.unescape(signed_in.get(f"/events/{event.id}/rounds/1/live").text)
    assert "<table" not in page  # nothing as wide as a table of five columns to scroll on a phone
    assert re.findall(r'<li class="card live-card[^"]*" id="live-table-(\d+)"', page) == ["1", "2"]
    card_one, card_two = page.split('id="live-table-1"')[1].split('id="live-table-2"')
    assert "Progress" in card_one and card_one.count("Bot plays this seat") == 4  # the dropped player's seat too
    assert f"{quitter.name}</strong>" in card_one and "Dropped" in card_one
    assert "Play it on the players' devices" in card_two and "Dropped" not in card_two


def test_the_rounds_messages_go_through_gettext(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sentence the round services write is asked of the catalog: with a
    pseudo-language that brackets what it translates, none comes out bare."""
    from organizer.core import translate
    from organizer.live import overview as live_overview
    from organizer.rounds import seat_order, seating

    def pseudo(message: str, **values: object) -> str:
        return "«" + (message % values if values else message) + "»"

    def pseudo_plural(singular: str, plural: str, num: int, **values: object) -> str:
        values.setdefault("num", num)
        return pseudo(singular if num == 1 else plural, **values)

    monkeypatch.setitem(translate._installed, "gettext", pseudo)  # noqa: SLF001
    monkeypatch.setitem(translate._installed, "ngettext", pseudo_plural)  # noqa: SLF001
    effect = service.SwapEffect((1, 0), (2, 1), ("Ada Lovelace", 2), ("Ben Ng", 5))
    assert effect.swapped == "«Ada Lovelace (Table 2) and Ben Ng (Table 5) swapped.»"
    assert effect.message.startswith("«After this swap: «1 repeated seat (was 2)»")
    assert service.status_name("published") == "«published»"
    assert seat_order.seat_label(0, 4) == "«1 (start)»" and seat_order.seat_label(3, 4) == "«4 (dealer)»"
    with pytest.raises(seating.SeatingError) as refused:
        seating.table_sizes(1, 4)
    assert str(refused.value).startswith("«")
    with pytest.raises(InputError) as bad:
        service.seed_from_text("abc")
    assert bad.value.errors["seed"] == "«A seed is a whole number from 0 to 2147483647; leave empty for a random one.»"
    from engine import Phase, Progress

    progress = Progress(mode="standard", phase=Phase.DRAW1, finished=False, awaiting=(0,), actor=0, actor_name="Ada",
                        turn=3, round=None, rounds=None, pick=None, picks_per_round=None, draw_pile=1, cards_in_hands=28)
    assert live_overview.describe_progress(progress) == ("«turn 3, Ada: «draws a first card»»", "«1 card in the draw pile»")
