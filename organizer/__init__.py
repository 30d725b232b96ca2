"""The organizer web app (see create_app).

The package itself stays light: the ``arboretum`` console command lives in it too and must not
import Flask, the database or the PDF library before it knows it needs them. The factory and its
imports are in :mod:`organizer.app`; the extensions in :mod:`organizer.extensions`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from flask import Flask

    #: the project's folder (templates, static files, instance), from the module's __getattr__
    PROJECT_ROOT: Path


def __getattr__(name: str) -> Path:
    # PROJECT_ROOT is worked out when first asked for: importing pathlib is a tenth of the start
    # of ``arboretum score``, which does not need it
    if name == "PROJECT_ROOT":
        import pathlib

        return pathlib.Path(__file__).resolve().parent.parent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app (see :func:`organizer.app.create_app`); ``flask --app organizer`` and
    ``gunicorn 'organizer:create_app()'`` find it here."""
    from .app import create_app as build

    return build(test_config)
