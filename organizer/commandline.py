"""The installed ``arboretum`` command: the engine's subcommands plus printing (``scorepad``)."""

from __future__ import annotations

from typing import Sequence

from engine.cli import build_parser, run


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    return run(parser, argv)
