"""The built wheel runs outside the checkout: its templates, static files, fonts, migrations and
translations travel inside it.

The wheel is built with the environment's own hatchling (no download) and installed into a fresh
virtual environment whose dependencies come from this one (a .pth file naming this environment's
site-packages, searched after the new one's: the wheel's packages win). Everything then runs from
a temporary folder, so the checkout cannot be imported by accident: the script checks that
``organizer`` and ``engine`` come from the new environment, then drives the app with Flask's test
client, after creating an account with ``flask create-organizer`` (which also runs the packaged
migrations)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import textwrap
import venv
from pathlib import Path

import pytest

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parent.parent

#: run inside the new environment, from a temporary folder; prints "ok" when every check holds
CHECKS = textwrap.dedent(
    """
    import re, sys
    from pathlib import Path

    import engine
    import organizer
    from organizer.printing import fonts

    prefix = Path(sys.prefix).resolve()
    for module in (engine, organizer):
        assert prefix in Path(module.__file__).resolve().parents, f"{module.__name__} from {module.__file__}"
    assert organizer.TEMPLATES == organizer.PACKAGE_ROOT / "templates", organizer.TEMPLATES
    assert organizer.STATIC == organizer.PACKAGE_ROOT / "static", organizer.STATIC
    assert prefix in fonts._find("DejaVuSans.ttf").resolve().parents, fonts._find("DejaVuSans.ttf")

    app = organizer.create_app()
    assert prefix in Path(app.template_folder).resolve().parents
    client = app.test_client()

    page = client.get("/sign-in")
    assert page.status_code == 200, page.status_code
    css = re.search(r'<link rel="stylesheet" href="([^"]+)"', page.text)
    assert css, "no stylesheet link on /sign-in"
    sheet = client.get(css.group(1))
    assert sheet.status_code == 200 and sheet.mimetype == "text/css", (css.group(1), sheet.status_code)
    sheet.close()

    practice = client.get("/practice")
    assert practice.status_code == 200 and "<form" in practice.text, practice.status_code

    htmx = re.search(r'<script[^>]* src="([^"]*htmx[^"]*)"', page.text)
    assert htmx, "no htmx script on /sign-in"
    for path, kind in ((htmx.group(1), "javascript"), ("/static/core/favicon.svg", "svg")):
        answer = client.get(path)
        assert answer.status_code == 200 and kind in answer.mimetype, (path, answer.status_code, answer.mimetype)
        answer.close()

    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript", worker.status_code
    assert "/static/core/organizer.css" in worker.text

    pdf = client.get("/scorepad.pdf?players=4&edition=2018&paper=a4")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf", (pdf.status_code, pdf.mimetype)
    assert pdf.data.startswith(b"%PDF"), pdf.data[:20]

    german = client.get("/sign-in", headers={"Accept-Language": "de"})
    assert german.status_code == 200 and "Anmelden" in german.text, german.status_code
    print("ok")
    """
)


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 60) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_wheel_runs_outside_the_checkout(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(ROOT)],
         tmp_path, env)
    (wheel,) = wheels.glob("arboretum_organizer-*.whl")

    target = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    new_site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         tmp_path, env).strip())
    # the dependencies from this environment; a .pth names a folder without running its own .pth
    # files, so this environment's editable install (the checkout) stays out
    (new_site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)],
         tmp_path, env)

    work = tmp_path / "elsewhere"
    work.mkdir()
    env["ORGANIZER_INSTANCE_PATH"] = str(tmp_path / "instance")
    _run([str(python), "-m", "flask", "--app", "organizer", "create-organizer", "wheel", "--password", "a wheel password"],
         work, env)
    assert _run([str(python), "-c", CHECKS], work, env).strip().endswith("ok")
