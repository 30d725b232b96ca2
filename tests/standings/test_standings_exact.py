"""The integer standings (tournament points in twelfths) against the exact-fraction computation
they replaced, kept here word for word in its arithmetic: on random events, every rank, order and
displayed figure must be the same, for every scheme and tie-break order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from organizer.scoring.standings import SCHEMES, TIEBREAKS, SeatResult, TableResult, beats, compute_standings, tournament_points
from tests.fixtures.examples import examples

# --- the fraction computation as it was ---------------------------------------------------------


def _share(table: TableResult, seat: SeatResult, other: SeatResult) -> Fraction:
    if beats(table, seat, other):
        return Fraction(1)
    if beats(table, other, seat):
        return Fraction(0)
    return Fraction(1, 2)


def _beaten(table: TableResult) -> dict[int, Fraction]:
    return {s.player_id: sum((_share(table, s, o) for o in table.seats if o is not s), Fraction(0))
            for s in table.seats}


def _win(table: TableResult) -> dict[int, Fraction]:
    winners = [s.player_id for s in table.seats
               if not any(beats(table, o, s) for o in table.seats if o is not s)]
    return {s.player_id: Fraction(1, len(winners)) if s.player_id in winners else Fraction(0)
            for s in table.seats}


def _per_opponent(table: TableResult, seat: SeatResult, other: SeatResult) -> Fraction:
    return _share(table, seat, other) / (len(table.seats) - 1)


FRACTION_SCHEMES: dict[str, tuple[Callable[[TableResult], dict[int, Fraction]],
                                  Callable[[TableResult, SeatResult, SeatResult], Fraction]]] = {
    "beaten": (lambda t: {p: v / (len(t.seats) - 1) for p, v in _beaten(t).items()}, _per_opponent),
    "placement": (_beaten, _share),
    "win": (_win, _per_opponent),
}

Row = tuple[int, int, float, int, float, int, int, float]


def fraction_standings(player_ids: Sequence[int], tables: list[TableResult], order: Sequence[str],
                       scheme: str) -> list[Row]:
    score_table, against = FRACTION_SCHEMES[scheme]
    points: dict[int, Fraction] = {}
    game: dict[int, int] = {}
    species: dict[int, int] = {}
    games: dict[int, int] = {}
    met: dict[int, list[int]] = {p: [] for p in player_ids}
    for table in tables:
        earned = score_table(table)
        for seat in table.seats:
            p = seat.player_id
            points[p] = points.get(p, Fraction(0)) + earned[p]
            game[p] = game.get(p, 0) + seat.points
            species[p] = species.get(p, 0) + seat.species_count
            games[p] = games.get(p, 0) + 1
            met.setdefault(p, []).extend(s.player_id for s in table.seats if s.player_id != p)
    average = {p: sum((points.get(o, Fraction(0)) for o in met[p]), Fraction(0)) / len(met[p])
               if met[p] else Fraction(0) for p in player_ids}
    keys: dict[str, Callable[[int], Fraction]] = {
        "game_points": lambda p: Fraction(game.get(p, 0)),
        "opponents_average": lambda p: average[p],
        "species_count": lambda p: Fraction(species.get(p, 0)),
    }
    h2h: dict[int, Fraction] = {}

    def split(group: list[int], values: dict[int, Fraction]) -> list[list[int]]:
        by_value: dict[Fraction, list[int]] = {}
        for p in group:
            by_value.setdefault(values[p], []).append(p)
        return [by_value[v] for v in sorted(by_value, reverse=True)]

    groups = [list(player_ids)]
    for criterion in ("tournament_points", *order):
        if criterion == "tournament_points":
            groups = [g2 for g in groups for g2 in split(g, {p: points.get(p, Fraction(0)) for p in g})]
        elif criterion == "head_to_head":
            new: list[list[int]] = []
            for group in groups:
                if len(group) == 1:
                    new.append(group)
                    continue
                members = set(group)
                earned_here = {p: Fraction(0) for p in group}
                for table in tables:
                    seated = [s for s in table.seats if s.player_id in members]
                    for seat in seated:
                        for other in seated:
                            if other is not seat:
                                earned_here[seat.player_id] += against(table, seat, other)
                h2h.update(earned_here)
                new.extend(split(group, earned_here))
            groups = new
        else:
            groups = [g2 for g in groups for g2 in split(g, {p: keys[criterion](p) for p in g})]
    rows: list[Row] = []
    for group in groups:
        rank = len(rows) + 1
        rows.extend((rank, p, float(points.get(p, Fraction(0))), game.get(p, 0), float(average[p]),
                     species.get(p, 0), games.get(p, 0), float(h2h.get(p, 0))) for p in group)
    return rows


# --- the comparison ------------------------------------------------------------------------------


@st.composite
def events(draw: st.DrawFn) -> tuple[list[int], list[TableResult]]:
    """Small events with many ties (few distinct scores), tables of 2 to 4, players who drop
    (results under ids without a row) and bots (negative ids)."""
    everyone = list(range(-3, draw(st.integers(2, 20)) + 1))
    results: list[TableResult] = []
    for round_number in range(1, draw(st.integers(0, 6)) + 1):
        order = draw(st.permutations(everyone))
        position = 0
        while len(order) - position >= 2:
            size = min(draw(st.integers(2, 4)), len(order) - position)
            seats = [SeatResult(p, draw(st.integers(0, 4)), draw(st.integers(0, 2)))
                     for p in order[position:position + size]]
            results.append(TableResult(len(results) + 1, round_number, seats, draw(st.booleans())))
            position += size
    listed = [p for p in everyone if p > 0 and draw(st.integers(0, 5))]
    return listed, results


tiebreak_orders = st.permutations(sorted(TIEBREAKS)).flatmap(
    lambda order: st.integers(0, len(order)).map(lambda n: tuple(order[:n])))


@settings(max_examples=examples(400), deadline=None)
@given(events(), st.sampled_from(sorted(SCHEMES)), tiebreak_orders)
def test_integer_standings_equal_the_fraction_standings(
    event: tuple[list[int], list[TableResult]], scheme: str, order: tuple[str, ...],
) -> None:
    players, results = event
    rows = compute_standings(players, results, order, scheme)
    assert [(r.rank, r.player_id, r.tournament_points, r.game_points, r.opponents_average, r.species_count,
             r.games, r.head_to_head) for r in rows] == fraction_standings(players, results, order, scheme)
    for table in results:
        expected = {p: float(v) for p, v in FRACTION_SCHEMES[scheme][0](table).items()}
        assert tournament_points(table, scheme) == expected
        assert SCHEMES[scheme].table_points(table) == FRACTION_SCHEMES[scheme][0](table)

