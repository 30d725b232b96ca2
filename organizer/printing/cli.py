"""``arboretum scorepad``: a blank scorepad from the command line."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO

from organizer.printing.errors import PrintingError
from organizer.printing.scorepad import blank_scorepad


def _players(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise PrintingError(f"--players {text!r}: expected 2, 3 or 4") from None


def write_pdf(content: bytes, output: str, stdout: BinaryIO | None = None) -> None:
    """Write to ``output`` ("-" is standard output) without ever leaving half a file behind."""
    if output == "-":
        stream = stdout if stdout is not None else sys.stdout.buffer
        stream.write(content)
        stream.flush()
        return
    target = Path(output)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise PrintingError(f"cannot write {output}: folder {folder} does not exist")
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
        # mkstemp makes the file private; a printed scorepad gets the usual permissions.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise PrintingError(f"cannot write {output}: {error.strerror or error}") from None


def run_scorepad(args: argparse.Namespace) -> int:
    try:
        content = blank_scorepad(_players(args.players), args.edition, args.paper)
        write_pdf(content, args.output)
    except PrintingError as error:
        print(f"arboretum scorepad: error: {error}", file=sys.stderr)
        return 2
    if args.output != "-":
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def add_scorepad_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    # Values are checked by the handler rather than argparse ``choices`` so every mistake gets
    # the same plain sentence the web app shows.
    parser = subparsers.add_parser(
        "scorepad",
        help="print a blank scorepad as a PDF",
        description="A blank Arboretum scorepad (standard game) for 2, 3 or 4 players, as a PDF.",
    )
    parser.add_argument("--players", default="4", metavar="N", help="2, 3 or 4 (default 4)")
    parser.add_argument("--edition", default="2018", metavar="YEAR", help="2018 or 2010 (default 2018)")
    parser.add_argument("--paper", default="a4", metavar="SIZE", help="a4 or letter (default a4)")
    parser.add_argument("-o", "--output", default="scorepad.pdf", metavar="FILE",
                        help="where to write the PDF; - writes to standard output (default scorepad.pdf)")
    parser.set_defaults(handler=run_scorepad)
