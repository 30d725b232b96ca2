"""The players' CSV import fed random and hostile text and uploads: players are imported, or the
form says what is wrong and nothing changes. Never a server error."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from organizer.core.errors import InputError
from organizer.players.service import decode_upload, parse_player_csv
from tests.system.hostile.budget import budget
from tests.system.hostile.conftest import DemoApp
from tests.system.hostile.strategies import nasty_text

cells = st.one_of(nasty_text, st.sampled_from(["name", "club", "email", "e-mail", '"', '""', '"a,b"', "x@y.z"]))
rows = st.lists(st.lists(cells, max_size=5), max_size=15)
separators = st.sampled_from([",", ";", "\t", ", ", "|"])
line_ends = st.sampled_from(["\n", "\r\n", "\r", "\n\n"])


@st.composite
def csv_texts(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.text(max_size=400))
    separator, end = draw(separators), draw(line_ends)
    return end.join(separator.join(row) for row in draw(rows))


@budget(300)
@given(csv_texts())
def test_the_parser_reads_or_names_the_bad_lines(text: str) -> None:
    try:
        players = parse_player_csv(text)
    except InputError as refused:
        assert refused.errors.get("csv"), "a refusal says what is wrong"
        return
    assert players
    for player in players:
        assert player.name and player.name == " ".join(player.name.split())


@budget(100)
@given(st.binary(max_size=300))
def test_any_uploaded_bytes_decode(raw: bytes) -> None:
    text = decode_upload(raw)
    try:
        parse_player_csv(text)
    except InputError:
        pass


def test_oversized_fields_and_lines_are_refused_with_a_message() -> None:
    for text in ('"' + "a" * 200_000 + '"', "Ann," + "b" * 200_000, '"unterminated\n' * 3, "\x00" * 100):
        try:
            parse_player_csv(text)
        except InputError as refused:
            assert refused.errors["csv"]


@budget(80)
@given(text=csv_texts(), upload=st.one_of(st.none(), st.binary(max_size=300)), htmx=st.booleans())
def test_the_import_page_never_fails_and_a_refusal_changes_nothing(demo: DemoApp, text: str, upload: bytes | None,
                                                                   htmx: bool) -> None:
    demo.restore()
    data: dict[str, object] = {"csv_text": text, "csrf_token": demo.token}
    if upload is not None:
        data["csv_file"] = (io.BytesIO(upload), "players.csv")
    response = demo.client.post("/events/1/players/import", data=data, content_type="multipart/form-data",
                                headers={"HX-Request": "true"} if htmx else {})
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if response.status_code >= 400:
        # a NUL in a form field is refused before the import reads it (security.refuse_nul)
        assert response.status_code == (400 if "\x00" in text else 422)
        assert demo.unchanged(), "a refused import changed the database"


def test_a_huge_quoted_field_in_the_import_page_is_a_message(demo: DemoApp) -> None:
    response = demo.client.post("/events/1/players/import",
                                data={"csv_text": '"' + "x" * 200_000 + '"', "csrf_token": demo.token})
    assert response.status_code == 422
    assert demo.unchanged()
