"""The players' side of an event in a real browser: eight players on eight phones open
the public page from the QR code on the event overview, find their tables, check themselves in
from their own pages, and report and confirm round 1 at two tables (one in totals, one with the
scoring assistant), with one dispute the organizer settles. Every public and player response is
scanned for other players' e-mail addresses and tokens."""

from __future__ import annotations

import io
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from tests.system.browser.conftest import PHONE, TABLET, no_js_errors, shot
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
NAMES = ["Ada Moss", "Bram Oakley", "Cleo Birch", "Dev Patel", "Esme Rowan", "Finn Alder", "Gia Laurel", "Hugo Thorn"]


def prepare(database_url: str) -> int:
    from organizer.accounts import service as accounts
    from organizer.core.db import make_engine, upgrade_database
    from organizer.core.models import Player
    from organizer.events import service as events

    engine = make_engine(database_url)
    upgrade_database(engine)
    with Session(engine, expire_on_commit=False) as db:
        accounts.create_organizer(db, "Tess", PASSWORD)
        event = events.create_event(db, events.EventInput(name="Riverside Club Night", date=date(2026, 4, 18),
                                                          entry_modes=["totals", "assistant"]), None, "test")
        event.self_check_in, event.self_report = True, "players"
        db.add(event)
        assert event.id is not None
        db.add_all([Player(event_id=event.id, name=name, name_key=name.casefold(), email=f"p{i}@example.org")
                    for i, name in enumerate(NAMES)])
        db.commit()
        event_id = event.id
    engine.dispose()
    return event_id


def seat_round(database_url: str, event_id: int) -> None:
    from organizer.core.db import make_engine
    from organizer.core.models import Event
    from organizer.rounds import service as rounds

    engine = make_engine(database_url)
    with Session(engine, expire_on_commit=False) as db:
        event = db.get(Event, event_id)
        assert event is not None
        first = rounds.propose_round(db, event, "Tess", seed=3)
        rounds.publish_round(db, event, first, "Tess")
    engine.dispose()


def secrets(database_url: str) -> dict[str, list[str]]:
    """Everything no public page may show: e-mail addresses, player and seat tokens."""
    from organizer.core.db import make_engine
    from organizer.core.models import Player, Seat

    engine = make_engine(database_url)
    with Session(engine) as db:
        players = db.exec(select(Player)).all()
        found = {"emails": [p.email for p in players], "tokens": [p.token for p in players],
                 "seats": [s.token for s in db.exec(select(Seat)).all()]}
    engine.dispose()
    return found


ENTERED = re.compile(r"Result entered, waiting for confirmation \(version 1\)")
CONFIRMED = re.compile(r"Result confirmed \(version \d+\)")


def result_of(page: Page) -> Any:
    """The state of the table's result as the player's page says it."""
    return page.locator("#player-status h3.result-heading")


def qr_link(page: Page) -> str:
    import zxingcpp
    from PIL import Image

    image = Image.open(io.BytesIO(page.locator("#players-side svg.qr").screenshot()))
    codes = zxingcpp.read_barcodes(image)
    assert codes, "the QR code on the event overview does not scan"
    return str(codes[0].text)


def test_eight_phones(new_device: Any, tmp_path: Path) -> None:
    database_url = f"sqlite:///{tmp_path / 'organizer.sqlite3'}"
    event_id = prepare(database_url)
    with ServerProcess(database_url, tmp_path / "instance", workers=2, threads=4) as server:
        base = server.url
        bodies: list[tuple[str, str]] = []

        def watch(page: Page) -> Page:
            page.on("response", lambda r: bodies.append((r.url, r.text())) if re.search(r"/(e|p)/", r.url)
                    and r.status != 204 and r.request.method in ("GET", "POST") else None)
            return page

        organizer = new_device(TABLET)
        organizer.goto(base + "/sign-in")
        organizer.get_by_label("Name").fill("Tess")
        organizer.get_by_label("Password").fill(PASSWORD)
        organizer.get_by_role("button", name="Sign in").click()
        organizer.goto(f"{base}/events/{event_id}")
        public_url = qr_link(organizer)
        assert re.search(r"/e/[\w-]{16}$", public_url)
        shot(organizer, "players-side-overview")

        from organizer.core.db import make_engine
        from organizer.core.models import Player

        engine = make_engine(database_url)
        with Session(engine) as db:
            tokens = {p.name: p.token for p in db.exec(select(Player)).all()}
        engine.dispose()

        phones = {name: watch(new_device(PHONE)) for name in NAMES}
        for name, phone in phones.items():
            phone.goto(base + "/p/" + tokens[name])
            phone.get_by_role("button", name="I am here: check me in").click()
            expect(phone.get_by_text("Checked in")).to_be_visible()
        shot(phones[NAMES[0]], "players-side-checked-in")

        seat_round(database_url, event_id)
        tables: dict[int, list[str]] = {}
        for name, phone in phones.items():
            phone.goto(public_url)
            phone.get_by_label("Find your table").fill(name.split()[0])
            card = phone.locator("#public-tables li.card")
            expect(card).to_have_count(1)
            number = int(re.search(r"Table (\d+)", card.inner_text()).group(1))  # type: ignore[union-attr]
            tables.setdefault(number, []).append(name)
        assert sorted(tables) == [1, 2] and all(len(names) == 4 for names in tables.values())
        shot(phones[NAMES[0]], "players-side-public")

        for name, phone in phones.items():
            phone.goto(base + "/p/" + tokens[name])
        # table 1 in totals: one reports, the other three agree
        first = phones[tables[1][0]]
        form = first.locator("form").filter(has_text="Totals")
        for index, field in enumerate(form.locator("input[name^=points_]").all()):
            field.fill(str(40 - index * 5))
        for field in form.locator("input[name^=species_]").all():
            field.fill("4")
        form.get_by_role("button", name="Send the result").click()
        expect(result_of(first)).to_have_text(ENTERED)
        for name in tables[1][1:]:
            phones[name].reload()
            phones[name].get_by_role("button", name="I agree").click()
        expect(result_of(phones[tables[1][-1]])).to_have_text(CONFIRMED)

        # table 2 with the scoring assistant, then a dispute the organizer settles
        second = phones[tables[2][0]]
        form = second.locator("form").filter(has_text="Scoring assistant")
        form.locator("summary").click()  # each way of entering a result folds away; the first is open
        from organizer.core.models import GameTable

        engine = make_engine(database_url)
        with Session(engine) as db:
            in_play = db.exec(select(GameTable).where(GameTable.number == 2)).one().species
        engine.dispose()
        for index, area in enumerate(form.locator("textarea").all()):
            area.fill(f"0,0 {in_play[2 * index]} 1\n1,0 {in_play[2 * index]} {2 + index}")
        for index, hand in enumerate(form.locator("input[name^=hand_]").all()):
            hand.fill(", ".join(f"{in_play[2 * index + 1]} {value}" for value in range(1, 8)))
        form.get_by_role("button", name="Send the result").click()
        expect(result_of(second)).to_have_text(ENTERED)
        doubter = phones[tables[2][1]]
        doubter.reload()
        doubter.get_by_label("Something wrong?").fill("Bram's hand had the 8")
        doubter.get_by_role("button", name="Dispute").click()
        expect(result_of(doubter)).to_have_text(re.compile(r"Result disputed: the organizer checks it \(version 1\)"))

        organizer.goto(f"{base}/events/{event_id}/rounds/1")
        expect(organizer.locator("#attention")).to_contain_text("disputed")
        shot(organizer, "players-side-attention")
        organizer.locator("#attention a", has_text="Table 2").click()
        organizer.get_by_role("button", name=re.compile("Organizer confirms")).click()
        expect(organizer.locator("h2 .badge")).to_have_text(re.compile(r"\bconfirmed$"))
        doubter.reload()
        expect(result_of(doubter)).to_have_text(CONFIRMED)

        found = secrets(database_url)
        own = {tokens[name] for name in NAMES}
        for url, body in bodies:
            for email in found["emails"]:
                assert email not in body, f"{url} shows {email}"
            for token in found["tokens"] + found["seats"]:
                if token in url and token in own:
                    continue  # a player's own page shows its own token in its links
                assert token not in body, f"{url} shows another player's or a seat's token"
        assert len(bodies) > 30
        for phone in phones.values():
            no_js_errors(phone)
