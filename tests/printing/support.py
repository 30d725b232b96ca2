"""Reading printed PDFs back as a person would: the text on each page, the page size, the QR
codes a phone would scan, and the colours on the paper. (No tests here: helpers only.)"""

from __future__ import annotations

import io
import re

import pypdfium2 as pdfium
import zxingcpp
from PIL import Image
from pypdf import PdfReader

A4_POINTS = (595.28, 841.89)
LETTER_POINTS = (612.0, 792.0)


def pages_text(pdf: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(pdf))
    return [normalise(page.extract_text() or "") for page in reader.pages]


def all_text(pdf: bytes) -> str:
    return "\n".join(pages_text(pdf))


def normalise(text: str) -> str:
    """Extracted text with every run of white space made one space: a table cell or a wrapped
    line comes out of the extractor with line breaks where the reader sees a space."""
    return re.sub(r"\s+", " ", text).strip()


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    reader = PdfReader(io.BytesIO(pdf))
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in reader.pages]


def is_pdf(pdf: bytes) -> bool:
    return pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")


def render(pdf: bytes, page: int, dpi: float = 110) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    try:
        return document[page].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def qr_codes(pdf: bytes, page: int, dpi: float = 110) -> list[str]:
    """The text of every QR code a scanner finds on the rendered page."""
    image = render(pdf, page, dpi)
    return [result.text for result in zxingcpp.read_barcodes(image) if result.format == zxingcpp.BarcodeFormat.QRCode]


def has_colour(image: Image.Image, hex_value: str, tolerance: int = 6, at_least: int = 30) -> bool:
    """Whether at least ``at_least`` pixels are (nearly) the given colour."""
    target = tuple(int(hex_value[i:i + 2], 16) for i in (1, 3, 5))
    colours = image.getcolors(maxcolors=image.width * image.height) or []
    count = sum(n for n, pixel in colours if all(abs(a - b) <= tolerance for a, b in zip(pixel, target, strict=False)))
    return count >= at_least
