"""The club's pages (seasons, leagues, profiles) at phone and tablet size (as ``test_every_page`` checks every page,
which walks them with made-up ids): a season's league, its projector view, a club player's
profile with the public-profile switch, the public profile itself and the player's own page with
their switch. axe-core finds no serious violation, nothing is wider than the screen, tap targets
are big enough, no word is broken."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Browser
from sqlmodel import Session, select

from tests.system.browser.support import DEVICES, _check, _device, _sign_in
from tests.system.faults.harness import ServerProcess, demo_database

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, list[str], list[str]]]:
    folder = tmp_path_factory.mktemp("club-pages")
    url = demo_database(folder / "organizer.sqlite3")
    from organizer.club import leagues, ratings, registry
    from organizer.core.db import make_engine
    from organizer.core.models import ClubPlayer, Player

    engine = make_engine(url)
    with Session(engine, expire_on_commit=False) as db:
        registry.link_unmatched(db)  # the demo's players join the registry, as the Review page's button does
        ratings.recompute(db)
        season = leagues.save_season(db, leagues.SeasonInput("Club year 2026", date(2000, 1, 1), date(2100, 12, 31)))
        player = db.exec(select(Player).where(Player.club_player_id != None)).first()  # noqa: E711
        assert player is not None and player.club_player_id is not None
        entry = registry.set_public_profile(db, player.club_player_id, True)
        private = db.exec(select(Player).where(Player.club_player_id != entry.id,
                                               Player.club_player_id != None)).first()  # noqa: E711
        assert private is not None
        organizer_pages = ["/club/ratings", f"/seasons/{season.id}", f"/seasons/{season.id}?q=a",
                           f"/seasons/{season.id}/projector", f"/club/players/{entry.id}",
                           f"/club/players/{private.club_player_id}"]
        player_pages = [f"/profile/{entry.public_code}", f"/p/{player.token}", f"/p/{private.token}"]
        assert isinstance(entry, ClubPlayer)
    engine.dispose()
    with ServerProcess(url, folder / "instance", workers=1, threads=4) as server:
        yield server, organizer_pages, player_pages


@pytest.mark.parametrize("device", list(DEVICES))
def test_club_pages_are_accessible_and_fit(browser: Browser, club: tuple[ServerProcess, list[str], list[str]],
                                          device: str) -> None:
    server, organizer_pages, player_pages = club
    page = _device(browser, DEVICES[device])
    problems: list[str] = []
    for path in player_pages:
        problems += _check(page, server.url, path, device, must_answer=True)
    _sign_in(page, server.url)
    for path in organizer_pages:
        problems += _check(page, server.url, path, device, must_answer=True)
    page.context.close()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
