"""The QR encoding shortcut gives exactly the code reportlab's widget would make."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.barcode.qrencoder import QRUtil

from organizer.printing.qr import lost_points, qr_modules

LINKS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-/", min_size=1, max_size=180).map(
    lambda tail: f"https://club.example/{tail}")


@settings(max_examples=25, deadline=None)
@given(link=LINKS, mask=st.integers(min_value=0, max_value=7))
def test_penalty_score_is_reportlabs(link: str, mask: int) -> None:
    code = QrCodeWidget(link, barLevel="M").qr
    code.version = code.calculate_version()
    code.makeImpl(True, mask)
    assert lost_points(code.modules) == QRUtil.getLostPoint(code)


@settings(max_examples=15, deadline=None)
@given(link=LINKS)
def test_modules_are_those_of_reportlabs_widget(link: str) -> None:
    widget = QrCodeWidget(link, barLevel="M")
    widget.qr.make()
    assert qr_modules(link) == tuple(tuple(bool(m) for m in row) for row in widget.qr.modules)
