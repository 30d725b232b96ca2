"""The organizer web app (see create_app).

The package itself stays light: the ``arboretum`` console command lives in it too and must not
import Flask, the database or the PDF library before it knows it needs them. The factory and its
imports are in :mod:`organizer.app`; the extensions in :mod:`organizer.core.extensions`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from flask import Flask

    # from the module's __getattr__:
    #: the folder above the package: the checkout, in a checkout or an editable install
    PROJECT_ROOT: Path
    #: the package's own folder
    PACKAGE_ROOT: Path
    #: the templates and static files: in the package when installed from the wheel (which maps
    #: the checkout's top-level templates/ and static/ into it, pyproject.toml), else the checkout's
    TEMPLATES: Path
    STATIC: Path
    #: the instance folder (database, secret key, config.py) when ORGANIZER_INSTANCE_PATH names
    #: none: the checkout's instance/; installed from the wheel, Flask's own place for an installed
    #: app, var/organizer-instance under the environment's prefix (sys.prefix), so every command
    #: of one installation (gunicorn, flask create-organizer) finds the same database whatever
    #: folder it is started from
    DEFAULT_INSTANCE: Path


def __getattr__(name: str) -> Path:
    # the paths are worked out when first asked for: importing pathlib is a tenth of the start of
    # ``arboretum score``, which does not need them
    if name not in ("PROJECT_ROOT", "PACKAGE_ROOT", "TEMPLATES", "STATIC", "DEFAULT_INSTANCE"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import pathlib

    package = pathlib.Path(__file__).resolve().parent
    installed = (package / "templates").is_dir()
    if name == "PACKAGE_ROOT":
        return package
    if name == "PROJECT_ROOT":
        return package.parent
    if name in ("TEMPLATES", "STATIC"):
        return (package if installed else package.parent) / name.lower()
    if installed:
        import sys

        return pathlib.Path(sys.prefix) / "var" / "organizer-instance"
    return package.parent / "instance"


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app (see :func:`organizer.app.create_app`); ``flask --app organizer`` and
    ``gunicorn 'organizer:create_app()'`` find it here."""
    from organizer.app import create_app as build

    return build(test_config)
