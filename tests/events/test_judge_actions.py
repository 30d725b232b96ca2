"""A judge is shown only what a judge may do: every link and form on the pages a judge opens
works for them (none answers "You may not do that."), and an unassigned judge is told whom to ask."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.accounts import service as accounts
from organizer.core import staff
from organizer.core.models import Role, Round
from organizer.rounds import service as round_service
from tests.fixtures.organizer import PASSWORD, add_players, create_event, sign_in
from tests.rounds.support import totals_form


class Controls(HTMLParser):
    """The page's links (href) and forms (method, action, fields as the page fills them)."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.forms: list[tuple[str, str, dict[str, str]]] = []
        self._form: tuple[str, str, dict[str, str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "a" and found.get("href", "").startswith("/"):
            self.links.append(found["href"])
        elif tag == "form":
            self._form = (found.get("method", "get").lower(), found.get("action", ""), {})
            self.forms.append(self._form)
        elif tag in ("input", "select", "textarea") and self._form is not None and found.get("name"):
            if found.get("type") in ("checkbox", "radio") and "checked" not in found:
                return
            self._form[2].setdefault(found["name"], found.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None


def _controls(html: str) -> Controls:
    parser = Controls()
    parser.feed(html)
    return parser


def test_every_control_a_judge_sees_works_for_them(client: FlaskClient, session: Session) -> None:
    accounts.create_organizer(session, "Olive", PASSWORD)  # the first account: the owner
    judge = accounts.create_organizer(session, "Jude", PASSWORD, role=Role.JUDGE)
    event = create_event(session, name="Tuesday Club Night")
    add_players(session, event, 8)
    assert judge.id is not None and event.id is not None
    staff.assign_judge(session, event, judge.id, "test")
    rnd = round_service.propose_round(session, event, "Olive", 5)
    round_service.publish_round(session, event, rnd, "Olive")
    sign_in(client, "Jude")
    first = round_service.tables_of(session, rnd.id or 0)[0]
    client.post(f"/events/{event.id}/rounds/1/tables/1/result", data=totals_form(first, [30, 25, 20, 15], [5, 4, 4, 3]))

    base = f"/events/{event.id}"
    pages = ["/", base, f"{base}/players", f"{base}/rounds", f"{base}/rounds/1", f"{base}/rounds/1/tables/1",
             f"{base}/rounds/1/tables/2", f"{base}/standings", f"{base}/audit", f"{base}/rounds/1/live"]
    offered: set[str] = set()
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        html = response.text
        for hidden in ("Settings", "Export JSON", "Round pack (PDF)", "Event report (PDF)", "Add a player",
                       "Import a list", "Close round", "New event", "Publish round", "Delete…", ">Drop<", ">Edit<"):
            assert hidden not in html, (page, hidden)
        controls = _controls(html)
        for link in controls.links:
            if link in offered or link.startswith("/static/"):
                continue
            offered.add(link)
            answer = client.get(link)
            assert answer.status_code != 403 and b"You may not do that" not in answer.data, (page, link)
        for method, action, fields in controls.forms:
            target = action or page
            key = f"{method} {target} {sorted(fields)}"
            if key in offered or target.startswith("/sign-out") or target.endswith("/end-all"):
                continue
            offered.add(key)
            answer = client.post(target, data=fields) if method == "post" else client.get(target, query_string=fields)
            assert answer.status_code != 403 and b"You may not do that" not in answer.data, (page, method, target)
    assert any(re.search(r"/players/\d+/check-in", key) for key in offered)  # the judge's own work was offered
    assert any("/tables/1/confirm" in key for key in offered)
    assert session.exec(select(Round)).one().status == "published"


def test_an_unassigned_judge_is_told_to_ask_an_organizer(client: FlaskClient, session: Session) -> None:
    accounts.create_organizer(session, "Olive", PASSWORD)
    accounts.create_organizer(session, "Jude", PASSWORD, role=Role.JUDGE)
    create_event(session, name="Regional Final")
    sign_in(client, "Jude")
    page = client.get("/").text
    assert "Ask an organizer to add you" in page
    assert "Create the first one" not in page and "Import an event" not in page and "New event" not in page
