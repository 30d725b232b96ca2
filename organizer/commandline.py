"""The installed ``arboretum`` command: the engine's subcommands plus printing (``scorepad``)."""

from __future__ import annotations

import argparse
from typing import Sequence

from engine.cli import add_engine_commands, run

from .printing.cli import add_scorepad_command


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arboretum",
        description="Arboretum tournament tools: score tables, simulate bot games, print scorepads.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_engine_commands(subparsers)
    add_scorepad_command(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser(), argv)
