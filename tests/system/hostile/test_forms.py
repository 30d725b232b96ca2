"""Every form handler (POST routes walked from the url_map) fed random and hostile fields, signed
in, with a valid CSRF token: never a server error, and a refused request changes nothing."""

from __future__ import annotations

import io
import json
import sqlite3
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from organizer.demo import DEMO_EVENT
from tests.engine.worked_example import CASE
from tests.system.hostile.budget import budget
from tests.system.hostile.conftest import TOKEN, DemoApp
from tests.system.hostile.strategies import json_values, nasty_text
from tests.system.security.walk import routes, snapshot

#: signing out ends the session the other examples need; it has no fields to fuzz anyway
SKIPPED = {"auth.sign_out"}


def _query(demo: DemoApp, sql: str) -> list[tuple[Any, ...]]:
    connection = sqlite3.connect(demo.template)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def _seats(demo: DemoApp) -> dict[int, list[int]]:
    seats: dict[int, list[int]] = {}
    for table, seat in _query(demo, "SELECT gametable.number, seat.id FROM seat JOIN gametable "
                                    "ON gametable.id = seat.table_id ORDER BY gametable.number, seat.position"):
        seats.setdefault(table, []).append(seat)
    return seats


def tokens(demo: DemoApp) -> list[str]:
    """Seat tokens of the live table 3, the practice game's token, three players' own tokens, and wrong ones."""
    seat_tokens = [t for (t,) in _query(demo, "SELECT seat.token FROM seat JOIN gametable ON gametable.id = "
                                              "seat.table_id WHERE gametable.number = 3")]
    practice = [t for (t,) in _query(demo, "SELECT token FROM practicegame")]
    players = [t for (t,) in _query(demo, "SELECT token FROM player ORDER BY id LIMIT 3")]
    return [*seat_tokens, *practice, *players, "wrong-token", ""]


def valid_forms(demo: DemoApp) -> dict[str, dict[str, Any]]:
    """A form each handler would accept, as the pages post it: the fuzzing damages these, so the
    random input reaches past the first check."""
    seats = _seats(demo)
    totals: dict[str, Any] = {"mode": "totals", "version": "0"}
    scorepad: dict[str, Any] = {"mode": "scorepad", "version": "0"}
    for seat in seats[3]:
        totals[f"points_{seat}"], totals[f"species_{seat}"] = "20", "5"
        scorepad[f"species_{seat}"] = "5"
        for index in range(8):
            scorepad[f"pad_{seat}_{index}"] = "4"
    event = {"name": "Autumn Cup", "date": "2026-10-03", "edition": "2018", "rounds": "3",
             "format_1": "standard", "format_2": "draft", "format_3": "standard", "preferred_table_size": "4",
             "point_scheme": "beaten", "tiebreak_1": "game_points", "tiebreak_2": "opponents_average",
             "tiebreak_3": "species_count", "tiebreak_4": "head_to_head", "entry_modes": ["totals", "scorepad"],
             "pick_timer_seconds": "", "language": "de", "time_zone": "Europe/Berlin"}
    return {
        "auth.sign_in": {"name": "demo", "password": "wrong password"},
        "auth.first_run": {"name": "Second", "password": "long enough", "confirm": "long enough"},
        "events.new": event, "events.edit": event,
        "players.add": {"name": "Zoe Quince", "club": "Orchard", "email": "zoe@example.org"},
        "players.import_csv": {"csv_text": "Uma Pine,Orchard\nVic Yew,,vic@example.org"},
        "players.check_in": {"checked_in": "0"}, "players.check_in_all": {"ids": "", "q": ""}, "players.drop": {"dropped": "1"},
        "players.fixed_table": {"fixed_table": "2"}, "players.remove": {},
        "rounds.propose": {"seed": "7"}, "rounds.swap": {"first": "1", "second": "5"},
        "rounds.publish": {}, "rounds.discard": {}, "rounds.close": {}, "rounds.reopen": {},
        "tables.enter": totals, "tables.enter#scorepad": scorepad,
        "tables.confirm": {"seat": str(seats[2][0]), "version": "1"},
        "tables.dispute": {"note": "Ada's Oak was 12", "version": "1"},
        "tables.enter#case": {"mode": "assistant", "version": "0", "case_file": json.dumps(CASE).encode()},
        "tables.species": {"species": ["Oak", "Willow", "Maple", "Cassia", "Dogwood", "Jacaranda"]},
        "players.edit": {"name": "Ada Moss-Reed", "club": "Riverside Gamers", "email": ""},
        "rounds.clock": {"minutes": "50"},
        "exchange.import_json": {"file": demo.client.get("/events/1/export.json").get_data()},
        "live.act": {"verb": "pick", "card": "Oak 3", "cell": "0,0", "nonce": "n", "stamp": "0"},
        "live.make_digital": {}, "live.bot": {"bot": "1", "level": "strong"}, "tables.paper": {"version": "1"}, "live.tick": {},
        "practice.tick": {}, "live.overview_tick": {"table": ["1", "3"]},
        "practice.create": {"mode": "solo", "players": "2", "edition": "2018", "name": "Pat"},
        "accounts.add": {"name": "Judge Two", "role": "judge"},
        "accounts.set_role": {"role": "organizer"}, "accounts.reset": {}, "accounts.disable": {},
        "accounts.enable": {}, "accounts.end_session": {}, "accounts.sign_out_everywhere": {},
        "accounts.sign_out_account": {}, "events.set_archived": {"archived": "1"},
        "events.delete": {"confirm_name": DEMO_EVENT},
        "auth.welcome": {"password": "long enough pw", "confirm": "long enough pw"},
        "staff.assign": {"judge": "1"}, "staff.unassign": {}, "staff.seating": {"judges_may_seat": "1"},
        "accounts.change_password": {"current": "demo", "new_password": "a new long password",
                                     "new_confirm": "a new long password"},
        "practice.act": {"action": "draw deck", "verb": "play", "card": "Oak 3", "cell": "1,0", "nonce": "n",
                         "stamp": "0"},
        "club.merge": {"keep": "1", "gone": "2"}, "club.resolve": {"choice": "new"}, "club.match_unlinked": {},
        "club.recompute": {}, "club.public_profile": {"public_profile": "1"},
        "club_public.player_consent": {"public_profile": "1"},
        "public.player_check_in": {}, "public.player_drop": {},
        "public.player_report": {**totals, "round": "1", "table": "3"},
        "public.player_confirm": {"round": "1", "table": "1", "version": "1"},
        "public.player_dispute": {"round": "1", "table": "1", "version": "1", "note": "my Oak was 12"},
        "public.settings": {"public_page": "on", "self_check_in": "on", "self_report": "players",
                            "attention_minutes": "20", "version": "1"},
        "public.send_link": {}, "public.player_call_judge": {"note": "Is a diagonal a path?"},
        "public.take_call": {}, "public.resolve_call": {},
        "events.announce": {"text": "Round 2 at 14:30.", "language": "en", "second_text": "Runde 2 um 14:30.",
                            "second_language": "de"},
        "events.withdraw_announcement": {},
        "finals.cut": {"cut_size": "4", "top_seed_chooses": "", "version": "1"},
        "finals.decline": {"player": "1", "version": "1"}, "finals.seat": {"version": "1"},
        "signup.submit": {"name": "Wren Alder", "club": "Orchard", "email": "wren@example.org", "note": ""},
        "signup.confirm": {}, "signup.withdraw": {},
        "signup.settings": {"open": "on", "cap": "16", "closes_at": "", "approval": "", "question": "", "version": "1"},
        "signup.move": {"to": "waiting"},
        "club.import_json": {"file": demo.client.get("/club/export.json").get_data()},
        "seasons.create": {"name": "Season 2026", "starts_on": "2026-01-01", "ends_on": "2026-12-31", "rule": "best",
                           "best_of": "3", "min_events": "0"},
    }


FIELD_NAMES = ["name", "club", "email", "csv_text", "seed", "first", "second", "mode", "version", "seat", "note",
               "checked_in", "dropped", "fixed_table", "date", "edition", "rounds", "format_1", "format_9",
               "preferred_table_size", "point_scheme", "tiebreak_1", "tiebreak_5", "entry_modes",
               "pick_timer_seconds", "password", "confirm", "points_1", "species_1", "pad_1_0", "bonus_1", "",
               "csrf_token_", "__proto__"]
IDS = {"account_id": ["1", "1", "2", "0"], "session_id": ["1", "2", "0"], "event_id": ["1", "1", "1", "2", "0", "999999"],
       "player_id": ["1", "5", "12", "13", "0"], "review_id": ["1", "0", "99"], "club_player_id": ["1", "2", "0", "999"],
       "number": ["1", "1", "2", "0", "9"], "table": ["1", "2", "3", "3", "4", "0"], "position": ["0", "1", "3", "4"],
       "call_id": ["1", "2", "0", "999"], "signup_id": ["1", "0", "999"], "announcement_id": ["1", "2", "0", "999"]}
FILES = ("file", "case_file")


@st.composite
def damaged_file(draw: st.DrawFn, valid: bytes) -> bytes:
    kind = draw(st.sampled_from(["valid", "json", "bytes", "damaged"]))
    if kind == "valid":
        return valid
    if kind == "json":
        return json.dumps(draw(json_values)).encode()
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    data = json.loads(valid)
    key = draw(st.sampled_from(sorted(data) or ["x"])) if isinstance(data, dict) else "x"
    data[key] = draw(json_values)
    return json.dumps(data).encode()


@st.composite
def damaged(draw: st.DrawFn, valid: dict[str, Any]) -> list[tuple[str, Any]]:
    form = {key: value for key, value in valid.items() if key not in FILES}
    for key in draw(st.lists(st.sampled_from(sorted(form) or ["name"]), max_size=3, unique=True)):
        form[key] = draw(st.one_of(nasty_text, st.lists(nasty_text, max_size=3)))
    for key in draw(st.lists(st.sampled_from(sorted(form) or ["name"]), max_size=2, unique=True)):
        if draw(st.booleans()):
            form.pop(key, None)
    for key in draw(st.lists(st.one_of(st.sampled_from(FIELD_NAMES), nasty_text), max_size=3)):
        form[key] = draw(nasty_text)
    pairs: list[tuple[str, Any]] = []
    for key, value in form.items():
        for item in value if isinstance(value, list) else [value]:
            pairs.append((key, item))
    for key in FILES:
        if key in valid and draw(st.integers(0, 5)):
            pairs.append((key, (io.BytesIO(draw(damaged_file(valid[key]))), draw(st.sampled_from(["e.json", "x"])))))
    return pairs


def _without(lines: list[str], table: str) -> list[str]:
    return [line for line in lines if not line.startswith(f'INSERT INTO "{table}"')]


def test_every_form_handler_survives_hostile_fields(demo: DemoApp) -> None:
    forms = valid_forms(demo)
    seat_tokens = tokens(demo)
    posts = [r for r in routes(demo.app, {}, methods={"POST"}, include_public=True)
             if r.endpoint not in SKIPPED and r.endpoint != "static"]
    targets = [(route, name) for route in posts for name in forms if name.split("#")[0] == route.endpoint]
    missing = {route.endpoint for route in posts} - {route.endpoint for route, _ in targets}
    # A new form handler gets a valid form here, or this test says so.
    assert not missing, f"no valid form for {sorted(missing)} in valid_forms()"

    cookie = demo.client.get_cookie("session")
    assert cookie is not None
    signed_in_cookie, signed_in_token = cookie.value, demo.token

    @budget(250)
    @given(target=st.sampled_from(targets), data=st.data(), htmx=st.booleans())
    def post_hostile(target: tuple[Any, str], data: st.DataObject, htmx: bool) -> None:
        route, name = target
        demo.restore()
        # The restored database holds the signed-in session as it was: an example that ended or
        # rotated it (sign-out everywhere, a password change) leaves the next one signed in again.
        demo.client.set_cookie("session", signed_in_cookie)
        demo.token = signed_in_token
        path = route.rule
        for argument, choices in IDS.items():
            if f"<int:{argument}>" in path:
                path = path.replace(f"<int:{argument}>", data.draw(st.sampled_from(choices), label=argument))
        path = path.replace("<token>", data.draw(st.sampled_from(seat_tokens), label="token"))
        form = data.draw(damaged(forms[name]), label="form")
        response = demo.client.post(path, data=MultiDict([*form, ("csrf_token", demo.token)]),
                                    content_type="multipart/form-data",
                                    headers={"HX-Request": "true"} if htmx else {})
        status = response.status_code
        assert status < 500, f"{route} answered {status}"
        if 400 <= status:
            after = snapshot(demo.database)
            if status == 409:  # a refused stale result is logged, on purpose, and nothing else
                assert _without(after, "auditentry") == _without(demo.baseline, "auditentry")
            elif route.endpoint == "auth.sign_in":  # failed sign-ins are counted for the rate limit
                assert _without(after, "signinattempt") == _without(demo.baseline, "signinattempt")
            else:  # a session's "last seen" is written once a minute, whatever the request
                assert _without(after, "accountsession") == _without(demo.baseline, "accountsession"), \
                    f"{route} refused ({status}) but changed the database"
        if route.endpoint in ("auth.sign_in", "auth.first_run"):
            # A successful sign-in starts a new session and with it a new CSRF token.
            token = TOKEN.search(demo.client.get("/").get_data(as_text=True))
            if token:
                demo.token = token.group(1)

    post_hostile()
