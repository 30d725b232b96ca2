"""The club's receivers of :mod:`organizer.core.signals`, connected when :mod:`organizer.club`
is imported: new players join the registry, settled results store the leagues' figures and bring
the ratings up to date."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session

from organizer.club import leagues, ratings, registry
from organizer.core import signals
from organizer.core.models import Event, Player


@signals.players_added.connect
def link_added_players(session: Session, *, event: Event, players: Sequence[Player], **_: Any) -> int:
    """New players (before their commit) are matched with the registry: linked, made new
    entries, or queued for review. Returns how many wait for review."""
    return registry.link_new_players(session, players)


@signals.event_imported.connect
def link_imported_players(session: Session, *, event: Event, **_: Any) -> int:
    """An imported event's players (before its commit) join the registry in one pass."""
    assert event.id is not None
    return registry.link_event_players(session, event.id)


@signals.results_changing.connect
def league_figures_hold(session: Session, *, event_id: int, **_: Any) -> bool:
    """A change of a result touches settled results when the event's stored league figures
    still hold."""
    return leagues.figures_hold(session, event_id)


@signals.results_settled.connect
def store_league_figures(session: Session, *, event_ids: Sequence[int], **_: Any) -> int:
    """Settled results (after their commit): the events' league figures are stored again."""
    return leagues.store_tallies(session, list(event_ids))


@signals.results_settled.connect
def follow_ratings(session: Session, *, event_ids: Sequence[int], **_: Any) -> int:
    """Settled results (after their commit): the ratings are replayed from the earliest of the
    events on, in the same request, so nobody has to ask for it."""
    return ratings.follow_quietly(session, list(event_ids))
