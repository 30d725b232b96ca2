"""The installed ``arboretum`` command joins the engine's and the printing subcommands."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from organizer.arboretum_command import main
from tests.engine.worked_example import CASE


def test_scorepad_writes_a_pdf(tmp_path: Path) -> None:
    out = tmp_path / "pad.pdf"
    assert main(["scorepad", "--players", "3", "--edition", "2010", "--paper", "letter", "-o", str(out)]) == 0
    text = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert "Crabapple" in text and "Willow" in text


def test_score_through_the_installed_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "case.json"
    case.write_text(json.dumps(CASE))
    assert main(["score", str(case)]) == 0
    assert json.loads(capsys.readouterr().out)["winners"] == ["Talia"]


def test_unknown_command_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["shuffle"])
    assert info.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0
    assert all(name in out for name in ("score", "simulate", "scorepad"))


def test_scoring_imports_neither_the_web_app_nor_the_pdf_library(tmp_path: Path) -> None:
    # what makes `arboretum score` start in a tenth of a second rather than a second
    case = tmp_path / "case.json"
    case.write_text(json.dumps(CASE))
    program = (
        "import sys; from organizer.arboretum_command import main; code = main(['score', sys.argv[1]]); "
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'flask', 'sqlalchemy', 'sqlmodel', 'alembic', "
        "'reportlab', 'flask_wtf', 'flask_htmx', 'werkzeug', 'jinja2'} | {m for m in sys.modules if m.startswith("
        "('engine.bots', 'engine.simulate', 'organizer.printing'))}); print(code, heavy, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", program, str(case)], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["winners"] == ["Talia"]
    assert done.stderr.strip() == "0 []"


def test_every_public_engine_name_loads_on_first_use() -> None:
    # the package loads its names lazily (engine/__init__.py); each must still be there
    program = (
        "import sys, engine; before = set(sys.modules); names = {n: getattr(engine, n) for n in engine.__all__}; "
        "from engine.games import Game; from engine.case import ScoreCase; "
        "assert names['Game'] is Game and names['ScoreCase'] is ScoreCase; "
        "print(len(names), 'engine.games' in before)"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    import engine

    assert done.stdout.split() == [str(len(engine.__all__)), "False"]


def test_an_ordinary_score_imports_only_what_scoring_needs(tmp_path: Path) -> None:
    # argparse (gettext, locale), shutil and dataclasses were half the start-up of
    # `arboretum score` over a plain list of files
    case = tmp_path / "case.json"
    case.write_text(json.dumps(CASE))
    program = (
        "import sys; from organizer.arboretum_command import main; code = main(['score', '--jobs', '1', sys.argv[1]]); "
        "print(code, sorted(set(sys.modules) & {'argparse', 'shutil', 'dataclasses', 'engine.cards', "
        "'engine.paths', 'engine.case'}), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", program, str(case)], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["winners"] == ["Talia"]
    assert done.stderr.strip() == "0 []"


@pytest.mark.parametrize(
    "words",
    [
        ["score", "a.json"],
        ["score", "a.json", "b c.json", "-"],
        ["score", "--jobs", "3", "a.json", "b.json"],
        ["score", "-j", "0", "a.json"],
        ["score", "--jobs", "12", "x=y.json", ""],
    ],
)
def test_a_plain_score_line_reads_as_argparse_reads_it(words: list[str]) -> None:
    from engine.cli import ENGINE_COMMANDS, build_parser, plain_score

    args = build_parser("arboretum", "", ENGINE_COMMANDS, words).parse_args(words)
    assert plain_score(words) == (args.cases, args.jobs)


@pytest.mark.parametrize(
    "words",
    [
        ["score"],
        ["score", "-h"],
        ["score", "--jobs", "a.json"],
        ["score", "--jobs", "x", "a.json"],
        ["score", "--jobs=2", "a.json"],
        ["score", "-j2", "a.json"],
        ["score", "a.json", "--jobs", "2"],
        ["score", "--", "-a.json"],
        ["score", "--jobs", "١", "a.json"],
        ["simulate", "a.json"],
    ],
)
def test_any_other_line_goes_to_argparse(words: list[str]) -> None:
    from engine.cli import plain_score

    assert plain_score(words) is None


def test_the_eight_bonus_of_the_plain_data_is_the_path_finders() -> None:
    from engine.card_data import EIGHT_BONUS_STANDARD
    from engine.paths import EIGHT_BONUS_STANDARD as PATHS_BONUS

    assert EIGHT_BONUS_STANDARD == PATHS_BONUS
