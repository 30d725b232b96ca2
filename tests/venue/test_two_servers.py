"""Two app servers behind one Caddy against one PostgreSQL serve the same event as one server
would: each gunicorn has its own instance folder and port, and nothing they share but the
database. Caddy listens three times on loopback: once in front of each server (so the test
chooses who answers, and each server sees the client's address as behind a proxy) and once
balancing both, round robin, as a venue or a hosted installation runs them."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import partial
from pathlib import Path

import pytest
from sqlmodel import Session, select

from organizer import PROJECT_ROOT
from organizer.core.db import make_engine
from organizer.core.models import GameTable, Player, Round
from tests.system.faults.harness import Client, add_demo, free_port, sign_in
from tests.system.races.harness import (
    DEMO_ACCOUNT,
    DEMO_EVENT,
    enter_fresh_result,
    fetch_form,
    form_for,
    postgres_schema,
    result_of_table,
    result_problems,
    seat_ids_of,
    server_errors,
    simultaneously,
    submit,
    table_path,
)

pytestmark = [
    pytest.mark.system, pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"),
                       reason="two servers share one PostgreSQL database: set TEST_DATABASE_URL (SQLite is one "
                              "machine's file)"),
    pytest.mark.skipif(shutil.which("caddy") is None, reason="Caddy is not installed (apt-get install caddy)"),
]
GUNICORN = Path(sys.executable).parent / "gunicorn"
VERSION = re.compile(r'data-version="(\d+)"')
PRACTICE_PER_ADDRESS = 2
#: the last two players' confirmations sent together, one to each server, this many times
CONFIRMATION_TRIALS = 2


@dataclass
class Servers:
    a: str  # Caddy in front of server A only
    b: str  # Caddy in front of server B only
    balanced: str  # Caddy balancing both
    database_url: str
    instances: tuple[Path, Path]


def _caddyfile(a: int, b: int, ports: tuple[int, int, int], admin: int) -> str:
    proxy = "\treverse_proxy {upstreams} {{\n\t\tlb_policy round_robin\n\t\tflush_interval -1\n\t}}\n"
    sites = [(ports[0], f"127.0.0.1:{a}"), (ports[1], f"127.0.0.1:{b}"), (ports[2], f"127.0.0.1:{a} 127.0.0.1:{b}")]
    return (f"{{\n\tadmin 127.0.0.1:{admin}\n\tauto_https off\n}}\n\n"
            + "\n".join(f"http://127.0.0.1:{port} {{\n\tbind 127.0.0.1\n{proxy.format(upstreams=upstreams)}}}\n"
                        for port, upstreams in sites))


def _wait_for(url: str, processes: list[subprocess.Popen[bytes]], logs: list[Path], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
            raise AssertionError(f"{url} did not answer:\n" + "\n".join(log.read_text(errors="replace")[-3000:]
                                                                        for log in logs if log.exists()))
        time.sleep(0.2)


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    work = tmp_path_factory.mktemp("two-servers")
    with postgres_schema(os.environ["TEST_DATABASE_URL"], "two_servers") as database_url:
        add_demo(database_url)  # the demo event and the account demo / demo
        instances = (work / "instance-a", work / "instance-b")
        ports = (free_port(), free_port())
        proxied = (free_port(), free_port(), free_port())
        processes: list[subprocess.Popen[bytes]] = []
        logs: list[Path] = []
        try:
            for instance, port in zip(instances, ports, strict=True):
                instance.mkdir()
                # no ORGANIZER_SECRET_KEY: the servers must agree on the key by themselves
                env = {**os.environ, "DATABASE_URL": database_url, "ORGANIZER_INSTANCE_PATH": str(instance),
                       "ORGANIZER_PROXY_FIX": "1", "ORGANIZER_WORKERS": "1", "ORGANIZER_THREADS": "4",
                       "ORGANIZER_PRACTICE_PER_ADDRESS": str(PRACTICE_PER_ADDRESS)}
                env.pop("ORGANIZER_SECRET_KEY", None)
                log = instance / "gunicorn.log"
                logs.append(log)
                with log.open("wb") as out:
                    processes.append(subprocess.Popen(
                        [str(GUNICORN), "-c", "python:organizer.live_gunicorn", "-b", f"127.0.0.1:{port}",
                         "organizer:create_app()"], cwd=PROJECT_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                        start_new_session=True))
            caddyfile = work / "Caddyfile"
            caddyfile.write_text(_caddyfile(*ports, proxied, free_port()))
            caddy_log = work / "caddy.log"
            logs.append(caddy_log)
            with caddy_log.open("wb") as out:
                processes.append(subprocess.Popen(
                    ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"], cwd=work,
                    env={**os.environ, "HOME": str(work), "XDG_DATA_HOME": str(work / "data"),
                         "XDG_CONFIG_HOME": str(work / "config")},
                    stdout=out, stderr=subprocess.STDOUT, start_new_session=True))
            for port in proxied:
                _wait_for(f"http://127.0.0.1:{port}/health", processes, logs)
            yield Servers(*(f"http://127.0.0.1:{port}" for port in proxied), database_url, instances)  # type: ignore[arg-type]
        finally:
            for process in processes:
                if process.poll() is None:  # gunicorn's quick shutdown; Caddy stops on it too
                    os.killpg(process.pid, signal.SIGINT)
            for process in processes:
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
        server_logs = "".join(log.read_text(errors="replace") for log in logs[:2])
        assert "Traceback" not in server_logs, server_logs[server_logs.index("Traceback"):][:3000]


def _signed_in(base: str) -> Client:
    client = Client(base)
    reply = sign_in(client, *DEMO_ACCOUNT)
    assert reply.status == 302, reply.text[:500]
    return client


def _on(client: Client, base: str) -> Client:
    """The same browser (its cookies, its CSRF token) sending its next requests to ``base``."""
    moved = Client(base)
    moved.cookies, moved.csrf_token = dict(client.cookies), client.csrf_token
    return moved


def _demo_event(client: Client) -> tuple[int, str]:
    events = client.get("/")
    assert events.status == 200, events.status
    found = re.search(r'href="/events/(\d+)"', events.text)
    assert found is not None
    event_id = int(found.group(1))
    page = client.get(f"/events/{event_id}")
    code = re.search(r"/e/([A-Za-z0-9_-]+)", page.text)
    assert code is not None, "the event page names its public page"
    return event_id, code.group(1)


def test_a_sign_in_on_one_server_holds_on_the_other_and_through_the_balancer(servers: Servers) -> None:
    # each server keeps nothing in its own instance folder that the other would need
    assert not any((instance / "secret_key").exists() for instance in servers.instances)
    on_a = _signed_in(servers.a)
    on_b = _on(on_a, servers.b)
    assert on_b.get("/").status == 200  # signed in on B with A's cookie
    assert Client(servers.b).get("/").status == 302  # (a stranger is sent to sign in)
    # the balancer sends consecutive requests to both servers: every one is signed in
    balanced = _on(on_a, servers.balanced)
    assert [balanced.get("/").status for _ in range(6)] == [200] * 6
    # signing out on B ends the session on A too
    assert on_b.post("/sign-out").status in (302, 303)
    assert _on(on_b, servers.a).get("/").status == 302


def test_a_rename_on_one_server_shows_at_once_on_the_public_page_of_the_other(servers: Servers) -> None:
    on_a = _signed_in(servers.a)
    event_id, code = _demo_event(on_a)
    watcher = Client(servers.b)  # a phone on the public page, served by B
    before = watcher.get(f"/e/{code}")
    assert before.status == 200
    stamp = re.search(r"since=([^\"&]+)", before.text)
    assert stamp is not None
    # the edit form read from B, sent to A (its CSRF token signed by B)
    on_b = _on(on_a, servers.b)
    form = form_for(on_b.get(f"/events/{event_id}/edit").text, f"/events/{event_id}/edit")
    saved = _on(on_b, servers.a).post(f"/events/{event_id}/edit", form.values(name="Two Servers Open"))
    assert saved.status in (302, 303), saved.text[:500]
    assert "Two Servers Open" in watcher.get(f"/e/{code}").text
    changed = watcher.get(f"/e/{code}/changed?since={stamp.group(1)}", headers={"HX-Request": "true"})
    assert changed.status == 200 and "Two Servers Open" in changed.text


def test_the_sign_in_throttle_and_the_practice_limit_count_across_both_servers(servers: Servers) -> None:
    # the free failures (three) and the one that starts the wait, spread over A and B: the next
    # try waits, whichever server it reaches (a name of its own: the other tests sign in as demo)
    for base in (servers.a, servers.b, servers.a, servers.b):
        failed = sign_in(Client(base), "Guesser", "wrong password")
        assert failed.status == 422, failed.status
    throttled = sign_in(Client(servers.a), "Guesser", "another wrong one")
    assert throttled.status == 429 and throttled.headers["Retry-After"]
    # practice games per client address: A and B take turns, the limit holds for the pair
    statuses = [Client(base).post("/practice").status
                for base in (servers.a, servers.b) * PRACTICE_PER_ADDRESS]
    assert statuses[:PRACTICE_PER_ADDRESS] == [302] * PRACTICE_PER_ADDRESS, statuses
    assert statuses[PRACTICE_PER_ADDRESS:] == [429] * PRACTICE_PER_ADDRESS, statuses


def test_a_live_pick_on_one_server_shows_at_once_on_the_other(servers: Servers) -> None:
    from organizer.events import service as events
    from organizer.live import tables as live_tables
    from organizer.rounds import service as rounds

    engine = make_engine(servers.database_url)
    try:
        with Session(engine, expire_on_commit=False) as db:
            data = events.EventInput(name="Live Across", date=date(2026, 6, 1))
            data.round_formats = ["draft"]
            event = events.create_event(db, data, None, "test")
            assert event.id is not None
            db.add_all([Player(event_id=event.id, name=f"Player {i}", name_key=f"player {i}", checked_in=True)
                        for i in range(4)])
            db.commit()
            rnd = rounds.propose_round(db, event, "test", seed=3)
            rounds.publish_round(db, event, rnd, "test")
            live_tables.start_round(db, event, rnd)
            assert rnd.id is not None
            token = rounds.tables_of(db, rnd.id)[0].seats[0].seat.token
    finally:
        engine.dispose()
    phone = Client(servers.b)
    screen = phone.get(f"/play/{token}")
    assert screen.status == 200
    version = int(VERSION.search(screen.text).group(1))  # type: ignore[union-attr]
    assert phone.get(f"/play/{token}/changed?since={version}", headers={"HX-Request": "true"}).status == 204
    # the pick through A, with the form (nonce, stamp, CSRF token) B served
    form = form_for(screen.text, f"/play/{token}/act", verb="pick")
    card = re.search(r'name="card" value="([^"]+)"', screen.text)
    cell = re.search(r'name="cell" value="(-?\d+,-?\d+)"', screen.text)
    assert card is not None
    chosen = form.values(card=card.group(1), cell=cell.group(1) if cell else "discard")
    picked = _on(phone, servers.a).post(f"/play/{token}/act", chosen, headers={"HX-Request": "true"})
    assert picked.status == 200, picked.text[:500]
    # B's very next poll brings the new screen
    seen = phone.get(f"/play/{token}/changed?since={version}", headers={"HX-Request": "true"})
    assert seen.status == 200
    assert int(VERSION.search(seen.text).group(1)) > version  # type: ignore[union-attr]


def test_the_last_two_confirmations_at_once_on_two_servers_confirm_the_result(servers: Servers) -> None:
    """The demo's table 2 (a result waiting for confirmation): every seat but two confirms, then
    the last two taps go at the same instant, one to A and one to B. The table's row lock is in
    the database, so the result ends confirmed, once, as on one server."""
    tablet_a, tablet_b = _signed_in(servers.a), _signed_in(servers.b)
    path = table_path(DEMO_EVENT, 1, 2)
    engine = make_engine(servers.database_url)
    try:
        with Session(engine) as session:
            table_id = session.exec(select(GameTable.id).join(Round, Round.id == GameTable.round_id)  # type: ignore[arg-type]
                                    .where(Round.event_id == DEMO_EVENT, Round.number == 1, GameTable.number == 2)).one()
        for index in range(CONFIRMATION_TRIALS):
            enter_fresh_result(tablet_a, path, index)
            with Session(engine) as session:
                seats = seat_ids_of(session, table_id)
            for seat in seats[:-2]:
                assert submit(tablet_b, fetch_form(tablet_b, path, "/confirm", seat=str(seat))).status in (200, 302, 303)
            on_a, on_b = (fetch_form(tablet, path, "/confirm", seat=str(seat))
                          for tablet, seat in zip((tablet_a, tablet_b), seats[-2:], strict=True))
            replies = simultaneously(partial(submit, tablet_a, on_a), partial(submit, tablet_b, on_b))
            problems = server_errors(replies, ["the tap on A", "the tap on B"])
            with Session(engine) as session:
                problems += result_problems(session, table_id)
                result = result_of_table(session, table_id)
                assert result is not None
                if result.status != "confirmed":
                    problems.append(f"the last taps answered {[r.status for r in replies]}; the result is {result.status}")
            assert not problems, f"trial {index}: {problems}"
    finally:
        engine.dispose()
