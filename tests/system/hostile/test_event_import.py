"""The JSON event import fed damaged exports (any item of the demo's export, live table included,
replaced by a hostile value or left out) and random JSON: the import succeeds or names what is
wrong, never a server error; a refusal changes nothing, and an event it accepts has working pages
(standings, projector, round, tables, live overview, PDFs), so what got in is what the forms allow."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.system.hostile.budget import budget
from tests.system.hostile.conftest import DemoApp
from tests.system.hostile.strategies import json_values, nasty_text


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the export (the audit log, being only history, sampled less)."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data[:4]):
            found += _paths(value, (*prefix, index))
    return found


def _damage(data: Any, path: tuple[Any, ...], value: Any, delete: bool) -> Any:
    copy = json.loads(json.dumps(data))
    if not path:
        return value
    target = copy
    for step in path[:-1]:
        target = target[step]
    if delete and isinstance(target, dict):
        target.pop(path[-1], None)
    else:
        target[path[-1]] = value
    return copy


def _import(demo: DemoApp, content: bytes) -> Any:
    return demo.client.post("/events/import", data={"file": (io.BytesIO(content), "event.json"),
                                                     "csrf_token": demo.token},
                            content_type="multipart/form-data")


def _pages_of(event_id: int, data: Any) -> list[str]:
    pages = [f"/events/{event_id}", f"/events/{event_id}/standings", f"/events/{event_id}/projector",
             f"/events/{event_id}/players", f"/events/{event_id}/standings.pdf", f"/events/{event_id}/audit"]
    for rnd in data.get("rounds", []) if isinstance(data, dict) else []:
        number = rnd.get("number") if isinstance(rnd, dict) else None
        if not isinstance(number, int):
            continue
        pages += [f"/events/{event_id}/rounds/{number}", f"/events/{event_id}/rounds/{number}/live",
                  f"/events/{event_id}/rounds/{number}/pack.pdf"]
        for table in rnd.get("tables", []) if isinstance(rnd.get("tables"), list) else []:
            if isinstance(table, dict) and isinstance(table.get("number"), int):
                pages.append(f"/events/{event_id}/rounds/{number}/tables/{table['number']}")
    return pages


def _check(demo: DemoApp, data: Any, content: bytes) -> None:
    response = _import(demo, content)
    status = response.status_code
    assert status < 500, response.get_data(as_text=True)[:500]
    if status == 302:
        event_id = int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])
        for page in _pages_of(event_id, data):
            answer = demo.client.get(page)
            assert answer.status_code < 500, f"{page} answered {answer.status_code} after an accepted import"
    else:
        assert status in (400, 422), status
        assert demo.unchanged(), "a refused import changed the database"


#: the demo's export, by the test's template: every example restores the same database, so
#: its export is the same and is read once
_EXPORTS: dict[Path, Any] = {}


def _export(demo: DemoApp) -> Any:
    if demo.template not in _EXPORTS:
        _EXPORTS[demo.template] = json.loads(demo.client.get("/events/1/export.json").get_data())
    return json.loads(json.dumps(_EXPORTS[demo.template]))


@budget(120)
@given(data=st.data(), delete=st.booleans(), value=st.one_of(json_values, nasty_text))
def test_a_damaged_export_is_imported_whole_or_refused_with_a_message(demo: DemoApp, data: st.DataObject,
                                                                      delete: bool, value: Any) -> None:
    demo.restore()
    export = _export(demo)
    path = data.draw(st.sampled_from(_paths(export)), label="path")
    damaged = _damage(export, path, value, delete)
    _check(demo, damaged, json.dumps(damaged).encode())


@budget(60)
@given(value=json_values)
def test_any_json_is_refused_with_a_message(demo: DemoApp, value: Any) -> None:
    demo.restore()
    _check(demo, value, json.dumps(value).encode())


def test_the_demo_export_with_its_live_table_imports_and_its_pages_work(demo: DemoApp) -> None:
    export = json.loads(demo.client.get("/events/1/export.json").get_data())
    assert any(t["game"] for r in export["rounds"] for t in r["tables"])
    _check(demo, export, json.dumps(export).encode())
