"""The ``arboretum`` command's engine subcommands: ``score`` (and ``simulate``, see simulate.py).

``organizer.arboretum_command`` builds the installed command from :data:`ENGINE_COMMANDS`, adding
the printing subcommand; ``python -m engine`` runs the engine's own part alone.

Subcommands are loaded lazily: the parser gets the full definition (and imports the module) of
the one subcommand named on the command line only, and a one-line entry for the others, so
``arboretum score`` starts without importing the bots or the PDF library."""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # imported when a parser is built: a plain ``score FILE...`` needs none
    import argparse

from .errors import ArboretumError
from .score_line import score_line

#: A subcommand: its one-line help, and "module:function" of the function adding its parser.
Command = tuple[str, str]

ENGINE_COMMANDS: dict[str, Command] = {
    "score": ("score finished tables given as score cases", "engine.cli:add_score_command"),
    "simulate": ("play seeded bot games and summarise them", "engine.cli:add_simulate_command"),
}


#: from this many case files on, ``arboretum score`` shares them out among processes, one a core
PARALLEL_FROM = 400


def score_files(paths: Sequence[str], out: TextIO, stdin: TextIO, workers: int = 1) -> int:
    """Score each case file, one JSON line each, in the order given; returns the exit status (1 if
    any case failed). With ``workers`` > 1 the files are shared out among that many processes,
    when ``out`` is a file (the processes write to it in turn)."""
    if workers > 1 and len(paths) >= 2 * workers and "-" not in paths and hasattr(os, "fork"):
        fd = _descriptor(out)
        if fd is not None:
            return _score_in_processes(paths, out, fd, stdin, workers)
    status = 0
    for line, failed in _score_many(paths, stdin):
        status |= failed
        out.write(line + "\n")
    out.flush()
    return status


def _descriptor(out: TextIO) -> int | None:
    try:
        return out.fileno()
    except (AttributeError, OSError):  # io.StringIO has none (io.UnsupportedOperation)
        return None


#: files read at a time before they are scored: the kernel's work for a read evicts the
#: interpreter's own data from the caches, and alternating reading and scoring is 13 µs a table
#: slower (7 %)
READ_AHEAD = 32


def _score_many(paths: Sequence[str], stdin: TextIO) -> Iterator[tuple[str, bool]]:
    """Each file's result line, or its error line, and whether it failed, in the order given."""
    for start in range(0, len(paths), READ_AHEAD):
        batch = paths[start : start + READ_AHEAD]
        contents = [_read(path, stdin) for path in batch]
        for path, content in zip(batch, contents, strict=True):
            yield _score_content(path, content)


def _read(path: str, stdin: TextIO) -> bytes | str | OSError:
    try:
        if path == "-":
            return stdin.read()
        with open(path, "rb", buffering=0) as handle:
            return handle.read()
    except OSError as exc:
        return exc


def _score_content(path: str, content: bytes | str | OSError) -> tuple[str, bool]:
    """The result line of one case file's content, or its error line; and whether it failed."""
    try:
        if isinstance(content, OSError):
            raise content
        if isinstance(content, str):  # standard input
            return score_text(content), False
        line = score_line(content)
        if line is not None:
            return line, False
        # the full path reads the text as text mode would: UTF-8, universal newlines
        text = content.decode("utf-8")
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        return _score_in_full(text), False
    except ArboretumError as exc:
        return error_line(f"{path}: {exc}"), True
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return error_line(f"{path}: cannot read the file: {reason}"), True


def _score_in_processes(paths: Sequence[str], out: TextIO, fd: int, stdin: TextIO, workers: int) -> int:
    """Score the files in ``workers`` processes: this one takes the first share and prints it as it
    goes; each forked child scores its share, says it is ready, and when its turn comes (every
    share before it printed) writes its lines straight to the output. Nothing is copied through
    this process. Same lines, same order, same status as one process."""
    size = -(-len(paths) // workers)
    shares = [paths[k : k + size] for k in range(0, len(paths), size)]
    out.flush()  # a child must not inherit unwritten output
    children = []
    for share in shares[1:]:
        ready_read, ready_write = os.pipe()
        go_read, go_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: it never returns into the caller's code
            code = 2
            try:
                os.close(ready_read)
                os.close(go_write)
                results = list(_score_many(share, stdin))
                # encoded as the output would encode them: a line it cannot take fails here, before
                # "ready", and this process then scores the share and meets the same error
                data = "".join([line + "\n" for line, _ in results]).encode(out.encoding, out.errors or "strict")
                os.write(ready_write, b"r")
                if os.read(go_read, 1) == b"g":
                    try:
                        _write_all(fd, data)
                        code = 1 if any(failed for _, failed in results) else 0
                    except BrokenPipeError:
                        code = _READER_GONE
            finally:
                os._exit(code)
        os.close(ready_write)
        os.close(go_read)
        children.append((pid, ready_read, go_write, share))
    status = score_files(shares[0], out, stdin)
    for pid, ready_read, go_write, share in children:
        with os.fdopen(ready_read, "rb") as ready_pipe, os.fdopen(go_write, "wb", buffering=0) as go_pipe:
            ready = ready_pipe.read(1) == b"r"
            if ready:
                out.flush()
                go_pipe.write(b"g")
        code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        if not ready:  # the child broke off (killed, or an error) before it wrote anything: score here
            status |= score_files(share, out, stdin)
        elif code in (0, 1):
            status |= code
        elif code == _READER_GONE:
            raise BrokenPipeError(errno.EPIPE, "the reader of the output stopped reading")
        else:  # it broke off while writing: its lines are cut short, and the status says so
            print(f"arboretum score: the process scoring {share[0]} to {share[-1]} stopped while writing", file=sys.stderr)
            status |= 2
    return status


#: a child's exit status when the output's reader stopped reading (``| head``)
_READER_GONE = 3


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def worker_count(files: int) -> int:
    """How many processes ``arboretum score`` uses for ``files`` case files: one a core for many."""
    if files < PARALLEL_FROM:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores, 8))


def score_text(text: str) -> str:
    """The result line of one case's text; raises an :class:`ArboretumError` naming its fault."""
    line = score_line(text)
    return _score_in_full(text) if line is None else line


def _score_in_full(text: str) -> str:
    # the one definition of the rules, and the one that names faults
    from .case import parse_case_text

    return parse_case_text(text).score().to_json_text()


def error_line(message: str) -> str:
    return json.dumps({"error": message}, ensure_ascii=False)


def _run_score(args: argparse.Namespace) -> int:
    return _score_cases(args.cases, args.jobs)


def _score_cases(cases: Sequence[str], jobs: int | None) -> int:
    workers = worker_count(len(cases)) if jobs is None else max(1, jobs)
    return score_files(cases, sys.stdout, sys.stdin, workers)


def plain_score(words: Sequence[str]) -> tuple[list[str], int | None] | None:
    """(case files, --jobs) of a command line ``score [--jobs N] FILE...`` whose files are plain
    words (none starting with "-" but "-" itself) and N plain digits; None for anything else, which
    argparse reads (help, errors, other spellings). Such a line means the same to argparse, which
    with its gettext and locale would be a tenth of the command's start-up."""
    if len(words) < 2 or words[0] != "score":
        return None
    jobs = None
    cases = list(words[1:])
    if cases[0] in ("--jobs", "-j") and len(cases) >= 3 and cases[1].isascii() and cases[1].isdigit():
        jobs = int(cases[1])
        cases = cases[2:]
    for word in cases:
        if word.startswith("-") and word != "-":
            return None
    return cases, jobs


def add_score_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    score = subparsers.add_parser(
        "score",
        help=ENGINE_COMMANDS["score"][0],
        description="Score finished tables in the score-case format; one JSON result line per case.",
    )
    score.add_argument("cases", nargs="+", metavar="CASE.json", help="score-case files; - reads one from standard input")
    score.add_argument(
        "-j",
        "--jobs",
        type=int,
        metavar="N",
        help=f"processes to share the files among (default: one a core from {PARALLEL_FROM} files on)",
    )
    score.set_defaults(handler=_run_score)


def add_simulate_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .simulate import add_simulate_command as add

    add(subparsers)


def build_parser(
    prog: str,
    description: str,
    commands: Mapping[str, Command],
    argv: Sequence[str],
) -> argparse.ArgumentParser:
    """A parser with every one of ``commands``, fully defined only for the one ``argv`` names."""
    import argparse
    import importlib

    parser = argparse.ArgumentParser(prog=prog, description=description)
    # prog given: argparse would otherwise format the usage to find it, importing shutil for the
    # terminal's width
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", prog=prog)
    # the top-level parser has no options but -h, so the first word not starting with - is the command
    chosen = next((word for word in argv if not word.startswith("-")), None)
    for name, (help_text, target) in commands.items():
        if name == chosen:
            module, function = target.split(":")
            adder: Callable[[object], None] = getattr(importlib.import_module(module), function)
            adder(subparsers)
        else:
            subparsers.add_parser(name, help=help_text)
    return parser


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> int:
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def run_words(
    words: Sequence[str], make_parser: Callable[[], argparse.ArgumentParser], whole_process: bool = False
) -> int:
    """Runs a command line: a plain ``score`` line at once, anything else through the parser.

    ``whole_process``: the line is the process's own (the installed command, ``python -m engine``);
    a plain ``score`` run then ends the process itself once its output is flushed, without the
    interpreter's teardown, which frees every object one by one (about 10 ms after 3,000 tables,
    a thirtieth of the run) and has nothing to do for it: it leaves no file open and registers
    nothing to run at exit."""
    plain = plain_score(words)
    if plain is None:
        return run(make_parser(), words)
    try:
        status = _score_cases(*plain)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader stopped reading (`arboretum score *.json | head`): stop quietly, as other
        # command-line tools do, the lines still buffered going nowhere (Python's documented way,
        # "Note on SIGPIPE" in the signal module's documentation)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    if whole_process:  # score_files has flushed the output
        sys.stderr.flush()
        os._exit(status)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    description = "Arboretum rules engine: score tables and simulate games."
    return run_words(words, lambda: build_parser("arboretum", description, ENGINE_COMMANDS, words), argv is None)

