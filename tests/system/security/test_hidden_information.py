"""The hidden-information rule checked from outside: whole games played over real HTTP against
the production server (two gunicorn workers, so seats land on different processes), every
answer every seat receives (pages, polls, actions) checked for cards it may not see: another
seat's hand or pending pick, the deck. One server serves the module, each test playing a table
or practice game of its own on its database."""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live.support import cards_mentioned, form_of
from tests.system.faults.harness import Client, ServerProcess
from tests.system.faults.live_harness import (
    HttpSeat,
    assert_hides,
    live_database,
    play_to_the_end,
    practice_state,
    seats_for,
    stored_log,
    true_state,
)


@pytest.fixture(scope="module")
def served(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, ServerProcess]]:
    """A migrated database and its server, started once: every table and practice game of the
    module is one of its own there."""
    folder = tmp_path_factory.mktemp("hidden-information")
    database = folder / "live.sqlite3"
    shutil.copy(sqlite_template, database)
    with ServerProcess(f"sqlite:///{database}", folder / "instance", workers=2) as server:
        yield database, server


@pytest.mark.parametrize(("players", "round_format"), [(3, "draft"), (2, "standard")])
def test_no_seat_ever_sees_a_hidden_card(served: tuple[Path, ServerProcess], players: int, round_format: str) -> None:
    database, server = served
    table = live_database(database, players, round_format, migrate=False)
    seats = seats_for(server.url, table)
    final = play_to_the_end(table, seats, random.Random(players))
    assert final.is_terminal()
    for seat in seats:
        assert "Final scores" in seat.html
        assert len(seat.seen) > 10
    # A wrong token, from a fresh browser, at the end as at the start: nothing at all.
    stranger = Client(server.url)
    for token in ("nope", table.tokens[0][:-1] + ("A" if table.tokens[0][-1] != "A" else "B")):
        for path in (f"/play/{token}", f"/play/{token}/changed?since=0", f"/replay/seat/{token}"):
            reply = stranger.get(path)
            assert reply.status == 404 and not cards_mentioned(reply.text)
            assert not any(name in reply.text for name in table.names if name)


def test_a_refused_pick_is_no_oracle(served: tuple[Path, ServerProcess]) -> None:
    """Naming a card of another seat's hand, or one still in the deck, is refused with the same
    words, and the rest of the answer hides what it always hides; nothing changes."""
    database, server = served
    table = live_database(database, 3, "draft", migrate=False)
    seats = seats_for(server.url, table)
    for seat in seats:
        seat.open()
    state = true_state(table)
    in_other_hand = str(state.hands[1][0])  # type: ignore[attr-defined]
    in_deck = str(state.deck[0])  # type: ignore[attr-defined]
    messages = []
    for card in (in_other_hand, in_deck):
        reply = seats[0].act({"verb": "pick", "card": card, "cell": "0,0"})
        assert reply.status == 422
        message = re.search(r'role="alert">([^<]*)<', reply.text)
        assert message
        messages.append(message.group(1))
        rest = reply.text.replace(message.group(1), "")
        assert_hides(seats[0], rest, state)
    assert messages[0] == messages[1], f"the refusal tells a hand from the deck: {messages}"
    assert stored_log(table) == []


@pytest.mark.parametrize("mode", ["solo", "draft"])
def test_a_practice_player_never_sees_the_bots_cards(served: tuple[Path, ServerProcess], mode: str) -> None:
    """Solo against Q (Q's hand is hidden) and a practice draft against two bots, started from
    the public practice form and played over HTTP to the end."""
    database, server = served
    client = Client(server.url)
    client.get("/practice")
    started = client.post("/practice", {"mode": mode, "edition": "2018", "name": "Pat", "players": "3",
                                        "bot_1": "heuristic", "bot_2": "random"})
    assert started.status == 302, started.text[:300]
    token = started.location.rstrip("/").rsplit("/", 1)[-1]
    seat = HttpSeat(client, token, 0, prefix="/practice")
    seat.open()
    rng = random.Random(mode)
    for _ in range(500):
        state = practice_state(database, token)
        assert_hides(seat, seat.html, state)
        if state.is_terminal():
            break
        if 0 not in state.awaited_seats():
            assert_hides(seat, seat.poll().text, practice_state(database, token))
            continue
        reply = seat.act(form_of(rng.choice(state.legal_actions(0))))
        assert reply.status == 200, reply.text[:300]
        assert_hides(seat, reply.text, practice_state(database, token))
    else:
        raise AssertionError("the practice game did not end")
    assert "Final scores" in seat.html
