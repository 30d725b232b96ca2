"""The installed ``arboretum`` command joins the engine's and the printing subcommands."""

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from organizer.commandline import main
from tests.engine.test_worked_example import CASE


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
