"""The Flask extensions the app factory initialises and the modules that use them import."""

from __future__ import annotations

from flask_htmx import HTMX
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
htmx = HTMX()
