"""The named signals of organizer.core.signals have their listeners once the features are
imported: the club keeps its registry and league figures, the live tables deal and describe
their games, the venue snapshots a SQLite database. (What the listeners do is tested with the
club's, the live tables' and the venue's own tests: players added through the services reach the
registry, settled results the league.)"""

from __future__ import annotations

from typing import Any

import pytest

import organizer.club
import organizer.live
import organizer.venue
from organizer.core import signals

LISTENERS = [
    (signals.players_added, organizer.club.receivers.link_added_players),
    (signals.event_imported, organizer.club.receivers.link_imported_players),
    (signals.results_changing, organizer.club.receivers.league_figures_hold),
    (signals.results_settled, organizer.club.receivers.store_league_figures),
    (signals.round_published, organizer.live.receivers.deal_published_round),
    (signals.table_game_asked, organizer.live.receivers.table_game),
    (signals.round_published, organizer.venue.backup.snapshot_published_round),
    (signals.results_settled, organizer.venue.backup.snapshot_settled_results),
]


@pytest.mark.parametrize(("signal", "receiver"), LISTENERS, ids=[s.name for s, _ in LISTENERS])
def test_each_signal_has_its_listener(signal: Any, receiver: Any) -> None:
    assert receiver in list(signal.receivers_for(object()))


def test_a_settled_change_is_reported_only_when_the_club_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    # results_changing answers with what its receivers return: the club's figures_hold
    monkeypatch.setattr(organizer.club.leagues, "figures_hold", lambda session, event_id: event_id == 7)
    answers = [held for _, held in signals.results_changing.send(object(), event_id=7)]
    assert answers == [True]
    answers = [held for _, held in signals.results_changing.send(object(), event_id=8)]
    assert answers == [False]
