"""An event's players: registration, CSV import, edits and drops."""
