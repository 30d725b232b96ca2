"""QR codes: every link printed scans back to itself, at error correction level M."""

from __future__ import annotations

import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from organizer.printing.qr import qr_modules, qr_rows
from tests.fixtures.examples import examples

LINKS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-/", min_size=1, max_size=180).map(
    lambda tail: f"https://club.example/{tail}")


def scan(modules: tuple[tuple[bool, ...], ...]) -> list[zxingcpp.Barcode]:
    scale, quiet = 4, 4
    side = (len(modules) + 2 * quiet) * scale
    image = Image.new("L", (side, side), 255)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                image.paste(0, ((x + quiet) * scale, (y + quiet) * scale, (x + quiet + 1) * scale, (y + quiet + 1) * scale))
    return list(zxingcpp.read_barcodes(image))


@settings(max_examples=examples(25), deadline=None)
@given(link=LINKS)
def test_a_code_scans_back_to_its_link_at_level_m(link: str) -> None:
    modules = qr_modules(link)
    size = len(modules)
    assert all(len(row) == size for row in modules) and (size - 17) % 4 == 0  # a standard version's size
    (found,) = scan(modules)
    assert found.format == zxingcpp.BarcodeFormat.QRCode
    assert found.text == link
    assert found.ec_level == "M"


def test_rows_and_modules_are_the_same_code() -> None:
    link = "https://club.example/play/abcdefghijklmnopqrstuvwxyz012345"
    assert qr_modules(link) == tuple(tuple(digit == "1" for digit in row) for row in qr_rows(link))
    # The finder pattern in the top left corner: a dark 7x7 ring around a light one and a dark 3x3.
    assert qr_rows(link)[0][:8] == "11111110" and qr_rows(link)[1][:8] == "10000010"
    assert qr_rows(link)[2][:8] == "10111010"
