"""The one exception service functions raise for bad input."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input, with one message per form field (key "" for the form as a whole).

    Raised before anything is written, so the caller can show the messages beside the fields and
    nothing has changed."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" if k else v for k, v in errors.items()))
        self.errors = errors
