"""The installed ``arboretum`` command: the engine's subcommands plus printing (``scorepad``).

A subcommand's module is imported only when it is the one run (see :func:`engine.cli.build_parser`),
so ``arboretum score`` never imports the PDF library, and the organizer package it lives in
imports no Flask or database (see ``organizer/__init__.py``).

Names: ``organizer/cli.py`` holds the ``flask --app organizer`` commands; a package's ``cli.py``
(``engine/cli.py``, ``organizer/printing/cli.py``) defines its subcommands of this command."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from engine.cli import ENGINE_COMMANDS, Command, build_parser, run_words

COMMANDS: dict[str, Command] = {
    **ENGINE_COMMANDS,
    "scorepad": ("print a blank scorepad as a PDF", "organizer.printing.cli:add_scorepad_command"),
}
DESCRIPTION = "Arboretum tournament tools: score tables, simulate bot games, print scorepads."


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    return run_words(words, lambda: build_parser("arboretum", DESCRIPTION, COMMANDS, words), argv is None)
