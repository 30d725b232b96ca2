"""Printed matter: how long the big PDFs take, against reportlab drawing bare pages.

Run: .venv/bin/python bench/bench_printing.py [--tables 1000] [--repeat N] [--profile DOCUMENT]
Documents timed (best of N runs, wall clock and this process's CPU time; one core):
- a round pack for --tables tables (4 players each): seating list, find-your-table, a
  pre-filled scorepad per table with a QR code each, and, when every table is digital, a
  private-link slip with a QR code per seat (~5,000 codes for 1,000 tables);
- the same pack with no digital table (no slips);
- the end-of-event report of --tables tables (500 players over 8 rounds for 1,000 tables);
- standings for 500 players after 6 rounds (multi-page table, header repeated).
The baseline in the same run is reportlab drawing the same number of pages with one line of
text each (the floor for any PDF of that length). Then QR encoders compared in the same run:
the one printing uses, and zxing-cpp, segno and reportlab's widget when installed.
The machine may be shared: print the load average, repeat, and compare best times only.
--profile pack|report prints the top of a cProfile of one run instead."""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from organizer.printing import event_report, qr, round_pack, standings_pdf
from organizer.printing.layout import fit_text
from organizer.printing.samples import sample_event_report, sample_round_pack, sample_standings


def fresh_caches() -> None:
    """Every run encodes its links and fits its names afresh, as a new round would."""
    for cached in vars(qr).values():
        if hasattr(cached, "cache_clear"):
            cached.cache_clear()
    fit_text.cache_clear()


def best_of(repeat: int, make: Callable[[], bytes]) -> tuple[float, float, bytes]:
    best_wall, best_cpu, result = float("inf"), float("inf"), b""
    for _ in range(repeat):
        fresh_caches()
        wall, cpu = time.perf_counter(), time.process_time()
        result = make()
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best_wall, best_cpu, result


def bare_pages(count: int) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pageCompression=1)
    for number in range(1, count + 1):
        canvas.drawString(72, 72, f"page {number}")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def encoders() -> dict[str, Callable[[str], object]]:
    """The QR encoders to compare: each makes the code of a link, best mask chosen, level M."""
    found: dict[str, Callable[[str], object]] = {"printing's qr_modules": qr.qr_modules}
    try:
        import zxingcpp

        found["zxing-cpp"] = lambda url: zxingcpp.create_barcode(
            url, zxingcpp.BarcodeFormat.QRCode, ec_level="M").to_image(scale=1, add_quiet_zones=False)
    except ImportError:
        pass
    try:
        import segno

        found["segno"] = lambda url: segno.make_qr(url, error="m", boost_error=False).matrix
    except ImportError:
        pass
    from reportlab.graphics.barcode.qr import QrCodeWidget

    def reportlab_widget(url: str) -> object:
        code = QrCodeWidget(url, barLevel="M").qr
        code.make()
        return code.modules

    found["reportlab widget"] = reportlab_widget
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", choices=("pack", "report"))
    args = parser.parse_args()

    # Warm up once: font files parsed and registered, modules imported.
    standings_pdf(sample_standings(players=8))
    players, rounds = args.tables // 2, 8  # 1,000 tables: 500 players, 125 tables a round
    pack_all = sample_round_pack(tables=args.tables, digital_every=1)
    pack_none = sample_round_pack(tables=args.tables, digital_every=10**9)
    report = sample_event_report(players=players, rounds=rounds)
    if args.profile:
        make = (lambda: round_pack(pack_all)) if args.profile == "pack" else (lambda: event_report(report))
        profile = cProfile.Profile()
        profile.runcall(make)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(35)
        return

    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    cases = [
        (f"round pack, {args.tables} tables, all digital", lambda: round_pack(pack_all)),
        (f"round pack, {args.tables} tables, none digital", lambda: round_pack(pack_none)),
        (f"event report, {players} players, {rounds} rounds ({sum(len(r.tables) for r in report.rounds)} tables)",
         lambda: event_report(report)),
        ("standings, 500 players", lambda: standings_pdf(sample_standings(players=500, after_round=6))),
    ]
    print("| document | pages | size | time (wall) | CPU | bare pages, same count | per page |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, make in cases:
        wall, cpu, pdf = best_of(args.repeat, make)
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        bare_wall, _, _ = best_of(args.repeat, lambda pages=pages: bare_pages(pages))
        print(f"| {label} | {pages} | {len(pdf) / 1024:.0f} KiB | {wall:.2f} s | {cpu:.2f} s | {bare_wall * 1000:.0f} ms "
              f"| {wall / pages * 1000:.1f} ms |")

    rng = random.Random(1)
    print("\n| QR encoder (100 private links, best of 3) | a code |")
    print("|---|---:|")
    for name, encode in encoders().items():
        best = float("inf")
        for _ in range(3):
            # New links every time, so no cache answers.
            links = [f"https://arboretum.example.org/play/{rng.getrandbits(96):024x}" for _ in range(100)]
            start = time.perf_counter()
            for link in links:
                encode(link)
            best = min(best, time.perf_counter() - start)
        print(f"| {name} | {best / len(links) * 1000:.2f} ms |")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
