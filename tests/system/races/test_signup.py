"""Fifty people sign up at the same instant for the last five places of an event.

Each sign-up's place is decided under the event's row lock: whatever order the server's
worker processes serve them in, exactly five become players (the cap is never exceeded) and
the other 45 are on the waiting list, numbered 1 to 45 without a gap or a double, in the
order their places were decided (the order of the audit log)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from sqlmodel import Session, col, delete, func, select

from organizer.core.models import AuditEntry, Event, Player, RateWindow, Signup, SignupSettings, utcnow
from tests.system.faults.harness import Client
from tests.system.races.harness import DEMO_EVENT, RaceServer, run_trials, server_errors, simultaneously

RACERS = 50
FREE = 5


def _reset(session: Session) -> tuple[str, int]:
    """No sign-ups, the cap five above the players registered, and room in the one client
    address's window for every racer (they all come from this machine)."""
    tokens = list(session.exec(select(Signup.token).where(Signup.event_id == DEMO_EVENT)).all())
    if tokens:
        session.exec(delete(Player).where(col(Player.token).in_(tokens)))  # type: ignore[call-overload]
    session.exec(delete(Signup))  # type: ignore[call-overload]
    session.exec(delete(RateWindow).where(col(RateWindow.key).like("signup-%")))  # type: ignore[call-overload]
    session.add(RateWindow(key="signup-address:127.0.0.1", started_at=utcnow(), used=-10 * RACERS))
    players = int(session.exec(select(func.count()).select_from(Player).where(
        Player.event_id == DEMO_EVENT, col(Player.dropped).is_(False))).one())
    settings = session.get(SignupSettings, DEMO_EVENT) or SignupSettings(event_id=DEMO_EVENT)
    settings.open, settings.cap, settings.approval = True, players + FREE, False
    session.add(settings)
    session.commit()
    event = session.get(Event, DEMO_EVENT)
    assert event is not None
    return event.public_code, players


def test_fifty_sign_ups_for_the_last_five_places(race_server: RaceServer) -> None:
    def trial(index: int) -> list[str]:
        with race_server.session() as session:
            code, before = _reset(session)
        path = f"/e/{code}/sign-up"
        racers = [Client(race_server.url) for _ in range(RACERS)]
        # each racer's page (its cookie and CSRF token) fetched a few at a time: the server has
        # several workers, and one request after another kept all but one idle
        with ThreadPoolExecutor(max_workers=6) as pool:
            assert all(reply.status == 200 for reply in pool.map(lambda racer: racer.get(path), racers))
        calls = [lambda r=racer, n=n: r.post(path, {"name": f"Racer {index}-{n}", "email": f"r{index}-{n}@example.org"})
                 for n, racer in enumerate(racers)]
        replies = simultaneously(*calls)
        problems = server_errors(replies)
        if problems:
            return problems
        if any(reply.status != 303 for reply in replies):
            return [f"answers {sorted({reply.status for reply in replies})}, not all 303"]
        with race_server.session() as session:
            signups = list(session.exec(select(Signup).where(Signup.event_id == DEMO_EVENT)).all())
            players = int(session.exec(select(func.count()).select_from(Player).where(
                Player.event_id == DEMO_EVENT, col(Player.dropped).is_(False))).one())
            placed = [e.new["name"] for e in session.exec(
                select(AuditEntry).where(AuditEntry.event_id == DEMO_EVENT, AuditEntry.action == "signup.waiting")
                .order_by(col(AuditEntry.id))).all() if e.new]
        confirmed = [s for s in signups if s.status == "confirmed"]
        waiting = sorted((s for s in signups if s.status == "waiting"), key=lambda s: s.queued or 0)
        if len(confirmed) != FREE or len(waiting) != RACERS - FREE or players != before + FREE:
            return [f"{len(confirmed)} confirmed, {len(waiting)} waiting, {players - before} new players"]
        numbers = [s.queued for s in waiting]
        if len(set(numbers)) != len(numbers) or numbers != list(range(numbers[0] or 0, (numbers[0] or 0) + len(numbers))):
            return [f"the waiting list is numbered {numbers}"]
        if [s.name for s in waiting] != placed[-len(waiting):]:
            return ["the waiting list is not in the order the places were decided"]
        return []

    run_trials(trial, trials=3)


def test_one_person_signing_up_twice_at_once(race_server: RaceServer) -> None:
    """Two sign-ups with the same e-mail address at the same instant: one is taken, the other
    refused kindly; never two sign-ups of one person."""
    def trial(index: int) -> list[str]:
        with race_server.session() as session:
            code, _before = _reset(session)
        path = f"/e/{code}/sign-up"
        twins = [Client(race_server.url), Client(race_server.url)]
        for twin in twins:
            twin.get(path)
        email = f"twin{index}@example.org"
        replies = simultaneously(*[lambda t=t, n=n: t.post(path, {"name": f"Twin {index} {n}", "email": email})
                                   for n, t in enumerate(twins)])
        problems = server_errors(replies)
        if problems:
            return problems
        with race_server.session() as session:
            count = len(session.exec(select(Signup).where(Signup.email_key == email)).all())
        statuses = sorted(reply.status for reply in replies)
        if count != 1 or statuses != [303, 422]:
            return [f"{count} sign-ups saved, answers {statuses}"]
        return []

    run_trials(trial, trials=5)
