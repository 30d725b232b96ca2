"""Accounts in the browser: invitations and resets by one-time link, roles, disabling,
one's own password and sessions; a copied session cookie stops working whenever its session ends."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.accounts import service as accounts
from organizer.core.models import AccountLink, Organizer, Role
from tests.fixtures.organizer import HX, PASSWORD, error_beside, sign_in

LINK = re.compile(r"http://localhost(/welcome/[A-Za-z0-9_-]+)")


def _invite(owner: FlaskClient, name: str, role: str = "judge") -> str:
    page = owner.post("/organizers", data={"name": name, "role": role})
    assert page.status_code == 200, page.text
    assert "<svg" in page.text, "the link is shown as a QR code for a tablet"
    match = LINK.search(page.text)
    assert match, "the invitation's link is shown"
    return match.group(1)


def _copy_of(client: FlaskClient) -> FlaskClient:
    """Another browser holding a copy of this one's session cookie."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    thief = client.application.test_client()
    thief.set_cookie("session", cookie.value)
    assert thief.get("/").status_code == 200
    return thief


def test_an_invitation_link_works_once(signed_in: FlaskClient, session: Session) -> None:
    path = _invite(signed_in, "Judge Jo")
    jo = session.exec(select(Organizer).where(Organizer.name == "Judge Jo")).one()
    assert jo.role == Role.JUDGE and jo.password_hash == ""
    assert sign_in(signed_in.application.test_client(), "Judge Jo", "anything at all").status_code == 422
    tablet = signed_in.application.test_client()
    assert "Judge Jo" in tablet.get(path).text
    response = tablet.post(path, data={"password": "tablet pw 1", "confirm": "tablet pw 1"})
    assert response.status_code == 302 and tablet.get("/").status_code == 200
    other = signed_in.application.test_client()
    again = other.post(path, data={"password": "mine now!!", "confirm": "mine now!!"})
    assert again.status_code == 410 and "already used" in again.text
    assert other.get(path).status_code == 410
    assert sign_in(other, "Judge Jo", "mine now!!").status_code == 422
    assert sign_in(other, "Judge Jo", "tablet pw 1").status_code == 302


def test_a_link_older_than_a_day_is_refused(signed_in: FlaskClient, session: Session) -> None:
    path = _invite(signed_in, "Late Larry")
    link = session.exec(select(AccountLink)).one()
    link.expires_at = link.created_at
    session.add(link)
    session.commit()
    response = signed_in.application.test_client().post(path, data={"password": "x" * 10, "confirm": "x" * 10})
    assert response.status_code == 410 and "more than a day old" in response.text


def test_bad_invitation(signed_in: FlaskClient, session: Session) -> None:
    response = signed_in.post("/organizers", data={"name": "tess", "role": "judge"}, headers=HX)
    assert response.status_code == 422
    assert "already exists" in error_beside(response.text, "name")
    assert 'value="tess"' in response.text
    response = signed_in.post("/organizers", data={"name": "Kim", "role": "emperor"}, headers=HX)
    assert response.status_code == 422 and "Choose one of" in error_beside(response.text, "role")
    assert len(session.exec(select(Organizer)).all()) == 1


def test_a_reset_link_sets_a_new_password_and_ends_every_session(signed_in: FlaskClient, session: Session) -> None:
    otto = accounts.create_organizer(session, "Otto", "otto's pw 1", role=Role.ORGANIZER)
    laptop = signed_in.application.test_client()
    assert sign_in(laptop, "Otto", "otto's pw 1").status_code == 302
    page = signed_in.post(f"/organizers/{otto.id}/reset")
    match = LINK.search(page.text)
    assert match and "Password reset for Otto" in page.text
    assert signed_in.application.test_client().post(
        match.group(1), data={"password": "otto's pw 2", "confirm": "otto's pw 2"}).status_code == 302
    assert laptop.get("/").status_code == 302
    assert sign_in(laptop, "Otto", "otto's pw 2").status_code == 302


def test_change_own_password_ends_the_other_sessions(signed_in: FlaskClient, session: Session) -> None:
    thief = _copy_of(signed_in)
    second = signed_in.application.test_client()
    assert sign_in(second).status_code == 302
    response = signed_in.post("/organizers/password", data={"current": "wrong", "new_password": "a new secret",
                                                             "new_confirm": "a new secret"})
    assert response.status_code == 422 and "not your current password" in error_beside(response.text, "current")
    response = signed_in.post("/organizers/password", data={"current": PASSWORD, "new_password": "a new secret",
                                                             "new_confirm": "different"})
    assert "differ" in error_beside(response.text, "new_confirm")
    assert thief.get("/").status_code == 200, "a refused change ends nothing"
    assert signed_in.post("/organizers/password", data={"current": PASSWORD, "new_password": "a new secret",
                                                         "new_confirm": "a new secret"}).status_code == 302
    session.expire_all()
    assert accounts.verify_password(session.exec(select(Organizer)).one().password_hash, "a new secret")
    assert signed_in.get("/").status_code == 200, "the browser that changed it stays signed in"
    assert second.get("/").status_code == 302
    assert _still_signed_in(thief) is False


def _still_signed_in(client: FlaskClient) -> bool:
    return client.get("/").status_code == 200


def test_a_copied_cookie_is_refused_after_sign_out(signed_in: FlaskClient) -> None:
    thief = _copy_of(signed_in)
    signed_in.post("/sign-out")
    assert not _still_signed_in(thief)


def test_a_copied_cookie_is_refused_after_sign_out_everywhere(signed_in: FlaskClient) -> None:
    thief = _copy_of(signed_in)
    phone = signed_in.application.test_client()
    assert sign_in(phone).status_code == 302
    assert signed_in.post("/organizers/sessions/end-all").status_code == 302
    assert not _still_signed_in(thief) and not _still_signed_in(phone) and not _still_signed_in(signed_in)


def test_a_copied_cookie_is_refused_after_disabling(signed_in: FlaskClient, session: Session) -> None:
    otto = accounts.create_organizer(session, "Otto", "otto's pw 1", role=Role.ORGANIZER)
    laptop = signed_in.application.test_client()
    assert sign_in(laptop, "Otto", "otto's pw 1").status_code == 302
    thief = _copy_of(laptop)
    assert signed_in.post(f"/organizers/{otto.id}/disable").status_code == 302
    assert not _still_signed_in(laptop) and not _still_signed_in(thief)
    assert sign_in(laptop, "Otto", "otto's pw 1").status_code == 422
    assert "disabled" in signed_in.get("/organizers").text  # the account and its name stay
    assert signed_in.post(f"/organizers/{otto.id}/enable").status_code == 302
    assert sign_in(laptop, "Otto", "otto's pw 1").status_code == 302


def test_sessions_are_listed_and_any_can_be_ended(signed_in: FlaskClient, session: Session) -> None:
    tablet = signed_in.application.test_client()

    tablet.post("/sign-in", data={"name": "Tess", "password": PASSWORD},
                headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit Chrome/120.0 Safari/537.36"})
    page = signed_in.get("/organizers").text
    assert "Chrome on Android" in page and "this browser" in page
    tablet_id = max(int(i) for i in re.findall(r"/organizers/sessions/(\d+)/end", page))
    assert signed_in.post(f"/organizers/sessions/{tablet_id}/end").status_code == 302
    assert not _still_signed_in(tablet) and _still_signed_in(signed_in)
    assert "Chrome on Android" not in signed_in.get("/organizers").text


def test_the_last_owner_cannot_be_demoted_or_disabled(signed_in: FlaskClient, session: Session) -> None:
    tess = session.exec(select(Organizer)).one()
    assert tess.role == Role.OWNER
    response = signed_in.post(f"/organizers/{tess.id}/role", data={"role": "judge"})
    assert response.status_code == 422 and "only owner" in response.text
    assert signed_in.post(f"/organizers/{tess.id}/disable").status_code == 422


def test_only_owners_manage_accounts(signed_in: FlaskClient, session: Session) -> None:
    accounts.create_organizer(session, "Otto", "otto's pw 1", role=Role.ORGANIZER)
    otto = signed_in.application.test_client()
    assert sign_in(otto, "Otto", "otto's pw 1").status_code == 302
    page = otto.get("/organizers")
    assert page.status_code == 200 and "Invite an account" not in page.text and "Your sessions" in page.text
    assert otto.post("/organizers", data={"name": "Eve", "role": "owner"}).status_code == 403
    assert otto.post("/organizers/1/role", data={"role": "judge"}).status_code == 403
    assert otto.post("/organizers/1/disable").status_code == 403
    assert len(session.exec(select(Organizer)).all()) == 2


def test_a_reset_link_dies_when_its_person_changes_the_password_themselves(signed_in: FlaskClient,
                                                                           session: Session) -> None:
    otto = accounts.create_organizer(session, "Otto", "otto's pw 1", role=Role.ORGANIZER)
    match = LINK.search(signed_in.post(f"/organizers/{otto.id}/reset").text)
    assert match
    laptop = signed_in.application.test_client()
    assert sign_in(laptop, "Otto", "otto's pw 1").status_code == 302
    changed = laptop.post("/organizers/password", data={"current": "otto's pw 1", "new_password": "otto's pw 2",
                                                        "new_confirm": "otto's pw 2"})
    assert changed.status_code == 302
    stranger = signed_in.application.test_client()
    assert stranger.get(match.group(1)).status_code == 410
    assert stranger.post(match.group(1), data={"password": "taken over", "confirm": "taken over"}).status_code == 410
    assert sign_in(stranger, "Otto", "taken over").status_code != 302
    assert sign_in(stranger, "Otto", "otto's pw 2").status_code == 302


def test_a_reset_link_dies_when_its_account_is_disabled_and_enabled_again(signed_in: FlaskClient,
                                                                          session: Session) -> None:
    otto = accounts.create_organizer(session, "Otto", "otto's pw 1", role=Role.ORGANIZER)
    match = LINK.search(signed_in.post(f"/organizers/{otto.id}/reset").text)
    assert match
    assert signed_in.post(f"/organizers/{otto.id}/disable").status_code == 302
    assert signed_in.post(f"/organizers/{otto.id}/enable").status_code == 302
    stranger = signed_in.application.test_client()
    assert stranger.get(match.group(1)).status_code == 410
    assert stranger.post(match.group(1), data={"password": "taken over", "confirm": "taken over"}).status_code == 410
    assert sign_in(stranger, "Otto", "otto's pw 1").status_code == 302
    again = LINK.search(signed_in.post(f"/organizers/{otto.id}/reset").text)  # a new link works
    assert again and stranger.get(again.group(1)).status_code == 200


def test_judges_do_not_see_players_e_mail_addresses(client: FlaskClient, session: Session) -> None:
    from organizer.core import staff
    from organizer.players import service as players
    from tests.fixtures.organizer import create_event

    accounts.create_organizer(session, "Olive", PASSWORD)  # the first account: the owner
    judge = accounts.create_organizer(session, "Jude", PASSWORD, role=Role.JUDGE)
    event = create_event(session)
    assert judge.id is not None and event.id is not None
    staff.assign_judge(session, event, judge.id, "test")
    players.add_player(session, event, "Ann Lee", "", "ann.private@example.org", "t")
    sign_in(client, "Jude")
    page = client.get(f"/events/{event.id}/players")
    assert page.status_code == 200 and "Ann Lee" in page.text and "ann.private@example.org" not in page.text
    organizer = client.application.test_client()
    sign_in(organizer, "Olive")
    assert "ann.private@example.org" in organizer.get(f"/events/{event.id}/players").text


def test_session_limits_follow_the_role_the_account_has_now(signed_in: FlaskClient, session: Session) -> None:
    from datetime import timedelta

    from organizer.core.models import AccountSession, utcnow

    otto = accounts.create_organizer(session, "Otto", "otto's pw 1", role=Role.ORGANIZER)
    laptop = signed_in.application.test_client()
    assert sign_in(laptop, "Otto", "otto's pw 1").status_code == 302

    def otto_session(idle: timedelta, age: timedelta) -> None:
        row = session.exec(select(AccountSession).where(AccountSession.organizer_id == otto.id)
                           .order_by(AccountSession.id.desc())).first()  # type: ignore[union-attr]
        assert row is not None
        row.last_seen_at, row.created_at = utcnow() - idle, utcnow() - age
        session.add(row)
        session.commit()

    otto_session(timedelta(hours=5), timedelta(hours=5))
    assert laptop.get("/").status_code == 200  # an organizer: 3 idle days
    assert signed_in.post(f"/organizers/{otto.id}/role", data={"role": "judge"}).status_code == 302
    otto_session(timedelta(hours=5), timedelta(hours=5))
    assert laptop.get("/").status_code == 302  # a judge now: 4 idle hours
    assert sign_in(laptop, "Otto", "otto's pw 1").status_code == 302
    otto_session(timedelta(minutes=5), timedelta(hours=25))
    assert laptop.get("/").status_code == 302  # and 24 hours at most
