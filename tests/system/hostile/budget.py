"""How hard the hostile-input suite tries: a short budget in the default run (CI), a long one
with ``HYPOTHESIS_PROFILE=long`` (see the README's Quality section)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"


def budget(examples: int) -> settings:
    """``examples`` in the default run; fifty times as many in a long run."""
    return settings(max_examples=examples * 50 if LONG else examples, deadline=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])
