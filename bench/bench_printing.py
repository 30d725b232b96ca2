"""Printed matter: how long the big PDFs take, against reportlab drawing bare pages.

Run: .venv/bin/python bench/bench_printing.py [--repeat N]
Documents timed (best of N runs, one core):
- a round pack for 64 tables (256 players): seating list, find-your-table, 64 pre-filled
  scorepads with a QR code each, and, when every table is digital, 256 private-link slips;
- standings for 500 players after 6 rounds (multi-page table, header repeated).
The baseline in the same run is reportlab drawing the same number of pages with one line of
text each (the floor for any PDF of that length). Each QR code is encoded by reportlab's pure
Python encoder, which is most of a round pack's time."""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pypdf import PdfReader  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

from organizer.printing import round_pack, standings_pdf  # noqa: E402
from organizer.printing.qr import qr_modules  # noqa: E402
from organizer.printing.samples import sample_round_pack, sample_standings  # noqa: E402


def best_of(repeat: int, make: Callable[[], bytes]) -> tuple[float, bytes]:
    best, result = float("inf"), b""
    for _ in range(repeat):
        qr_modules.cache_clear()  # every run encodes its links afresh, as a new round would
        start = time.perf_counter()
        result = make()
        best = min(best, time.perf_counter() - start)
    return best, result


def bare_pages(count: int) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pageCompression=1)
    for number in range(1, count + 1):
        canvas.drawString(72, 72, f"page {number}")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    # Warm up once: font files parsed and registered, modules imported.
    standings_pdf(sample_standings(players=8))

    cases = [
        ("round pack, 64 tables, all digital", lambda: round_pack(sample_round_pack(tables=64, digital_every=1))),
        ("round pack, 64 tables, none digital", lambda: round_pack(sample_round_pack(tables=64, digital_every=999))),
        ("standings, 500 players", lambda: standings_pdf(sample_standings(players=500, after_round=6))),
    ]
    print(f"| document | pages | size | time | bare pages, same count | per page |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, make in cases:
        seconds, pdf = best_of(args.repeat, make)
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        bare_seconds, _ = best_of(args.repeat, lambda: bare_pages(pages))
        print(f"| {label} | {pages} | {len(pdf) / 1024:.0f} KiB | {seconds:.2f} s | {bare_seconds * 1000:.0f} ms "
              f"| {seconds / pages * 1000:.1f} ms |")
    start = time.perf_counter()
    for index in range(50):
        qr_modules(f"https://arboretum.example.org/play/r3/t{index}/s1/0123456789ab")
    print(f"\nQR encoding alone (reportlab's encoder, one private link): "
          f"{(time.perf_counter() - start) / 50 * 1000:.1f} ms a code")


if __name__ == "__main__":
    main()
