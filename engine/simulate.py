"""``arboretum simulate``: seeded bot games (filled in with the bots)."""

from __future__ import annotations

import argparse


def add_simulate_command(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Registered once the game state machines and bots land."""
