"""A club player's public profile: only with their consent (given by the organizer or from their
own page), at an unguessable address, showing their events, results and rating, nothing private."""

from __future__ import annotations

import re
from datetime import date

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.club import ratings
from organizer.core.models import ClubPlayer, Event, Player
from organizer.players import service as player_service
from tests.club.support import play_event


def _setup(session: Session) -> tuple[ClubPlayer, Player]:
    play_event(session, "Jan Night", date(2026, 1, 10), [[[("Ann Lee", 50, 5), ("Bo Ek", 40, 4)]]])
    feb = play_event(session, "Feb Night", date(2026, 2, 10), [[[("Ann Lee", 30, 5), ("Bo Ek", 40, 4)]]])
    ratings.recompute(session)
    ann = session.exec(select(ClubPlayer).where(ClubPlayer.name == "Ann Lee")).one()
    ann.email = "ann.secret@example.org"
    session.add(ann)
    player = session.exec(select(Player).where(Player.event_id == feb.id, Player.name == "Ann Lee")).one()
    player.email = "ann.secret@example.org"
    session.add(player)
    session.commit()
    return ann, player


def test_profile_is_a_404_until_the_player_agrees_and_again_once_they_withdraw(
        client: FlaskClient, signed_in: FlaskClient, session: Session) -> None:
    ann, _player = _setup(session)
    url = f"/profile/{ann.public_code}"
    assert len(ann.public_code) >= 16 and str(ann.id) != ann.public_code
    signed_in.post("/sign-out")
    assert client.get(url).status_code == 404
    assert client.get(f"/profile/{ann.id}").status_code == 404  # never the numeric id
    assert client.get("/profile/not-a-code").status_code == 404


def test_organizer_records_the_consent_on_the_profile(signed_in: FlaskClient, session: Session) -> None:
    ann, _player = _setup(session)
    page = signed_in.get(f"/club/players/{ann.id}")
    assert "The player agreed: make the profile public" in page.text
    done = signed_in.post(f"/club/players/{ann.id}/public", data={"public_profile": "1"})
    assert done.status_code == 302
    session.refresh(ann)
    assert ann.public_profile
    page = signed_in.get(f"/club/players/{ann.id}")
    assert f"/profile/{ann.public_code}" in page.text and "Make the profile private" in page.text
    shown = signed_in.get(f"/profile/{ann.public_code}")
    assert shown.status_code == 200 and "Ann Lee" in shown.text
    signed_in.post(f"/club/players/{ann.id}/public", data={"public_profile": "0"})
    assert signed_in.get(f"/profile/{ann.public_code}").status_code == 404
    assert signed_in.post("/club/players/99999/public", data={"public_profile": "1"}).status_code == 404


def test_player_sets_it_from_their_own_page(client: FlaskClient, session: Session) -> None:
    ann, player = _setup(session)
    page = client.get(f"/p/{player.token}")
    assert page.status_code == 200 and "Your profile is private" in page.text
    assert f"/profile/{ann.public_code}" not in page.text
    done = client.post(f"/p/{player.token}/profile", data={"public_profile": "1"})
    assert done.status_code == 302 and done.headers["Location"].startswith(f"/p/{player.token}")
    page = client.get(f"/p/{player.token}")
    assert f"/profile/{ann.public_code}" in page.text and "Make my profile private" in page.text
    assert client.get(f"/profile/{ann.public_code}").status_code == 200
    client.post(f"/p/{player.token}/profile", data={"public_profile": "0"})
    assert client.get(f"/profile/{ann.public_code}").status_code == 404
    assert client.post("/p/no-such-token/profile", data={"public_profile": "1"}).status_code == 404


def test_an_unmatched_player_sees_no_switch_and_cannot_set_one(client: FlaskClient, session: Session) -> None:
    event = session.exec(select(Event)).first() or play_event(session, "Mar", date(2026, 3, 1), [])
    loner = player_service.add_player(session, event, "Cy Unlinked", "", "", "t")
    loner.club_player_id = None
    session.add(loner)
    session.commit()
    assert "Your club profile" not in client.get(f"/p/{loner.token}").text
    assert client.post(f"/p/{loner.token}/profile", data={"public_profile": "1"}).status_code == 404


def test_public_profile_shows_events_results_and_rating_and_nothing_private(
        client: FlaskClient, session: Session) -> None:
    ann, player = _setup(session)
    client.post(f"/p/{player.token}/profile", data={"public_profile": "1"})
    page = client.get(f"/profile/{ann.public_code}")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    text = page.text
    assert "Ann Lee" in text and "Jan Night" in text and "Feb Night" in text and "<svg" in text
    # the events' results: Jan 1 point (50 game points), Feb 0 (30)
    assert re.search(r"Jan Night</td>\s*<td>1.00</td><td>50</td>", text)
    assert re.search(r"Feb Night</td>\s*<td>0.00</td><td>30</td>", text)
    # leakage scan: no e-mail, no player's link, no seat or event code, no registry number, no
    # organizer page, no other player's name
    secrets = ["ann.secret", "example.org", "@", f"/club/players/{ann.id}", "Registry no", "Bo Ek"]
    for row in session.exec(select(Player)).all():
        secrets.append(row.token)
    for event in session.exec(select(Event)).all():
        secrets.append(event.public_code)
    for entry in session.exec(select(ClubPlayer)).all():
        if entry.id != ann.id:
            secrets.append(entry.public_code)
    leaked = [secret for secret in secrets if secret in text]
    assert leaked == []
