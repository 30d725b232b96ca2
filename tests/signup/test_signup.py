"""Signing up on the public page: the cap and its waiting list, promotion on withdrawal,
a second sign-up refused, expiry, the own page and the organizer's list."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import AuditEntry, Event, Player, Signup, SignupSettings
from organizer.signup import service


def open_signup(session: Session, event: Event, cap: int | None = None, approval: bool = False) -> None:
    session.add(SignupSettings(event_id=event.id, open=True, cap=cap, approval=approval))
    session.commit()


def sign(session: Session, event: Event, name: str, email: str | None = None) -> Signup:
    form = {"name": name, "club": "", "email": email or f"{name.split()[0].lower()}@example.org", "note": ""}
    return service.sign_up(session, event, form, f"10.0.0.{len(name)}", confirm_by_email=False)


def test_cap_waiting_list_and_promotion(session: Session, event: Event) -> None:
    open_signup(session, event, cap=2)
    ann, bo, cy, di = (sign(session, event, n) for n in ("Ann Lee", "Bo Chen", "Cy Ng", "Di Fox"))
    assert [s.status for s in (ann, bo, cy, di)] == ["confirmed", "confirmed", "waiting", "waiting"]
    assert [service.waiting_number(session, s) for s in (cy, di)] == [1, 2]
    assert sorted(p.name for p in session.exec(select(Player).where(Player.event_id == event.id))) == ["Ann Lee", "Bo Chen"]
    promoted = service.withdraw(session, bo.token)
    assert [s.name for s in promoted] == ["Cy Ng"]
    session.expire_all()
    assert sorted(p.name for p in session.exec(select(Player).where(Player.event_id == event.id))) == ["Ann Lee", "Cy Ng"]
    assert service.waiting_number(session, session.get(Signup, di.id)) == 1
    actions = [a.action for a in session.exec(select(AuditEntry).where(AuditEntry.event_id == event.id))]
    assert "signup.withdrawn" in actions and "signup.promoted" in actions


def test_second_sign_up_is_refused_kindly(session: Session, event: Event) -> None:
    open_signup(session, event)
    sign(session, event, "Ann Lee", "ann@example.org")
    for name, email in (("Ann Lee", "other@example.org"), ("Someone Else", "ANN@example.org")):
        try:
            sign(session, event, name, email)
        except service.InputError as refused:
            assert "signed up for this event already" in refused.errors[""]
        else:
            raise AssertionError("a second sign-up was taken")


def test_bad_input_is_refused_as_the_player_form_refuses_it(session: Session, event: Event) -> None:
    open_signup(session, event)
    try:
        sign(session, event, "Ann\x00Lee", "not-an-address")
    except service.InputError as refused:
        assert set(refused.errors) == {"name", "email"}
    else:
        raise AssertionError("bad input was taken")


def test_unconfirmed_sign_ups_expire_and_do_not_count(session: Session, event: Event) -> None:
    open_signup(session, event, cap=1)
    form = {"name": "Ann Lee", "email": "ann@example.org"}
    ann = service.sign_up(session, event, form, "10.0.0.1", confirm_by_email=True)
    assert ann.status == "unconfirmed" and session.exec(select(Player)).first() is None
    ann.created_at -= timedelta(hours=service.CONFIRM_HOURS + 1)
    session.add(ann)
    session.commit()
    assert service.expired(ann)
    try:
        service.confirm(session, ann.token, ann.email_code)
    except service.InputError as refused:
        assert "expired" in refused.errors[""]
    bo = sign(session, event, "Bo Chen")  # the expired sign-up holds no place and no e-mail
    assert bo.status == "confirmed"


def test_rate_limited_per_email(session: Session, event: Event) -> None:
    open_signup(session, event)
    for n in range(service.PER_EMAIL):
        service.sign_up(session, event, {"name": f"P{n}", "email": "same@example.org"}, f"10.1.0.{n}", True)
        session.exec(select(Signup)).all()[-1].status = "withdrawn"
        session.commit()
    try:
        service.sign_up(session, event, {"name": "Px", "email": "same@example.org"}, "10.1.0.9", True)
    except service.RateLimited:
        pass
    else:
        raise AssertionError("not rate limited")


def test_public_form_and_own_page(client: FlaskClient, session: Session, event: Event) -> None:
    open_signup(session, event, cap=1)
    assert "Sign up" in client.get(f"/e/{event.public_code}").text
    reply = client.post(f"/e/{event.public_code}/sign-up", data={"name": "Ann Lee", "email": "ann@example.org"})
    assert reply.status_code == 303
    page = client.get(reply.headers["Location"]).text
    assert "Confirmed: you are a player of this event." in page
    bad = client.post(f"/e/{event.public_code}/sign-up", data={"name": "", "email": "x"})
    assert bad.status_code == 422 and 'id="e-name"' in bad.text
    reply = client.post(f"/e/{event.public_code}/sign-up", data={"name": "Bo Chen", "email": "bo@example.org"})
    bo = session.exec(select(Signup).where(Signup.name == "Bo Chen")).one()
    assert "waiting list: number 1" in client.get(f"/p/{bo.token}", follow_redirects=True).text


def test_organizer_list_and_csv(signed_in: FlaskClient, session: Session, event: Event) -> None:
    open_signup(session, event)
    sign(session, event, "Ann Lee")
    assert "Ann Lee" in signed_in.get(f"/events/{event.id}/sign-ups").text
    csv_text = signed_in.get(f"/events/{event.id}/sign-ups.csv").text
    assert csv_text.splitlines()[1].startswith("Ann Lee,,ann@example.org,,confirmed")


def test_a_confirmed_player_page_leads_to_the_sign_up(client: FlaskClient, session: Session, event: Event) -> None:
    open_signup(session, event)
    ann = sign(session, event, "Ann Lee")
    page = client.get(f"/p/{ann.token}")
    assert page.status_code == 200 and f"/p/{ann.token}/sign-up" in page.text


def test_approval_and_moves_are_audited(signed_in: FlaskClient, session: Session, event: Event) -> None:
    open_signup(session, event, cap=1, approval=True)
    ann, bo = sign(session, event, "Ann Lee"), sign(session, event, "Bo Chen")
    assert (ann.status, bo.status) == ("approval", "approval")
    assert "Awaiting approval" in signed_in.get(f"/events/{event.id}/sign-ups").text
    for signup in (ann, bo):
        assert signed_in.post(f"/events/{event.id}/sign-ups/{signup.id}/move", data={"to": "approve"}).status_code == 302
    session.expire_all()
    assert (session.get(Signup, ann.id).status, session.get(Signup, bo.id).status) == ("confirmed", "waiting")
    signed_in.post(f"/events/{event.id}/sign-ups/{ann.id}/move", data={"to": "wait"})
    signed_in.post(f"/events/{event.id}/sign-ups/{bo.id}/move", data={"to": "confirm"})
    session.expire_all()
    assert (session.get(Signup, ann.id).status, session.get(Signup, bo.id).status) == ("waiting", "confirmed")
    assert [p.name for p in session.exec(select(Player).where(Player.event_id == event.id))] == ["Bo Chen"]
    refused = signed_in.post(f"/events/{event.id}/sign-ups/{ann.id}/move", data={"to": "approve"})
    assert refused.status_code == 409 and "cannot be moved there now" in refused.text
    actions = [a.action for a in session.exec(select(AuditEntry).where(AuditEntry.event_id == event.id))]
    assert actions.count("signup.moved.approve") == 2 and "signup.moved.wait" in actions


def test_settings_are_validated_and_a_stale_form_changes_nothing(signed_in: FlaskClient, session: Session,
                                                                 event: Event) -> None:
    url = f"/events/{event.id}/sign-ups/settings"
    bad = signed_in.post(url, data={"open": "1", "cap": "lots", "version": "0"})
    assert bad.status_code == 422 and "from 1 to 10000" in bad.text
    assert signed_in.post(url, data={"open": "1", "cap": "8", "version": "0"}).status_code == 302
    stale = signed_in.post(url, data={"open": "", "cap": "3", "version": "0"})
    assert stale.status_code == 409 and "changed since you opened it" in stale.text
    settings = session.get(SignupSettings, event.id)
    session.refresh(settings)
    assert settings.open and settings.cap == 8


def _settings(session: Session, event: Event) -> SignupSettings:
    session.expire_all()
    found = session.get(SignupSettings, event.id)
    assert found is not None
    return found


def test_the_closing_time_is_the_events_local_time(signed_in: FlaskClient, client: FlaskClient, session: Session,
                                                   event: Event) -> None:
    event.time_zone = "Europe/Berlin"
    session.add(event)
    session.commit()
    url = f"/events/{event.id}/sign-ups/settings"
    page = signed_in.get(f"/events/{event.id}/sign-ups").text
    assert "Closes at (local time, Europe/Berlin)" in page
    # 18:00 in Berlin in winter is 17:00 UTC; the form shows what was typed, the public form names the zone
    assert signed_in.post(url, data={"open": "1", "closes_at": "2031-12-31T18:00", "version": "0"}).status_code == 302
    closes = _settings(session, event).closes_at
    assert closes is not None and closes.replace(tzinfo=UTC) == datetime(2031, 12, 31, 17, 0, tzinfo=UTC)
    page = signed_in.get(f"/events/{event.id}/sign-ups").text
    assert re.search(r'name="closes_at" type="datetime-local" value="2031-12-31T18:00"', page)
    assert re.search(r"Sign-up closes December 31, 2031, 6:00\sPM CET\.", page)
    public = client.get(f"/e/{event.public_code}/sign-up", headers={"Accept-Language": "de"}).text
    assert "31. Dezember 2031, 18:00 CET" in public
    # in summer the same clock time is an hour earlier in UTC, and the zone says so
    assert signed_in.post(url, data={"open": "1", "closes_at": "2031-07-01 18:00", "version": "1"}).status_code == 302
    closes = _settings(session, event).closes_at
    assert closes is not None and closes.replace(tzinfo=UTC) == datetime(2031, 7, 1, 16, 0, tzinfo=UTC)
    assert "18:00 CEST" in client.get(f"/e/{event.public_code}/sign-up", headers={"Accept-Language": "de"}).text


def test_a_closing_time_that_is_not_a_time_is_refused_beside_the_field(signed_in: FlaskClient, session: Session,
                                                                       event: Event) -> None:
    event.time_zone = "Europe/Berlin"
    session.add(event)
    session.commit()
    url = f"/events/{event.id}/sign-ups/settings"
    for typed, message in (("next friday", "Enter a date and time such as 2026-12-31 18:00."),
                           ("2031-03-30T02:30", "2031-03-30 02:30 does not exist in Europe/Berlin: the clocks go "
                                                "forward then.")):
        bad = signed_in.post(url, data={"open": "1", "closes_at": typed, "version": "0"})
        assert bad.status_code == 422
        field = bad.text[bad.text.index('id="f-closes_at"'):]
        assert 'aria-invalid="true"' in field[:300] and message in field[:1200], typed
        assert session.get(SignupSettings, event.id) is None
    french = signed_in.post(url, data={"open": "1", "closes_at": "bientôt", "version": "0"},
                            headers={"Accept-Language": "fr"})
    assert french.status_code == 422 and "Saisissez une date et une heure" in french.text


def test_closed_sign_up_refuses(client: FlaskClient, session: Session, event: Event) -> None:
    session.add(SignupSettings(event_id=event.id, open=True, closes_at=service.utcnow() - timedelta(minutes=1)))
    session.commit()
    assert "Sign up" not in client.get(f"/e/{event.public_code}").text
    reply = client.post(f"/e/{event.public_code}/sign-up", data={"name": "Ann Lee", "email": "ann@example.org"})
    assert reply.status_code == 422 and "closed" in reply.text


def test_rate_limited_per_address_over_http(client: FlaskClient, session: Session, event: Event) -> None:
    open_signup(session, event)
    for n in range(service.PER_ADDRESS):
        client.post(f"/e/{event.public_code}/sign-up", data={"name": f"Person {n}", "email": f"p{n}@example.org"})
    reply = client.post(f"/e/{event.public_code}/sign-up", data={"name": "One More", "email": "more@example.org"})
    assert reply.status_code == 429 and "Too many sign-ups" in reply.text and reply.headers["Retry-After"]


def test_only_organizers_see_the_sign_ups(client: FlaskClient, event: Event) -> None:
    assert client.get(f"/events/{event.id}/sign-ups").status_code in (302, 401, 403)
    assert client.get(f"/events/{event.id}/sign-ups.csv").status_code in (302, 401, 403)


def test_a_move_from_a_stale_list_changes_nothing(signed_in: FlaskClient, session: Session, event: Event) -> None:
    """Two organizers' lists show Ann awaiting approval; one approves her, the other, from the
    list as it was, refuses: she stays a player, and the second organizer is told why."""
    open_signup(session, event, approval=True)
    ann = sign(session, event, "Ann Lee")
    url = f"/events/{event.id}/sign-ups/{ann.id}/move"
    assert 'name="from" value="approval"' in signed_in.get(f"/events/{event.id}/sign-ups").text
    assert signed_in.post(url, data={"to": "approve", "from": "approval"}).status_code == 302
    stale = signed_in.post(url, data={"to": "refuse", "from": "approval"})
    assert stale.status_code == 409 and "Ann Lee was moved meanwhile; nothing was changed." in stale.text
    session.expire_all()
    assert session.get(Signup, ann.id).status == "confirmed"
    assert [p.name for p in session.exec(select(Player).where(Player.event_id == event.id))] == ["Ann Lee"]
    assert "Confirmed" in stale.text
