"""Named signals through which a lower feature tells the higher ones what happened, instead of
calling them: the club keeps its registry and league figures by listening, and the live tables
deal a published round and tell a table's page how its game stands.

Every signal is sent with a SQLModel session as its sender, inside the sender's transaction as
its arguments say, and receivers run synchronously, in that transaction.

The receivers connect when their package is imported: :mod:`organizer.club` for the club's,
:mod:`organizer.live` for the live tables'. The app factory imports every feature; code that
uses the services without the app (tests, scripts) must import ``organizer.club`` (and
``organizer.live``) itself, or the club never hears of the players and results."""

from __future__ import annotations

from blinker import Namespace

_signals = Namespace()

#: Players joined an event (a sign-up, a form, a CSV import), added to the session and not yet
#: committed. Keyword arguments: ``event``, ``players`` (the new Player rows). The club links
#: them to its registry (flushing the session) before the sender commits.
players_added = _signals.signal("players-added")

#: An event was read from an export file, its players added and not yet committed. Keyword
#: argument: ``event``. The club links all its players to the registry in one pass before the
#: sender commits.
event_imported = _signals.signal("event-imported")

#: A table's result is about to change, under the table's lock, before the change is made.
#: Keyword arguments: ``event_id``. A receiver answers True when the event's results count as
#: settled for it (the club: its stored league figures still hold), so the sender sends
#: :data:`results_settled` after its commit.
results_changing = _signals.signal("results-changing")

#: An event's results are settled: a round closed, an event imported, a settled result changed,
#: or a setting changed that decides what they count for (the event's date, whether the ratings
#: count games with bots); sent after the sender's commit. Keyword arguments: ``event_ids``. The
#: club stores the events' league figures and brings its ratings up to date (and commits them).
results_settled = _signals.signal("results-settled")

#: A round was published and committed (its tables can play). Keyword arguments: ``event``,
#: ``round``. The live tables deal its digital tables.
round_published = _signals.signal("round-published")

#: A table's page asks how the table's digital game stands (read only). Keyword arguments:
#: ``event``, ``round``, ``view`` (the table's seating). The live tables answer with a dict
#: (progress, cards left, who is awaited, moves, finished, version).
table_game_asked = _signals.signal("table-game-asked")
