"""The round pack: seating lists, pre-filled scorepads with result QR codes, private-link slips."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from organizer.printing import PrintingError, RoundPackData, SeatInfo, TableInfo, round_pack
from organizer.printing.roundpack import slip_order, sort_key
from organizer.printing.samples import sample_round_pack
from tests.printing.support import LETTER_POINTS, is_pdf, page_sizes, pages_text, qr_codes


def _seat(n: int, name: str, **flags: object) -> SeatInfo:
    return SeatInfo(seat=n, player=name, private_url=f"https://club.example/p/{n}-{abs(hash(name)) % 9999}", **flags)  # type: ignore[arg-type]


def small_round(digital: bool = True) -> RoundPackData:
    three = ("Blue Spruce", "Cassia", "Cherry Blossom", "Dogwood", "Jacaranda", "Maple", "Oak", "Willow")
    return RoundPackData(
        event="Autumn Cup — Kraków",
        round_number=2,
        edition="2018",
        subtitle="Sunday 4 October",
        tables=(
            TableInfo(
                number=1,
                seats=(_seat(1, "Zoë Ångström", is_dealer=True), _seat(2, "Łukasz Wójcik", is_start=True),
                       _seat(3, "Σοφία Νικολάου"), _seat(4, "Дмитрий Орлов")),
                species=("Blue Spruce", "Cassia", "Cherry Blossom", "Dogwood", "Jacaranda", "Maple", "Oak",
                         "Royal Poinciana", "Tulip Poplar", "Willow"),
                result_url="https://club.example/events/3/rounds/2/tables/1/result",
                digital=digital,
            ),
            TableInfo(
                number=2,
                seats=(_seat(1, "Ana García", is_start=True), _seat(2, "Björn Nyström"),
                       _seat(3, "Chloé Dubois", is_dealer=True)),
                species=three,
                result_url="https://club.example/events/3/rounds/2/tables/2/result",
            ),
        ),
    )


def _kinds(texts: list[str]) -> list[str]:
    kinds = []
    for text in texts:
        if "Private-link slips" in text:
            kinds.append("slips")
        elif "Arboretum scorepad" in text:
            kinds.append("scorepad")
        elif "Find your table" in text:
            kinds.append("find")
        elif "Seating:" in text:
            kinds.append("seating")
        else:
            kinds.append("continued")
    return kinds


def test_pack_holds_seating_find_your_table_a_scorepad_per_table_and_slips() -> None:
    pdf = round_pack(small_round())
    assert is_pdf(pdf)
    texts = pages_text(pdf)
    assert _kinds(texts) == ["seating", "find", "scorepad", "scorepad", "slips"]
    seating, find, pad_1, pad_2, slips = texts

    for name in ("Zoë Ångström", "Łukasz Wójcik", "Σοφία Νικολάου", "Дмитрий Орлов", "Chloé Dubois"):
        assert name in seating and name in find
    assert "start player" in seating and "dealer" in seating

    # Alphabetical, accents filed with their letter: Ana, Björn, Chloé, Łukasz, Zoë, then Greek/Cyrillic.
    order = [find.index(n) for n in ("Ana García", "Björn Nyström", "Chloé Dubois", "Łukasz Wójcik", "Zoë Ångström")]
    assert order == sorted(order)

    assert "Autumn Cup — Kraków" in pad_1 and "Round 2" in pad_1 and "Table 1" in pad_1
    seat_order = [pad_1.index(n) for n in ("Zoë Ångström", "Łukasz Wójcik", "Σοφία Νικολάου", "Дмитрий Орлов")]
    assert seat_order == sorted(seat_order)
    assert "START" in pad_1 and "DEALER" in pad_1
    assert "Royal Poinciana" in pad_1 and "Set aside" not in pad_1
    assert "Table 2" in pad_2 and "Set aside before dealing: Royal Poinciana, Tulip Poplar" in pad_2
    for species in ("Cassia", "Oak", "Willow"):
        assert species in pad_2
    assert "Royal Poinciana" not in pad_2.split("Set aside")[0], "species out of play get no row"

    # Only table 1 is digital: four slips, one per seat, in seat order.
    for seat, name in enumerate(("Zoë Ångström", "Łukasz Wójcik", "Σοφία Νικολάου", "Дмитрий Орлов"), start=1):
        assert name in slips and f"slip {seat} of 4" in slips
    assert "Ana García" not in slips


def test_every_qr_code_decodes_to_its_link() -> None:
    data = small_round()
    pdf = round_pack(data)
    kinds = _kinds(pages_text(pdf))
    pads = [i for i, k in enumerate(kinds) if k == "scorepad"]
    assert [qr_codes(pdf, i) for i in pads] == [[t.result_url] for t in data.tables]
    slip_page = kinds.index("slips")
    assert sorted(qr_codes(pdf, slip_page)) == sorted(s.private_url for s in data.tables[0].seats)


def test_no_slips_without_digital_tables() -> None:
    pdf = round_pack(small_round(digital=False))
    assert "slips" not in _kinds(pages_text(pdf))


def test_letter_paper_throughout() -> None:
    pdf = round_pack(replace(small_round(), paper="letter"))
    assert all(size == pytest.approx(LETTER_POINTS, abs=0.5) for size in page_sizes(pdf))


def test_a_big_round_keeps_every_player_and_puts_slips_in_cut_stack_order() -> None:
    data = sample_round_pack(tables=14, digital_every=1)
    pdf = round_pack(data)
    texts = pages_text(pdf)
    everyone = [s.player for t in data.tables for s in t.seats]
    seating_text = "".join(t for t, k in zip(texts, _kinds(texts), strict=True) if k in ("seating", "continued"))
    find_text = "".join(t for t, k in zip(texts, _kinds(texts), strict=True) if k == "find")
    assert all(name in seating_text for name in everyone)
    assert all(name in find_text for name in everyone)
    slip_pages = [t for t, k in zip(texts, _kinds(texts), strict=True) if k == "slips"]
    total = len(everyone)
    assert len(slip_pages) == -(-total // 8)
    for number in range(1, total + 1):
        page = (number - 1) % len(slip_pages)
        assert f"slip {number} of {total} · pile {(number - 1) // len(slip_pages) + 1}" in slip_pages[page]


@given(count=st.integers(min_value=1, max_value=300), per_page=st.integers(min_value=1, max_value=12))
def test_cutting_the_stack_and_piling_the_piles_gives_slip_order(count: int, per_page: int) -> None:
    layout = slip_order(count, per_page)
    assert all(len(page) == per_page for page in layout)
    assert len(layout) == -(-count // per_page)
    # A guillotine cuts every sheet at once: slot k of every sheet lands in pile k, top sheet first.
    piles = [[page[slot] for page in layout] for slot in range(per_page)]
    restacked = [index for pile in piles for index in pile if index is not None]
    assert restacked == list(range(count))


def test_find_your_table_files_accented_letters_with_their_base_letter() -> None:
    names = ["Zoë", "Łukasz", "ana", "Ångström", "Björn", "Ørsted", "Émile"]
    assert sorted(names, key=sort_key) == ["ana", "Ångström", "Björn", "Émile", "Łukasz", "Ørsted", "Zoë"]


def test_names_outside_the_font_print_as_placeholders_without_failing() -> None:
    data = small_round()
    table = replace(data.tables[1], seats=(_seat(1, "李小龍", is_start=True), _seat(2, "Björn Nyström"),
                                           _seat(3, "Chloé <b>&amp; Dubois", is_dealer=True)))
    pdf = round_pack(replace(data, tables=(data.tables[0], table)))
    text = "".join(pages_text(pdf))
    assert "???" in text
    assert "Chloé <b>&amp; Dubois" in text, "names are printed as typed, never read as markup"


def _table(data: RoundPackData, index: int = 0, **changes: object) -> RoundPackData:
    tables = list(data.tables)
    tables[index] = replace(tables[index], **changes)  # type: ignore[arg-type]
    return replace(data, tables=tuple(tables))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: replace(d, tables=()), "round 2 has no seating yet"),
        (lambda d: replace(d, edition="1999"), "unknown edition '1999'"),
        (lambda d: replace(d, paper="a5"), "unknown paper 'a5'"),
        (lambda d: replace(d, game_format="solo"), "unknown game format 'solo'"),
        (lambda d: _table(d, 1, number=1), "table number 1 is used twice"),
        (lambda d: _table(d, 0, seats=d.tables[0].seats[:1]), "table 1 has 1 players; a table seats 2 to 4"),
        (lambda d: _table(d, 0, result_url=""), "table 1 result entry: no link"),
        (lambda d: _table(d, 0, seats=d.tables[0].seats[:3] + (replace(d.tables[0].seats[3], private_url=None),)),
         "table 1 seat 4 .* private link: no link"),
        (lambda d: _table(d, 1, seats=d.tables[1].seats[:2] + (replace(d.tables[1].seats[2], player="zoë ångström"),)),
         "seated twice in round 2"),
        (lambda d: _table(d, 1, species=d.tables[1].species[:7]),
         "table 2: 7 species in play, a standard game for 3 players uses 8"),
        (lambda d: _table(d, 1, species=d.tables[1].species[:7] + ("Lilac",)), "species 'Lilac' is not in the 2018 edition"),
        (lambda d: _table(d, 1, seats=tuple(replace(s, is_start=True) for s in d.tables[1].seats)), "more than one start player"),
        (lambda d: _table(d, 1, seats=tuple(replace(s, seat=1) for s in d.tables[1].seats)), "seat number is used twice"),
        (lambda d: _table(d, 1, seats=d.tables[1].seats[:2] + (replace(d.tables[1].seats[2], player="  "),)),
         "seat 3 has no player name"),
    ],
)
def test_bad_round_data_is_refused_before_printing(change, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PrintingError, match=message):
        round_pack(change(small_round()))


def test_draft_round_scorepads_have_the_planting_bonus_and_draft_species_counts() -> None:
    data = small_round(digital=False)
    nine = data.tables[0].species[:9]
    ten = ("Blue Spruce", "Cassia", "Cherry Blossom", "Dogwood", "Jacaranda", "Maple", "Oak", "Royal Poinciana",
           "Tulip Poplar", "Willow")
    draft = replace(data, game_format="draft", tables=(replace(data.tables[0], species=nine),
                                                       replace(data.tables[1], species=ten)))
    texts = pages_text(round_pack(draft))
    pads = [t for t, k in zip(texts, _kinds(texts), strict=True) if k == "scorepad"]
    assert all("draft (Wonders of the Arboretum)" in t and "Planted every pick (+3)" in t for t in pads)
    assert "Set aside before dealing: Willow" in pads[0]
    assert "2 FEWER if it ends with an 8" in pads[0]
    with pytest.raises(PrintingError, match="a draft game for 4 players uses 9"):
        round_pack(replace(draft, tables=(replace(data.tables[0], species=ten), draft.tables[1])))


def test_the_first_page_carries_the_public_pages_qr_code() -> None:
    """Players scan the seating list to open the event's public page."""
    url = "https://club.example/e/Xq7Tz2mWk9vRb3Hn"
    pdf = round_pack(replace(sample_round_pack(tables=3), public_url=url))
    assert url in qr_codes(pdf, 0)
    assert "Scan for your table" in pages_text(pdf)[0]
    # switched off: no code, no caption
    plain = round_pack(sample_round_pack(tables=3))
    assert qr_codes(plain, 0) == [] and "Scan for your table" not in pages_text(plain)[0]
