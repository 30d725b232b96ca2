"""PDF downloads from the organizer's pages: each document made from a real event in the
database, read back as a person would (text, QR codes), and every refusal a page with a message."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from urllib.parse import unquote

import pytest
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from sqlmodel import Session, select

from engine.case import ScoreCase, parse_case
from organizer import demo
from organizer.core.models import Event, GameTable, Player, Round, Seat
from organizer.prints import service as prints
from organizer.prints.views import slug
from organizer.rounds import assistant, results
from organizer.rounds import service as rounds
from tests.fixtures.organizer import create_event
from tests.printing.support import A4_POINTS, LETTER_POINTS, all_text, is_pdf, page_sizes, pages_text, qr_codes
from tests.prints.support import scorepad_result

NAMES = ["Zoë Ångström", "Łukasz Kowalski", "Σοφία Παπαδοπούλου", "Дмитрий Иванов", "Ana García",
         "Björn Nyström", "Chloé Dubois", "François Lefèvre", "Greta Weiß", "Hiro Tanaka"]
CLUBS = ["Club Łódź", "", "Athens Trees", "", "", "Göteborg Spelklubb", "", "", "", ""]


@dataclass
class Setup:
    event: Event
    round: Round
    tables: list[rounds.TableSeating]


def _players(session: Session, event: Event) -> list[Player]:
    assert event.id is not None
    players = [Player(event_id=event.id, name=name, name_key=name.casefold(), club=club, checked_in=True)
               for name, club in zip(NAMES, CLUBS, strict=True)]
    session.add_all(players)
    session.commit()
    return players


def _views(session: Session, rnd: Round) -> list[rounds.TableSeating]:
    assert rnd.id is not None
    session.expire_all()
    return rounds.tables_of(session, rnd.id)


def table_case(view: rounds.TableSeating, seed: int) -> ScoreCase:
    """A legal finished standard 2018 game at this table: each player holds 7 cards and has
    planted a row of cards rising left to right, so the engine finds real paths."""
    rng = random.Random(seed)
    deck = [f"{species} {value}" for species in view.table.species for value in range(1, 9)]
    rng.shuffle(deck)
    players = []
    for seat_view in view.seats:
        assert seat_view.player is not None
        hand, planted = deck[:7], deck[7:16]
        del deck[:16]
        planted.sort(key=lambda card: int(card.rsplit(" ", 1)[1]))
        players.append({"name": seat_view.player.name, "hand": hand,
                        "arboretum": [{"x": x, "y": 0, "card": card} for x, card in enumerate(planted)]})
    return parse_case({"rules": "standard-2018", "species": list(view.table.species), "players": players})


def assistant_result(session: Session, event: Event, rnd: Round, view: rounds.TableSeating, seed: int) -> None:
    """A result through the scoring assistant: the case checked and scored by the engine, then
    stored with the engine's output."""
    submission = assistant.score_submission(view, "standard-2018", table_case(view, seed).to_json())
    results.save_result(session, event, rnd, view, submission, 0, "test")


@pytest.fixture
def played(session: Session) -> Setup:
    """Ten players seated 4 + 3 + 3 in a published round 1: table 1 entered from a scorepad,
    table 2 with the scoring assistant, table 3 still playing."""
    event = create_event(session, name="Spring Open — Café Łódź",
                         entry_modes=["totals", "scorepad", "assistant"], round_formats=["standard", "standard"])
    _players(session, event)
    rnd = rounds.propose_round(session, event, "test", seed=11)
    rounds.publish_round(session, event, rnd, "test")
    views = _views(session, rnd)
    assert [len(v.seats) for v in views] == [4, 3, 3]
    scorepad_result(session, event, rnd, views[0], seed=1)
    assistant_result(session, event, rnd, views[1], seed=2)
    return Setup(event, rnd, _views(session, rnd))


def pdf_of(response: Any) -> bytes:
    assert response.status_code == 200, response.text[:500]
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    assert is_pdf(response.data)
    return bytes(response.data)


def filename(response: Any) -> str:
    match = re.search(r'filename="([^"]+)"', response.headers["Content-Disposition"])
    assert match
    return unquote(match.group(1))


def refused(client: FlaskClient, url: str, back_to: str) -> str:
    """A PDF that cannot be made: back to the page with the button, the reason shown there."""
    response = client.get(url)
    assert response.status_code == 302, response.status_code
    assert response.headers["Location"].endswith(back_to)
    page = client.get(response.headers["Location"])
    assert page.status_code == 200 and page.mimetype == "text/html"
    message = re.search(r'<p class="flash error">([^<]*)</p>', page.text)
    assert message, page.text[:2000]
    return message.group(1).replace("&#39;", "'")


def players_at(view: rounds.TableSeating) -> list[str]:
    return [s.player.name for s in view.seats if s.player]


# -- round pack -------------------------------------------------------------------------------------


def test_round_pack_lists_every_seat_and_species(signed_in: FlaskClient, played: Setup) -> None:
    event_id = played.event.id
    page = signed_in.get(f"/events/{event_id}/rounds/1")
    assert f'href="/events/{event_id}/rounds/1/pack.pdf"' in page.text
    response = signed_in.get(f"/events/{event_id}/rounds/1/pack.pdf")
    pdf = pdf_of(response)
    assert filename(response) == "spring-open-cafe-lodz-round-1-pack.pdf"
    assert page_sizes(pdf)[0] == pytest.approx(A4_POINTS, abs=0.5)
    pages = pages_text(pdf)
    assert "Seating: Round 1" in pages[0] and "Spring Open — Café Łódź" in pages[0]
    for name in NAMES:
        assert name in pages[0] and name in pages[1], name  # seating and "find your table"
    # then one scorepad per table, headed by its number, with its players and species in play
    for view, text in zip(played.tables, pages[2:5], strict=True):
        assert f"Table {view.table.number}" in text
        for name in players_at(view):
            assert name.split()[0] in text  # a long name is shortened to fit its column
        for species in view.table.species:
            assert species in text


def test_round_pack_start_player_and_dealer_follow_the_seat_order(played: Setup, session: Session) -> None:
    data = prints.round_pack_data(session, played.event, 1, lambda r, t: f"https://x/{r}/{t}",
                                     lambda token: f"https://x/play/{token}")
    for table, view in zip(data.tables, played.tables, strict=True):
        assert [s.player for s in table.seats] == players_at(view)
        assert [s.is_start for s in table.seats] == [True] + [False] * (len(view.seats) - 1)
        assert [s.is_dealer for s in table.seats] == [False] * (len(view.seats) - 1) + [True]
        assert table.species == tuple(view.table.species)


def test_round_pack_qr_codes_lead_to_each_tables_result_entry(signed_in: FlaskClient, played: Setup) -> None:
    pdf = pdf_of(signed_in.get(f"/events/{played.event.id}/rounds/1/pack.pdf"))
    for view, page in zip(played.tables, range(2, 5), strict=True):
        url = f"http://localhost/events/{played.event.id}/rounds/1/tables/{view.table.number}"
        assert qr_codes(pdf, page) == [url]
        # and the link really is that table's page
        assert signed_in.get(url.removeprefix("http://localhost")).status_code == 200


def test_digital_table_gets_a_private_link_slip_per_seat(signed_in: FlaskClient, played: Setup,
                                                         session: Session) -> None:
    view = played.tables[2]
    table = session.get(GameTable, view.table.id)
    assert table is not None
    table.digital = True
    session.add(table)
    session.commit()
    pdf = pdf_of(signed_in.get(f"/events/{played.event.id}/rounds/1/pack.pdf"))
    slips = pages_text(pdf)[-1]
    assert "Private-link slips" in slips
    for name in players_at(view):
        assert name in slips
    found = set(qr_codes(pdf, len(page_sizes(pdf)) - 1, dpi=150))
    assert found == {f"http://localhost/play/{s.seat.token}" for s in view.seats}


def test_round_pack_refused_before_seating_and_for_a_proposal(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session)
    _players(session, event)
    message = refused(signed_in, f"/events/{event.id}/rounds/1/pack.pdf", f"/events/{event.id}/rounds")
    assert "Round 1 has no seating yet" in message
    rounds.propose_round(session, event, "test", seed=3)
    page = signed_in.get(f"/events/{event.id}/rounds/1")
    assert "pack.pdf" not in page.text and "once the round is published" in page.text
    message = refused(signed_in, f"/events/{event.id}/rounds/1/pack.pdf", f"/events/{event.id}/rounds/1")
    assert "only proposed: publish it first" in message


# -- score sheet ------------------------------------------------------------------------------------


def test_score_sheet_of_a_scoring_assistant_result(signed_in: FlaskClient, played: Setup) -> None:
    view = played.tables[1]
    base = f"/events/{played.event.id}/rounds/1/tables/{view.table.number}"
    assert f'href="{base}/score-sheet.pdf"' in signed_in.get(base).text
    response = signed_in.get(f"{base}/score-sheet.pdf")
    pdf = pdf_of(response)
    assert filename(response) == f"spring-open-cafe-lodz-round-1-table-{view.table.number}-score-sheet.pdf"
    assert view.result is not None and view.result.score_case is not None
    outcome = parse_case(view.result.score_case).score()
    summary, *player_pages = pages_text(pdf)
    assert "scoring assistant" in summary
    for player in outcome.players:
        assert player.name in summary
    assert len(player_pages) == len(outcome.players)
    for player, text in zip(outcome.players, player_pages, strict=True):
        assert player.name in text
        assert re.search(rf"\b{player.total}\b", text)
        for species, score in player.species.items():
            assert species in text
            if score.path is not None:
                assert f"{len(score.path)} cards ({len(score.path)})" in text  # the path's points explained


def test_score_sheet_refused_without_arboretums_or_result(signed_in: FlaskClient, played: Setup) -> None:
    event_id = played.event.id
    scorepad_table = f"/events/{event_id}/rounds/1/tables/1"
    assert "score-sheet.pdf" not in signed_in.get(scorepad_table).text
    message = refused(signed_in, f"{scorepad_table}/score-sheet.pdf", scorepad_table)
    assert "entered as scorepad" in message
    assert "Only scoring-assistant and digital results have arboretums" in message
    playing = f"/events/{event_id}/rounds/1/tables/3"
    message = refused(signed_in, f"{playing}/score-sheet.pdf", playing)
    assert "Table 3 of round 1 has no result yet" in message
    assert "has no table 9" in refused(signed_in, f"/events/{event_id}/rounds/1/tables/9/score-sheet.pdf",
                                       f"/events/{event_id}/rounds/1")


def draft_case(view: rounds.TableSeating, seed: int) -> dict[str, Any]:
    """A finished 4-player draft (2 rounds, 14 picks each), every pick planted in a rising row."""
    rng = random.Random(seed)
    deck = [f"{species} {value}" for species in view.table.species for value in range(1, 9)]
    rng.shuffle(deck)
    players = []
    for seat_view in view.seats:
        assert seat_view.player is not None
        planted = sorted(deck[:14], key=lambda card: int(card.rsplit(" ", 1)[1]))
        del deck[:14]
        players.append({"name": seat_view.player.name,
                        "arboretum": [{"x": x, "y": 0, "card": card} for x, card in enumerate(planted)]})
    return {"rules": "draft", "species": list(view.table.species), "players": players}


def test_draft_round_digital_tables(signed_in: FlaskClient, session: Session) -> None:
    """A draft round is played on the players' devices: every seat gets a private-link slip, no
    start player or dealer is marked, and the engine's result prints as a score sheet."""
    event = create_event(session, name="Draft Day", round_formats=["draft"])
    assert event.id is not None
    session.add_all([Player(event_id=event.id, name=name, name_key=name.casefold(), checked_in=True)
                     for name in NAMES[:8]])
    session.commit()
    rnd = rounds.propose_round(session, event, "test", seed=4)
    rounds.publish_round(session, event, rnd, "test")
    views = _views(session, rnd)
    assert [v.table.digital for v in views] == [True, True]
    data = prints.round_pack_data(session, event, 1, lambda r, t: f"https://x/{r}/{t}",
                                     lambda token: f"https://x/play/{token}")
    assert not any(seat.is_start or seat.is_dealer for table in data.tables for seat in table.seats)
    pdf = pdf_of(signed_in.get(f"/events/{event.id}/rounds/1/pack.pdf"))
    assert "START" not in all_text(pdf) and "DEALER" not in all_text(pdf)
    assert set(qr_codes(pdf, len(page_sizes(pdf)) - 1, dpi=150)) == {
        f"http://localhost/play/{s.seat.token}" for view in views for s in view.seats}

    view = views[0]
    case = parse_case(draft_case(view, seed=8))
    outcome = case.score()
    entries = [results.SeatEntry(seat_view.seat.player_id, player.total, player.species_in_arboretum,  # type: ignore[arg-type]
                                 {name: s.points for name, s in player.species.items()}, player.bonus)
               for seat_view, player in zip(view.seats, outcome.players, strict=True)]
    results.save_result(session, event, rnd, view,
                        results.Submission("digital", entries, score_case=case.to_json(),
                                           score_output=outcome.to_json()), 0, "live table")
    text = all_text(pdf_of(signed_in.get(f"/events/{event.id}/rounds/1/tables/1/score-sheet.pdf")))
    assert "digital game" in text and "every pick planted" in text
    for player in outcome.players:
        assert player.bonus == 3
        assert player.name in text and re.search(rf"\b{player.total}\b", text)


def test_bot_seat_prints_by_its_place(signed_in: FlaskClient, played: Setup, session: Session) -> None:
    """A live table where a bot took an empty seat: the bot is named by table and seat on the
    slips and in the report, and its opponents' results still count."""
    view = played.tables[2]
    table = session.get(GameTable, view.table.id)
    seat = session.get(Seat, view.seats[1].seat.id)
    assert table is not None and seat is not None
    table.digital, seat.player_id, seat.is_bot = True, None, True
    session.add_all([table, seat])
    session.commit()
    pack = all_text(pdf_of(signed_in.get(f"/events/{played.event.id}/rounds/1/pack.pdf")))
    assert "Bot (table 3, seat 2)" in pack
    view = _views(session, played.round)[2]
    entries = [results.SeatEntry(s.seat.player_id, points, 5) for s, points in zip(view.seats, (30, 40, 20), strict=True)]  # type: ignore[arg-type]
    results.save_result(session, played.event, played.round, view, results.Submission("digital", entries), 0, "live")
    for other in _views(session, played.round):
        assert other.result is not None
        results.confirm_by_organizer(session, played.event, other, other.result, other.result.version, None, "test")
    report = prints.event_report_data(session, played.event)
    bot_table = report.rounds[0].tables[2]
    assert bot_table.seats is not None
    assert [(s.player, s.place) for s in bot_table.seats] == [
        (view.seats[0].player.name, 2), ("Bot (table 3, seat 2)", 1), (view.seats[2].player.name, 3)]  # type: ignore[union-attr]
    # tournament points as the standings count them: the bot is an opponent like any other, so 30
    # beats 20 and loses to the bot's 40 for half a win
    assert [s.tournament_points for s in bot_table.seats] == [Fraction(1, 2), 1, 0]
    assert "Bot (table 3, seat 2)" in all_text(pdf_of(signed_in.get(f"/events/{played.event.id}/report.pdf")))


# -- standings and the event report -----------------------------------------------------------------


def _finish_round(session: Session, event: Event, rnd: Round) -> None:
    for view in _views(session, rnd):
        if view.result is None:
            scorepad_result(session, event, rnd, view, seed=view.table.number)
    for view in _views(session, rnd):
        assert view.result is not None
        if view.result.status != "confirmed":
            results.confirm_by_organizer(session, event, view, view.result, view.result.version, None, "test")
    rounds.close_round(session, event, rnd, "test")


def test_standings_after_each_round(signed_in: FlaskClient, played: Setup, session: Session) -> None:
    event = played.event
    page = signed_in.get(f"/events/{event.id}/standings")
    assert f'action="/events/{event.id}/standings.pdf"' in page.text and '<option value="1">round 1</option>' in page.text
    provisional = pdf_of(signed_in.get(f"/events/{event.id}/standings.pdf"))
    # table 1 and 2 entered but not confirmed, table 3 still playing
    assert "provisional: 3 tables without a confirmed result" in all_text(provisional)
    _finish_round(session, event, played.round)
    second = rounds.propose_round(session, event, "test", seed=5)
    rounds.publish_round(session, event, second, "test")
    for view in _views(session, second):
        scorepad_result(session, event, second, view, seed=10 + view.table.number)

    after_one = signed_in.get(f"/events/{event.id}/standings.pdf?after=1")
    assert filename(after_one) == "spring-open-cafe-lodz-standings-after-round-1.pdf"
    latest = signed_in.get(f"/events/{event.id}/standings.pdf")
    assert filename(latest) == "spring-open-cafe-lodz-standings-after-round-2.pdf"
    for response, after in ((after_one, 1), (latest, 2)):
        text = all_text(pdf_of(response))
        assert f"after round {after}" in text.lower()
        data = prints.standings_data(session, event, after)
        assert len(data.rows) == len(NAMES)
        for row in data.rows:
            assert row.player in text
            assert row.games == after
        # ranked as the standings service ranks them: first line of the table is the leader
        assert text.index(data.rows[0].player) < text.index(data.rows[-1].player)
    assert "provisional" not in all_text(after_one.data)  # round 1 is closed
    assert "provisional: 3 tables without a confirmed result" in all_text(latest.data)  # round 2: entered only
    message = refused(signed_in, f"/events/{event.id}/standings.pdf?after=3", f"/events/{event.id}/standings")
    assert "Round 3 has not been played" in message and "after round 1, 2" in message
    assert "choose the round" in refused(signed_in, f"/events/{event.id}/standings.pdf?after=x",
                                         f"/events/{event.id}/standings")


def test_standings_refused_before_any_round(signed_in: FlaskClient, event: Event) -> None:
    message = refused(signed_in, f"/events/{event.id}/standings.pdf", f"/events/{event.id}/standings")
    assert "No round has been published yet" in message


def test_event_report_needs_every_result_then_holds_every_table(signed_in: FlaskClient, played: Setup,
                                                                session: Session) -> None:
    event = played.event
    overview = signed_in.get(f"/events/{event.id}")
    assert f'href="/events/{event.id}/report.pdf"' in overview.text
    message = refused(signed_in, f"/events/{event.id}/report.pdf", f"/events/{event.id}")
    assert "Round 1, table 3 has no result yet" in message
    _finish_round(session, event, played.round)
    response = signed_in.get(f"/events/{event.id}/report.pdf")
    text = all_text(pdf_of(response))
    assert filename(response) == "spring-open-cafe-lodz-report.pdf"
    data = prints.event_report_data(session, event)
    assert [len(t.seats or ()) for t in data.rounds[0].tables] == [4, 3, 3]
    for table in data.rounds[0].tables:
        assert table.seats is not None
        # tournament points ("beaten" scheme): a table's points add up to its player count / 2
        assert sum(s.tournament_points for s in table.seats) == pytest.approx(len(table.seats) / 2)
        assert min(s.place for s in table.seats) == 1
        for seat in table.seats:
            assert seat.player in text
    assert "scoring assistant" in text and "scorepad" in text
    standings = prints.standings_data(session, event, 1)
    assert [r.player for r in data.final_standings] == [r.player for r in standings.rows]


def test_disputed_result_stops_the_report(signed_in: FlaskClient, played: Setup, session: Session) -> None:
    view = played.tables[0]
    assert view.result is not None
    results.dispute(session, played.event, view, view.result, view.result.version, "wrong Oak", "test")
    message = refused(signed_in, f"/events/{played.event.id}/report.pdf", f"/events/{played.event.id}")
    assert "Round 1, table 1: the result is disputed" in message


def test_demo_event_prints(client: FlaskClient, session: Session) -> None:
    """What a newcomer sees first: the demo event's round pack and standings print; its event
    report waits for table 3; its scorepad results have no score sheet."""
    demo.ensure_demo(session)
    client.post("/sign-in", data={"name": demo.DEMO_ACCOUNT, "password": demo.DEMO_PASSWORD})
    event = session.exec(select(Event).where(Event.name == demo.DEMO_EVENT)).one()
    pack = all_text(pdf_of(client.get(f"/events/{event.id}/rounds/1/pack.pdf")))
    standings = all_text(pdf_of(client.get(f"/events/{event.id}/standings.pdf")))
    for name, _ in demo.DEMO_PLAYERS:
        assert name in pack and name in standings
    assert "Round 1, table 3 has no result yet" in refused(client, f"/events/{event.id}/report.pdf",
                                                           f"/events/{event.id}")
    table = f"/events/{event.id}/rounds/1/tables/1"
    assert "entered as scorepad" in refused(client, f"{table}/score-sheet.pdf", table)


# -- sign-in and the public blank scorepad ----------------------------------------------------------


def test_organizer_pdfs_need_sign_in(client: FlaskClient, played: Setup) -> None:
    event_id = played.event.id
    for url in (f"/events/{event_id}/rounds/1/pack.pdf", f"/events/{event_id}/rounds/1/tables/2/score-sheet.pdf",
                f"/events/{event_id}/standings.pdf?after=1", f"/events/{event_id}/report.pdf"):
        response = client.get(url)
        assert response.status_code == 302 and "/sign-in" in response.headers["Location"], url
        assert not response.data.startswith(b"%PDF")


def test_blank_scorepad_is_public(client: FlaskClient) -> None:
    page = client.get("/scorepad")
    assert page.status_code == 200
    assert 'href="/scorepad"' in page.text  # linked from the top bar
    assert 'name="players" value="4" checked' in page.text
    response = client.get("/scorepad.pdf?players=3&edition=2010&paper=letter")
    pdf = pdf_of(response)
    assert filename(response) == "arboretum-scorepad-3-players-2010-letter.pdf"
    assert page_sizes(pdf) == [pytest.approx(LETTER_POINTS, abs=0.5)]
    text = all_text(pdf)
    for species in ("Cassia", "Crabapple", "Lilac", "Myrtle", "Poinciana", "Poplar", "Willow"):  # the 2010 ten
        assert species in text
    default = pdf_of(client.get("/scorepad.pdf"))
    assert page_sizes(default) == [pytest.approx(A4_POINTS, abs=0.5)]


@pytest.mark.parametrize("query, field, message", [
    ("players=5", "players", "2, 3 or 4 players"),
    ("edition=2020", "edition", "2018 or the 2010"),
    ("paper=a3", "paper", "A4 or US Letter"),
])
def test_blank_scorepad_bad_choice_shows_the_form(client: FlaskClient, query: str, field: str, message: str) -> None:
    response = client.get(f"/scorepad.pdf?{query}")
    assert response.status_code == 422 and response.mimetype == "text/html"
    assert re.search(rf'id="e-{field}">[^<]*{re.escape(message)}', response.text)


def test_unknown_paper_for_an_organizer_pdf_is_a_message(signed_in: FlaskClient, played: Setup) -> None:
    message = refused(signed_in, f"/events/{played.event.id}/rounds/1/pack.pdf?paper=a3",
                      f"/events/{played.event.id}/rounds/1")
    assert "Unknown paper 'a3': expected a4 or letter" in message
    letter = pdf_of(signed_in.get(f"/events/{played.event.id}/rounds/1/pack.pdf?paper=letter"))
    assert page_sizes(letter)[0] == pytest.approx(LETTER_POINTS, abs=0.5)


@given(st.text(max_size=200))
def test_file_names_are_safe_whatever_the_event_name(name: str) -> None:
    """The event's name goes into Content-Disposition: never a quote, a slash or a line break."""
    made = slug(name)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", made) and len(made) <= 60


def test_file_names_read_like_the_event() -> None:
    assert slug("Spring Open — Café Łódź") == "spring-open-cafe-lodz"
    assert slug("Σοφία's Cup") == "s-cup"
    assert slug("東京") == "event"


def test_printed_matter_speaks_the_events_language_whatever_the_device_says(signed_in: FlaskClient, session: Session,
                                                                             event: Event) -> None:
    """A French event prints in French even from a German organizer's tablet."""
    from pathlib import Path

    from babel.support import Translations

    from tests.fixtures.organizer import add_players
    from tests.printing.support import all_text

    catalogs = Path(__file__).resolve().parents[2] / "organizer" / "core" / "translations"
    french = Translations.load(str(catalogs), ["fr"]).gettext
    german = Translations.load(str(catalogs), ["de"]).gettext
    event.language = "fr"
    session.add(event)
    session.commit()
    add_players(session, event, 2)
    signed_in.set_cookie("lang", "de")
    cards = all_text(signed_in.get(f"/events/{event.id}/player-cards.pdf").data)
    assert " ".join(french("Your table, your results, check-in: scan me").split()) in " ".join(cards.split())
    # the blank scorepad belongs to no event: it speaks the reader's language
    blank = all_text(signed_in.get("/scorepad.pdf?players=4&edition=2018&paper=a4").data)
    assert german("Arboretum scorepad") in blank
