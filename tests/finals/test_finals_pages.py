"""Finals through the organizer's pages: the cut, a decliner replaced, semi-finals seated by seed,
the final table, and the places shown first with their reasons."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import AuditEntry, Finals, Player, Round
from organizer.rounds import service as round_service
from organizer.scoring import event_standings
from tests.finals.support import (
    enter_and_confirm,
    finals_version,
    one_round_event,
    play_swiss,
    played_finals,
    seated,
)
from tests.printing.support import all_text


def test_the_cut_waits_for_the_swiss_rounds(signed_in: FlaskClient, session: Session) -> None:
    event, _ids = one_round_event(session, 8)
    page = signed_in.post(f"/events/{event.id}/finals/cut", data={"cut_size": "4", "version": "0"})
    assert page.status_code == 422
    assert "The finals start when every Swiss round is closed." in page.text


def test_a_bad_cut_size_is_refused_beside_the_field(signed_in: FlaskClient, session: Session) -> None:
    event, ids = one_round_event(session, 8)
    play_swiss(signed_in, session, event, {pid: 20 + 2 * i for i, pid in enumerate(ids, start=1)})
    page = signed_in.post(f"/events/{event.id}/finals/cut", data={"cut_size": "6", "version": "0"})
    assert page.status_code == 422
    assert 'class="error"' in page.text and "Choose a cut of 4, 8, 12 or 16 players." in page.text
    assert session.exec(select(Finals)).first() is None


def test_eight_players_semi_finals_to_a_final_with_a_decliner(signed_in: FlaskClient, session: Session) -> None:
    event, ids = one_round_event(session, 10)
    # every player a distinct score; the Swiss rank follows the tournament points and game points
    play_swiss(signed_in, session, event, {pid: 40 - 2 * i for i, pid in enumerate(ids)})
    assert signed_in.post(f"/events/{event.id}/finals/cut", data={"cut_size": "8", "version": "0"}).status_code == 302
    seeds = session.exec(select(Finals)).one().seeds
    assert len(seeds) == 8
    outside = [pid for pid in ids if pid not in {s["player_id"] for s in seeds}]
    first_seed = seeds[0]["player_id"]
    # a stale form changes nothing
    stale = signed_in.post(f"/events/{event.id}/finals/decline", data={"player": str(first_seed), "version": "0"})
    assert stale.status_code == 422 and "nothing was saved" in stale.text
    # the top seed declines: the best of the rest replaces them, and the page says so
    assert signed_in.post(f"/events/{event.id}/finals/decline",
                          data={"player": str(first_seed), "version": finals_version(session, event)}).status_code == 302
    page = signed_in.get(f"/events/{event.id}/finals").text
    names = re.findall(r'<strong class="seed-name">([^<]+)</strong>', page)
    assert len(names) == 8
    finals = session.exec(select(Finals)).one()
    replacement = next(s for s in finals.seeds if s["replaces"] == first_seed)
    assert replacement["seed"] == 8 and replacement["player_id"] in outside
    assert "who declined" in page
    actions = [a.action for a in session.exec(select(AuditEntry).where(AuditEntry.event_id == event.id)).all()]
    assert "finals.cut" in actions and "finals.declined" in actions

    # the semi-finals: seeds 1, 4, 5, 8 and 2, 3, 6, 7, the top seed in the first seat
    assert signed_in.post(f"/events/{event.id}/finals/seat", data={"version": finals_version(session, event)}).status_code == 302
    player_of = {s["seed"]: s["player_id"] for s in finals.seeds}
    assert seated(session, event, 2) == [[player_of[n] for n in (1, 4, 5, 8)], [player_of[n] for n in (2, 3, 6, 7)]]
    signed_in.post(f"/events/{event.id}/rounds/2/publish")
    # the lowest seed wins each semi-final
    semi_points = {player_of[n]: 20 + 2 * n for n in range(1, 9)}
    enter_and_confirm(signed_in, event, session, 2, semi_points)
    # the Swiss standings leave the finals' results out: everyone has played one game
    assert {row.games for row in event_standings.standings_for(session, event)} == {1}
    assert "Final places" not in signed_in.get(f"/events/{event.id}/standings").text
    assert signed_in.post(f"/events/{event.id}/rounds/2/close").status_code == 302
    assert signed_in.post(f"/events/{event.id}/finals/seat", data={"version": finals_version(session, event)}).status_code == 302
    assert seated(session, event, 3) == [[player_of[7], player_of[8]]]
    signed_in.post(f"/events/{event.id}/rounds/3/publish")
    enter_and_confirm(signed_in, event, session, 3, {player_of[7]: 30, player_of[8]: 24})

    page = signed_in.get(f"/events/{event.id}/finals").text
    assert "Final places" in page
    standings = signed_in.get(f"/events/{event.id}/standings").text
    # the finals first: the final table, then the semi-finals, then the rest
    places = standings[:standings.index('id="standings"')]
    assert "Final places" in places
    by_id = {p: n for p, n in zip(ids, [f"Player {i:02d}" for i in range(1, 11)], strict=True)}
    order = re.findall(r'<strong class="finals-name">([^<]+)</strong>', places)
    assert order[:2] == [by_id[player_of[7]], by_id[player_of[8]]]
    assert set(order[2:8]) == {by_id[player_of[n]] for n in range(1, 7)}
    assert "Place 1 at the final table" in places and "Place 2 at a semi-final table" in places
    assert "in the Swiss rounds" in places
    assert len(order) == 10

    # the public page and the projector show the finals' places before anything else of the standings
    public = signed_in.get(f"/e/{event.public_code}").text
    assert public.index("Final places") < public.index("Standings after round 1")
    assert re.findall(r'<strong class="finals-name">([^<]+)</strong>', public)[:2] == order[:2]
    projector = signed_in.get(f"/events/{event.id}/projector").text
    assert "Final places" in projector and "Final table" in projector
    assert re.findall(r'<strong class="finals-name">([^<]+)</strong>', projector)[:2] == order[:2]

    # the standings PDF and the event report print the finals first, then the Swiss standings
    for url in (f"/events/{event.id}/standings.pdf", f"/events/{event.id}/report.pdf"):
        response = signed_in.get(url)
        assert response.status_code == 200, url
        text = all_text(response.data)
        assert text.index("Final places") < text.index("Swiss standings")
        assert f"1 {by_id[player_of[7]]} Final table: Place 1 at the final table" in text


def test_a_cut_tied_at_the_boundary_names_its_rule(signed_in: FlaskClient, session: Session) -> None:
    event, ids = one_round_event(session, 8)
    # two tables of four; everyone at a table scores alike, so each table's players tie fully
    play_swiss(signed_in, session, event, {pid: 10 for pid in ids})
    assert signed_in.post(f"/events/{event.id}/finals/cut", data={"cut_size": "4", "version": "0"}).status_code == 302
    page = signed_in.get(f"/events/{event.id}/finals").text
    assert "tied at the cut: lot drawn" in page
    again = signed_in.post(f"/events/{event.id}/finals/cut", data={"cut_size": "4", "version": finals_version(session, event)})
    assert again.status_code == 302
    # the lot is the event's seeded draw: making the cut again draws the same
    assert signed_in.get(f"/events/{event.id}/finals").text.count("seed-name") == page.count("seed-name")


def test_the_top_seed_chooses_their_seat_when_the_organizer_lets_them(signed_in: FlaskClient, session: Session) -> None:
    event, ids = one_round_event(session, 8)
    play_swiss(signed_in, session, event, {pid: 20 + 2 * i for i, pid in enumerate(ids, start=1)})
    assert signed_in.post(f"/events/{event.id}/finals/cut",
                          data={"cut_size": "4", "top_seed_chooses": "1", "version": "0"}).status_code == 302
    page = signed_in.get(f"/events/{event.id}/finals").text
    assert 'name="top_seat_1"' in page
    version = finals_version(session, event)
    refused = signed_in.post(f"/events/{event.id}/finals/seat", data={"version": version, "top_seat_1": "9"})
    assert refused.status_code == 422 and "Choose a seat from 1 to 4." in refused.text
    assert session.exec(select(Round).where(Round.number == 2)).first() is None
    assert signed_in.post(f"/events/{event.id}/finals/seat",
                          data={"version": version, "top_seat_1": "3"}).status_code == 302
    player_of = {s["seed"]: s["player_id"] for s in session.exec(select(Finals)).one().seeds}
    assert seated(session, event, 2) == [[player_of[2], player_of[3], player_of[1], player_of[4]]]
    # no Swiss round follows the finals, even with another round added in the settings
    event.round_formats = ["standard", "standard"]
    session.add(event)
    session.commit()
    signed_in.post(f"/events/{event.id}/rounds/2/publish")
    enter_and_confirm(signed_in, event, session, 2, {player_of[n]: 20 + 2 * n for n in range(1, 5)})
    signed_in.post(f"/events/{event.id}/rounds/2/close")
    refused = signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "1"})
    assert refused.status_code == 422 and "no Swiss round can follow them" in refused.text


def test_the_finals_rounds_are_named_by_their_stage_wherever_rounds_are_listed(signed_in: FlaskClient,
                                                                                session: Session) -> None:
    event, _player_of = played_finals(signed_in, session)
    # the event report: the final table's round first, then the semi-finals, then the Swiss round
    report = all_text(signed_in.get(f"/events/{event.id}/report.pdf").data)
    final = report.index("Final table · standard game · 1 table")
    semis = report.index("Semi-finals · standard game · 2 tables")
    swiss = report.index("Round 1 · standard game · 2 tables")
    assert report.index("Final places") < final < semis < swiss
    assert "Round 2" not in report and "Round 3" not in report
    assert "1 Swiss round and the finals" in report
    # the round pack and its scorepads name the stage
    pack = all_text(signed_in.get(f"/events/{event.id}/rounds/3/pack.pdf").data)
    assert "Seating: Final table" in pack and "round 3" not in pack.lower()
    # the round list, the round's page, the table's page and the audit log
    rounds = signed_in.get(f"/events/{event.id}/rounds").text
    assert re.findall(r"<strong>(Round 1|Semi-finals|Final table)</strong>", rounds) == [
        "Round 1", "Semi-finals", "Final table"]
    assert "<title>Final table · " in signed_in.get(f"/events/{event.id}/rounds/3").text
    assert "<title>Table 1 · Semi-finals" in signed_in.get(f"/events/{event.id}/rounds/2/tables/1").text
    log = signed_in.get(f"/events/{event.id}/audit").text
    for sentence in ("Semi-finals seated by seed.", "Semi-finals published.", "Final table closed.",
                     "Result of Final table, Table 1 entered.", "Cut for the finals made: 8 players."):
        assert sentence in log, sentence
    assert "Round 3" not in log, log[log.index("Round 3") - 300:log.index("Round 3") + 100]
    # the public page's results grid heads the finals' columns by their stage
    public = signed_in.get(f"/e/{event.public_code}").text
    assert '<abbr title="Semi-finals">SF</abbr>' in public and '<abbr title="Final table">F</abbr>' in public
    assert "Final table (closed)" in public


def test_the_event_report_names_the_finals_in_the_events_language(signed_in: FlaskClient, session: Session) -> None:
    from pathlib import Path

    from babel.support import Translations

    event, _player_of = played_finals(signed_in, session)
    event.language = "fr"
    session.add(event)
    session.commit()
    catalogs = Path(__file__).resolve().parents[2] / "organizer" / "core" / "translations"
    catalog = Translations.load(str(catalogs), ["fr"])
    french = catalog.gettext
    report = all_text(signed_in.get(f"/events/{event.id}/report.pdf").data)

    def heading(name: str, tables: int) -> str:
        return catalog.ngettext("%(round)s · %(kind)s · %(num)d table", "%(round)s · %(kind)s · %(num)d tables",
                                tables) % {"round": name, "kind": french("standard game"), "num": tables}

    final = heading(french("Final table"), 1)
    semis = heading(french("Semi-finals"), 2)
    swiss = heading(french("Round %(number)d") % {"number": 1}, 2)
    assert final.startswith("Table finale · ")
    assert report.index(final) < report.index(semis) < report.index(swiss)


def test_a_finalists_own_page_names_the_finals_and_waits_for_the_final(signed_in: FlaskClient, client: FlaskClient,
                                                                       session: Session) -> None:
    event, ids = one_round_event(session, 8)
    play_swiss(signed_in, session, event, {pid: 40 - 2 * i for i, pid in enumerate(ids)})
    assert signed_in.post(f"/events/{event.id}/finals/cut", data={"cut_size": "8", "version": "0"}).status_code == 302
    assert signed_in.post(f"/events/{event.id}/finals/seat", data={"version": finals_version(session, event)}).status_code == 302
    player_of = {s["seed"]: s["player_id"] for s in session.exec(select(Finals)).one().seeds}
    signed_in.post(f"/events/{event.id}/rounds/2/publish")
    enter_and_confirm(signed_in, event, session, 2, {player_of[n]: 20 + 2 * n for n in range(1, 9)})
    assert signed_in.post(f"/events/{event.id}/rounds/2/close").status_code == 302
    finalist = session.get(Player, player_of[8])
    assert finalist is not None
    # the semi-finals are closed and the final table is still to come: the event is not over
    page = " ".join(client.get(f"/p/{finalist.token}").text.split())
    assert "Semi-finals: played and closed." in page and "The event is over." not in page
    public = " ".join(client.get(f"/e/{event.public_code}").text.split())
    assert "Finished" not in public
    assert re.search(r"<tr><td>Semi-finals</td><td>\d+</td>", page)
    assert signed_in.post(f"/events/{event.id}/finals/seat", data={"version": finals_version(session, event)}).status_code == 302
    signed_in.post(f"/events/{event.id}/rounds/3/publish")
    page = " ".join(client.get(f"/p/{finalist.token}").text.split())
    assert 'class="now-round muted">Final table</p>' in page
    enter_and_confirm(signed_in, event, session, 3, {player_of[7]: 30, player_of[8]: 24})
    assert signed_in.post(f"/events/{event.id}/rounds/3/close").status_code == 302
    page = " ".join(client.get(f"/p/{finalist.token}").text.split())
    assert "The event is over." in page and re.search(r"<tr><td>Final table</td><td>1</td>", page)
    assert "Finished" in client.get(f"/e/{event.public_code}").text


def _highlighted(client: FlaskClient, page: str) -> str:
    found = re.search(r'<a class="button primary next-step"[^>]*>([^<]*)</a>', client.get(page).text)
    return found.group(1) if found else ""


def test_the_overview_leads_through_the_finals(signed_in: FlaskClient, session: Session) -> None:
    event, ids = one_round_event(session, 8)
    overview = f"/events/{event.id}"
    play_swiss(signed_in, session, event, {pid: 40 - 2 * i for i, pid in enumerate(ids)})
    # without a cut the Swiss standings are the end; with one, the finals' rounds come next
    assert _highlighted(signed_in, overview) == "Print the final standings"
    assert signed_in.post(f"/events/{event.id}/finals/cut", data={"cut_size": "8", "version": "0"}).status_code == 302
    assert _highlighted(signed_in, overview) == "Seat the semi-finals"
    assert _highlighted(signed_in, f"/events/{event.id}/rounds/1") == "Seat the semi-finals"
    assert signed_in.post(f"/events/{event.id}/finals/seat", data={"version": finals_version(session, event)}).status_code == 302
    assert _highlighted(signed_in, overview) == "Review and publish: Semi-finals"
    assert "Publish: Semi-finals" in signed_in.get(f"/events/{event.id}/rounds/2").text
    signed_in.post(f"/events/{event.id}/rounds/2/publish")
    assert _highlighted(signed_in, overview) == "Enter results: Semi-finals"
    player_of = {s["seed"]: s["player_id"] for s in session.exec(select(Finals)).one().seeds}
    enter_and_confirm(signed_in, event, session, 2, {player_of[n]: 20 + 2 * n for n in range(1, 9)})
    assert _highlighted(signed_in, overview) == "Close: Semi-finals"
    round_page = signed_in.get(f"/events/{event.id}/rounds/2").text
    assert "Its results decide the final places" in round_page and "count in the standings" not in round_page
    assert signed_in.post(f"/events/{event.id}/rounds/2/close").status_code == 302
    assert _highlighted(signed_in, overview) == "Seat the final table"
    assert "Reopen to correct a result: Semi-finals" in signed_in.get(f"/events/{event.id}/rounds/2").text
    assert signed_in.post(f"/events/{event.id}/finals/seat", data={"version": finals_version(session, event)}).status_code == 302
    signed_in.post(f"/events/{event.id}/rounds/3/publish")
    # a result kept on a tablet offline is listed by the round's name
    table = signed_in.get(f"/events/{event.id}/rounds/3/tables/1").text
    assert 'data-offline-label="Spring Open · Final table · table 1"' in table
    enter_and_confirm(signed_in, event, session, 3, {player_of[7]: 30, player_of[8]: 24})
    assert _highlighted(signed_in, overview) == "Close: Final table"
    assert signed_in.post(f"/events/{event.id}/rounds/3/close").status_code == 302
    assert _highlighted(signed_in, overview) == "Print the final standings"


def test_a_final_table_on_the_devices_names_itself_on_each_phone(signed_in: FlaskClient, client: FlaskClient,
                                                                 session: Session) -> None:
    event, ids = one_round_event(session, 8)
    play_swiss(signed_in, session, event, {pid: 40 - 2 * i for i, pid in enumerate(ids)})
    assert signed_in.post(f"/events/{event.id}/finals/cut", data={"cut_size": "4", "version": "0"}).status_code == 302
    assert signed_in.post(f"/events/{event.id}/finals/seat", data={"version": finals_version(session, event)}).status_code == 302
    assert signed_in.post(f"/events/{event.id}/rounds/2/live/tables/1/digital").status_code == 302
    signed_in.post(f"/events/{event.id}/rounds/2/publish")
    rnd = session.exec(select(Round).where(Round.event_id == event.id, Round.number == 2)).one()
    assert rnd.id is not None
    seat = round_service.tables_of(session, rnd.id)[0].seats[0].seat
    page = client.get(f"/play/{seat.token}").text
    assert "<title>Spring Open · Final table · table 1" in page
