"""Former name of ``event_standings``, kept until the last importers outside the organizer
services move over."""

from .event_standings import StandingsView, seat_player_id, standings_for, standings_view

__all__ = ["StandingsView", "seat_player_id", "standings_for", "standings_view"]
