"""Serving a real venue from a laptop: its address on the venue network and the ``venue``
command's helpers (:mod:`organizer.venue.network`)."""
