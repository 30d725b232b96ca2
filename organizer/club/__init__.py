"""The club across events: its registry of players, their ratings and public profiles, seasons
and their leagues, the club's exchange files.

The club listens rather than being called: importing the package connects its receivers to the
signals of :mod:`organizer.core.signals` (see :mod:`organizer.club.receivers`)."""

from organizer.club import receivers as receivers
