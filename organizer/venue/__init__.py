"""Serving a real venue from a laptop: its address on the venue network and the ``venue``
command's helpers (:mod:`organizer.venue.network`), the certificate tablets trust
(:mod:`organizer.venue.certificate`), and backups (:mod:`organizer.venue.backup`).

Importing the package connects its receivers (:mod:`organizer.core.signals`): a published round
and settled results take a snapshot of a SQLite database."""

from organizer.venue import backup as backup
