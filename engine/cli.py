"""The ``arboretum`` command's engine subcommands: ``score`` (and ``simulate``, see simulate.py).

``organizer.commandline`` builds the installed command from :func:`add_engine_commands`, adding
the printing subcommands; ``python -m engine`` runs the engine's own part alone."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence, TextIO

from .case import parse_case_text
from .errors import ArboretumError


def score_files(paths: Sequence[str], out: TextIO, stdin: TextIO) -> int:
    """Score each case file, one JSON line each; returns the exit status (1 if any case failed)."""
    status = 0
    for path in paths:
        try:
            if path == "-":
                text = stdin.read()
            else:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
            result: dict[str, object] = parse_case_text(text).score().to_json()
        except ArboretumError as exc:
            result, status = {"error": f"{path}: {exc}"}, 1
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            result, status = {"error": f"{path}: cannot read the file: {reason}"}, 1
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return status


def _run_score(args: argparse.Namespace) -> int:
    return score_files(args.cases, sys.stdout, sys.stdin)


def add_engine_commands(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    score = subparsers.add_parser(
        "score",
        help="score finished tables given as score cases",
        description="Score finished tables in the score-case format; one JSON result line per case.",
    )
    score.add_argument("cases", nargs="+", metavar="CASE.json", help="score-case files; - reads one from standard input")
    score.set_defaults(handler=_run_score)

    from .simulate import add_simulate_command

    add_simulate_command(subparsers)


def build_parser(prog: str = "arboretum") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Arboretum rules engine: score tables and simulate games.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_engine_commands(subparsers)
    return parser


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> int:
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser(), argv)
