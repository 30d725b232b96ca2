"""Solo and practice games in the browser: no sign-in, bots act at once, whole games to the
end through the pages, Q's hand and the deck never shown, replays of the finished game."""

from __future__ import annotations

import html as html_module
import random
import re
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from sqlmodel import Session, col, select

from engine import Pick, parse_action
from organizer.core.models import PracticeGame, RateWindow, utcnow
from organizer.live import log as live_log
from organizer.live import practice as service
from tests.fixtures.organizer import HX, error_beside
from tests.live.practice_games import play_to_the_end, practice_state, start
from tests.live.support import NONCE, STAMP, assert_hides, form_of, sqlite_app, sqlite_session  # noqa: F401


def test_practice_form_is_open_to_anyone(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    page = client.get("/practice")
    assert page.status_code == 200 and "Solo against Q" in page.text and "Sign in" not in page.text
    response = client.post("/practice", data={"mode": "draft", "players": "7", "bot_1": "clever"})
    assert response.status_code == 422
    assert error_beside(response.text, "players") == "A table seats 2, 3 or 4 players."
    response = client.post("/practice", data={"mode": "chess"})
    assert error_beside(response.text, "mode") == "Choose solo, a standard game or a draft."


def test_solo_game_against_q_to_the_end(sqlite_app: Flask, sqlite_session: Session) -> None:
    client = sqlite_app.test_client()
    url = start(client, mode="solo", name="Robin")
    state, html = play_to_the_end(sqlite_app, client, url, random.Random(4))
    assert state.mode == "solo" and "Final scores" in html and "Robin" in html
    assert "Hands at the end" in html  # Q's hand is shown once the game is over
    replay = client.get(f"/replay/practice/{url.rsplit('/', 1)[1]}")
    assert replay.status_code == 200 and f"Move {state.version} of {state.version}" in replay.text


@pytest.mark.parametrize("mode,players,bots", [("draft", 3, ("heuristic", "random")), ("standard", 2, ("random",))])
def test_practice_against_bots_to_the_end(sqlite_app: Flask, mode: str, players: int, bots: tuple[str, ...]) -> None:
    client = sqlite_app.test_client()
    fields = {"mode": mode, "players": str(players), **{f"bot_{i + 1}": kind for i, kind in enumerate(bots)}}
    url = start(client, **fields)
    state, html = play_to_the_end(sqlite_app, client, url, random.Random(6))
    assert state.mode == mode and state.seats == players and "Final scores" in html
    token = url.rsplit("/", 1)[1]
    with Session(sqlite_app.extensions["db_engine"]) as db:
        row = db.exec(select(PracticeGame).where(PracticeGame.token == token)).one()
        assert row.seat_kinds == ["human", *bots]
        bot_moves = [entry for entry in row.action_log if entry[0] != 0]
        assert bot_moves and all(str(entry[2]).startswith("bot:") for entry in bot_moves)


def test_replay_steps_through_every_move(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    url = start(client, mode="draft", players="2", bot_1="heuristic")
    token = url.rsplit("/", 1)[1]
    assert client.get(f"/replay/practice/{token}").status_code == 404  # not before the end
    state, _ = play_to_the_end(sqlite_app, client, url, random.Random(2))
    total = state.version
    first = client.get(f"/replay/practice/{token}?step=0")
    assert "Move 0 of" in first.text and "the deal" in first.text
    dealt = practice_state(sqlite_app, token).game.new_initial_state()
    for card in dealt.hands[0] + dealt.hands[1]:  # every hand is shown in the replay
        assert str(card) in first.text
    with Session(sqlite_app.extensions["db_engine"]) as db:
        log = db.exec(select(PracticeGame).where(PracticeGame.token == token)).one().action_log
    for step in (1, 2, total // 2, total):
        page = client.get(f"/replay/practice/{token}?step={step}", headers=HX)
        assert page.status_code == 200 and f"Move {step} of {total}" in page.text
        headline = re.search(r'<p class="headline">(.*?)</p>', page.text, re.S)
        move = parse_action(log[step - 1][1])
        assert headline and isinstance(move, Pick) and str(move.card) in headline.group(1)  # a sentence naming the card
        assert log[step - 1][1] not in page.text  # never the engine's action text
    last = client.get(f"/replay/practice/{token}?step=9999")
    assert f"Move {total} of {total}" in last.text and "Final scores" in last.text
    assert "Next ▶</span>" in last.text  # no next after the last move
    assert client.get("/replay/practice/nope").status_code == 404


# -- limits (one client can make thousands of practice games in seconds, and something must delete them)

def _limited_app(tmp_path: Path, **limits: int) -> Flask:
    from tests.fixtures.organizer import make_app
    from tests.live.support import fast_sqlite

    return fast_sqlite(make_app(f"sqlite:///{tmp_path / 'practice.sqlite3'}", tmp_path, **limits))


def _stored(app: Flask) -> list[PracticeGame]:
    with Session(app.extensions["db_engine"]) as db:
        return list(db.exec(select(PracticeGame).order_by(col(PracticeGame.id))).all())


def _age(app: Flask, token: str, hours: float, finished: bool | None = None) -> None:
    """Make a stored game look untouched for ``hours`` (and finished that long ago, or not)."""
    with Session(app.extensions["db_engine"]) as db:
        row = db.exec(select(PracticeGame).where(PracticeGame.token == token)).one()
        row.updated_at = utcnow() - timedelta(hours=hours)
        if finished is not None:
            row.finished_at = row.updated_at if finished else None
        db.add(row)
        db.commit()


def _a_window_ago(app: Flask, key: str, seconds: float) -> None:
    with Session(app.extensions["db_engine"]) as db:
        window = db.get(RateWindow, key)
        assert window is not None
        window.started_at = utcnow() - timedelta(seconds=seconds)
        db.add(window)
        db.commit()


def test_one_address_starts_only_so_many_games(tmp_path: Path) -> None:
    app = _limited_app(tmp_path, PRACTICE_PER_ADDRESS=3, PRACTICE_WINDOW_SECONDS=600)
    client = app.test_client()
    for _ in range(3):
        start(client, mode="solo")
    refused = client.post("/practice", data={"mode": "solo", "edition": "2018"})
    assert refused.status_code == 429
    assert 590 <= int(refused.headers["Retry-After"]) <= 600
    assert "Too many practice games from your address: 3 in 10 minutes is the limit. Try again in 10 minutes" \
        in html_module.unescape(refused.text)
    assert len(_stored(app)) == 3
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"  # another address has its own count
    start(other, mode="solo")
    assert len(_stored(app)) == 4
    app.extensions["db_engine"].dispose()


def test_prune_deletes_idle_and_old_finished_games(tmp_path: Path) -> None:
    app = _limited_app(tmp_path)
    client = app.test_client()
    tokens = {name: start(client, mode="solo").rsplit("/", 1)[1] for name in
              ("fresh", "idle", "played_idle", "finished_recently", "finished_long_ago", "old_finished_unmarked")}
    # a game played a little, and games the bots played to the end (on creation: no person seat)
    played = client.post(f"/practice/{tokens['played_idle']}/act", headers=HX, data={
        "nonce": "n1", **form_of(practice_state(app, tokens["played_idle"]).legal_actions(0)[0])})
    assert played.status_code == 200
    _age(app, tokens["idle"], 25)
    _age(app, tokens["played_idle"], 25)
    for name, hours in (("finished_recently", 24 * 10), ("finished_long_ago", 24 * 31)):
        _age(app, tokens[name], hours, finished=True)
    # finished before finished_at was recorded: told apart by replaying it, and kept
    with Session(app.extensions["db_engine"]) as db:
        game = db.exec(select(PracticeGame).where(PracticeGame.token == tokens["old_finished_unmarked"])).one()
        state = live_log.replay(service.game_of(game), [], 0, 0.0).state
        log = []
        while not state.is_terminal():
            seat = state.awaited_seats()[0]
            action = random.Random(len(log)).choice(state.legal_actions(seat))
            state.apply_action(action, seat)
            log.append([seat, str(action), f"n{len(log)}", 0.0])
        game.action_log, game.log_version = log, 1
        db.add(game)
        db.commit()
    _age(app, tokens["old_finished_unmarked"], 48, finished=False)
    result = app.test_cli_runner().invoke(args=["prune"])
    assert result.exit_code == 0, result.output
    assert "Practice games deleted: 2 left unfinished for a day, 1 finished 30 days ago" in result.output
    kept = {row.token: row for row in _stored(app)}
    assert set(kept) == {tokens["fresh"], tokens["finished_recently"], tokens["old_finished_unmarked"]}
    assert kept[tokens["old_finished_unmarked"]].finished_at is not None
    assert client.get(f"/practice/{tokens['idle']}").status_code == 404
    app.extensions["db_engine"].dispose()


def test_a_finished_game_records_its_end(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    url = start(client, mode="standard", players="2", bot_1="random")
    play_to_the_end(sqlite_app, client, url, random.Random(1))
    assert _stored(sqlite_app)[0].finished_at is not None


def test_the_store_is_capped_and_prunes_itself(tmp_path: Path) -> None:
    app = _limited_app(tmp_path, PRACTICE_MAX_GAMES=2)
    client = app.test_client()
    first = start(client, mode="solo").rsplit("/", 1)[1]  # this creation ran the hourly prune
    start(client, mode="solo")
    full = client.post("/practice", data={"mode": "solo", "edition": "2018"})
    assert full.status_code == 503 and full.headers["Retry-After"] == "3600"
    assert "The practice room is full (2 games are stored); nothing was created." in html_module.unescape(full.text)
    _age(app, first, 25)
    _a_window_ago(app, "practice:prune-full", seconds=61)  # when full, pruning runs at most once a minute
    start(client, mode="solo")  # full, so it pruned again: the idle game made room
    assert first not in {row.token for row in _stored(app)} and len(_stored(app)) == 2
    app.extensions["db_engine"].dispose()


def test_the_app_prunes_at_most_once_an_hour_on_its_own(tmp_path: Path) -> None:
    app = _limited_app(tmp_path)
    client = app.test_client()
    idle = start(client, mode="solo").rsplit("/", 1)[1]  # the first creation prunes (nothing to do)
    _age(app, idle, 25)
    start(client, mode="solo")
    assert idle in {row.token for row in _stored(app)}, "pruned again within the hour"
    _a_window_ago(app, "practice:prune", seconds=3601)
    start(client, mode="solo")
    assert idle not in {row.token for row in _stored(app)}
    app.extensions["db_engine"].dispose()
