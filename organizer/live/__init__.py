"""Live tables on devices: event tables, practice and solo games, replays, the fast polls.

Importing the package connects its receivers (:mod:`organizer.core.signals`): a published
round deals its digital tables, a table's page asks for its game."""

from organizer.live import receivers as receivers
