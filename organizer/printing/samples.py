"""Made-up but realistic data for every document: the examples in docs/, the tests and the
benchmark all print these, so what is looked at is what is tested and timed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from engine.arboretum import Arboretum
from engine.cards import Card, Edition, edition_species, species_count
from engine.paths import PathFinder
from organizer.printing.data import (
    EventReportData,
    ExplanationLine,
    PlacedCard,
    PlayerSheet,
    ReportRound,
    ReportTable,
    ResultSeat,
    RoundPackData,
    ScoreSheetData,
    SeatInfo,
    SheetSpecies,
    StandingsData,
    StandingsLine,
    TableInfo,
)

FIRST = ["Zoë", "Łukasz", "Ana", "Björn", "Chloé", "Dmitri", "Eleni", "François", "Greta", "Hiro", "Ines",
         "Jürgen", "Kofi", "Lena", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Søren", "Tomás",
         "Ursula", "Vítor", "Wanda", "Xavier", "Yusuf", "Zuzana"]
LAST = ["Ångström", "Kowalski", "García", "Nyström", "Dubois", "Иванов", "Παπαδοπούλου", "Müller",
        "O'Brien", "Tanaka", "Fernández", "Schäfer", "Mensah", "Novák", "Rossi", "Haddad", "Lindqvist",
        "Patel", "Lefèvre", "Çelik", "Jensen", "Ó Súilleabháin", "Weiß", "Dvořák"]

BASE_URL = "https://arboretum.example.org"


def player_names(count: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < count:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name in seen:
            first, last = name.split(" ", 1)
            name = f"{first} {rng.choice('ABCDEFGHJKLMNOPRSTVW')}. {last}"
        if name in seen:
            continue
        seen.add(name)
        names.append(name)
    return names


def sample_round_pack(tables: int = 6, digital_every: int = 2, edition: str = "2018", paper: str = "a4",
                      seed: int = 1, round_number: int = 3) -> RoundPackData:
    rng = random.Random(seed)
    names = player_names(tables * 4, seed)
    all_species = edition_species(Edition(edition))
    out: list[TableInfo] = []
    cursor = 0
    for number in range(1, tables + 1):
        size = 3 if number == tables and tables > 2 else 4
        start = rng.randrange(size)
        seats = tuple(
            SeatInfo(
                seat=s + 1, player=names[cursor + s], is_start=s == start, is_dealer=s == (start - 1) % size,
                private_url=f"{BASE_URL}/play/r{round_number}/t{number}/s{s + 1}/{rng.getrandbits(48):012x}",
            )
            for s in range(size)
        )
        cursor += size
        in_play = tuple(rng.sample(all_species, species_count("standard", size)))
        out.append(TableInfo(number=number, seats=seats, species=in_play, digital=number % digital_every == 0,
                             result_url=f"{BASE_URL}/events/7/rounds/{round_number}/tables/{number}/result"))
    return RoundPackData(event="Spring Open 2026 — Café Łódź", round_number=round_number, edition=edition,
                         tables=tuple(out), paper=paper, subtitle="Saturday 14 March 2026")  # type: ignore[arg-type]


def score_table(players: Sequence[tuple[str, tuple[PlacedCard, ...], tuple[tuple[str, int], ...]]],
                in_play: tuple[str, ...]) -> list[PlayerSheet]:
    """Score a finished 2018 standard game with the engine's path finder (RULES.md §2), so the
    sample sheet holds real paths and totals rather than numbers typed by hand."""
    hand_sums: dict[str, list[int]] = {}
    for species in in_play:
        sums = []
        for index, (_, _, hand) in enumerate(players):
            others_hold_one = any((species, 1) in other for j, (_, _, other) in enumerate(players) if j != index)
            sums.append(sum(0 if v == 8 and others_hold_one else v for s, v in hand if s == species))
        hand_sums[species] = sums
    sheets: list[PlayerSheet] = []
    for index, (name, cards, hand) in enumerate(players):
        finder = PathFinder(Arboretum.from_cells({(x, y): Card(s, v) for x, y, s, v in cards}, owner=name))
        scores = []
        for species in in_play:
            sums = hand_sums[species]
            right = sums[index] == max(sums)
            path = finder.best_path(species) if right else None
            if not right:
                leader = players[sums.index(max(sums))][0]
                why: tuple[ExplanationLine, ...] = (f"no right: {leader} holds {max(sums)} against {sums[index]}",)
            elif path is None:
                why = ("right, but no path",)
            else:
                why = tuple(path.explain())
            scores.append(SheetSpecies(species, right, path.points if path else 0,
                                       path.cells if path else (), why, hand_sum=sums[index]))
        sheets.append(PlayerSheet(name=name, arboretum=cards, species=tuple(scores),
                                  total=sum(s.points for s in scores), rank=0, hand=hand,
                                  species_in_arboretum=len({s for _, _, s, _ in cards})))
    keys = [(p.total, p.species_in_arboretum or 0) for p in sheets]
    return [replace(p, rank=1 + sum(1 for k in keys if k > keys[i])) for i, p in enumerate(sheets)]


def sample_score_sheet(paper: str = "a4") -> ScoreSheetData:
    """A 3-player 2018 table scored by the engine."""
    in_play = ("Blue Spruce", "Cassia", "Cherry Blossom", "Jacaranda", "Maple", "Oak", "Tulip Poplar", "Willow")
    players = [
        ("Zoë Ångström",
         ((0, 0, "Oak", 1), (1, 0, "Oak", 3), (2, 0, "Oak", 5), (3, 0, "Oak", 8),
          (0, 1, "Cassia", 2), (1, 1, "Maple", 4), (2, 1, "Cassia", 6), (3, 1, "Willow", 7),
          (0, 2, "Jacaranda", 3), (1, 2, "Cassia", 7), (2, 2, "Willow", 2)),
         (("Oak", 7), ("Cassia", 4), ("Cassia", 5), ("Maple", 1), ("Blue Spruce", 2), ("Tulip Poplar", 3),
          ("Cherry Blossom", 1))),
        ("Łukasz Kowalski",
         ((0, 0, "Willow", 1), (0, 1, "Willow", 3), (0, 2, "Willow", 4), (1, 2, "Willow", 6),
          (1, 1, "Blue Spruce", 5), (2, 1, "Blue Spruce", 7), (2, 2, "Maple", 8), (1, 0, "Tulip Poplar", 2),
          (2, 0, "Cherry Blossom", 4)),
         (("Willow", 5), ("Willow", 8), ("Blue Spruce", 6), ("Maple", 3), ("Jacaranda", 1), ("Oak", 2),
          ("Cassia", 8))),
        ("Σοφία Παπαδοπούλου",
         ((0, 0, "Cherry Blossom", 2), (1, 0, "Jacaranda", 5), (2, 0, "Cherry Blossom", 7),
          (0, 1, "Tulip Poplar", 1), (1, 1, "Tulip Poplar", 4), (2, 1, "Tulip Poplar", 6),
          (3, 1, "Tulip Poplar", 8), (1, 2, "Jacaranda", 6)),
         (("Tulip Poplar", 7), ("Cherry Blossom", 8), ("Jacaranda", 4), ("Oak", 6), ("Cassia", 1), ("Maple", 2),
          ("Blue Spruce", 1))),
    ]
    return ScoreSheetData(edition="2018", species_in_play=in_play, players=tuple(score_table(players, in_play)),
                          event="Spring Open 2026 — Café Łódź", round_number=3, table=4,
                          source="from the scoring assistant", paper=paper)  # type: ignore[arg-type]


def sample_standings(players: int = 40, after_round: int = 4, paper: str = "a4", seed: int = 3) -> StandingsData:
    rng = random.Random(seed)
    names = player_names(players, seed)
    rows = []
    for name in names:
        tp = Fraction(rng.randrange(0, after_round * 6 + 1), 6)
        rows.append((tp, rng.randrange(20, 40 * after_round), name))
    rows.sort(key=lambda r: (-r[0], -r[1]))
    standings = tuple(
        StandingsLine(rank=i + 1, player=name, tournament_points=tp, game_points=gp,
                    opponents_average=Fraction(rng.randrange(0, after_round * 6), 6), species_count=rng.randrange(3, 10),
                    games=after_round, club=rng.choice([None, "Club Łódź", "Göteborg Spelklubb", "Dublin Tree Club"]),
                    dropped=rng.random() < 0.03)
        for i, (tp, gp, name) in enumerate(rows)
    )
    return StandingsData(event="Spring Open 2026 — Café Łódź", after_round=after_round, rows=standings,
                         paper=paper, subtitle="Saturday 14 March 2026, 17:40")  # type: ignore[arg-type]


def sample_event_report(players: int = 16, rounds: int = 3, seed: int = 5) -> EventReportData:
    rng = random.Random(seed)
    names = player_names(players, seed)
    report_rounds = []
    for number in range(1, rounds + 1):
        order = names[:]
        rng.shuffle(order)
        tables = []
        for t in range(0, players, 4):
            seated = order[t:t + 4]
            points = [rng.randrange(8, 40) for _ in seated]
            species = [rng.randrange(3, 10) for _ in seated]
            # 2018 tie-break: the most species in the arboretum; a tie that remains is shared.
            keys = list(zip(points, species, strict=True))
            opponents = len(seated) - 1
            seats = []
            for s, (name, key) in enumerate(zip(seated, keys, strict=True)):
                beaten = sum(1 for other in keys if other < key) + Fraction(sum(1 for other in keys if other == key) - 1, 2)
                seats.append(ResultSeat(seat=s + 1, player=name, points=key[0],
                                        tournament_points=Fraction(beaten, opponents),
                                        place=1 + sum(1 for other in keys if other > key), species_count=key[1]))
            tables.append(ReportTable(number=t // 4 + 1, seats=tuple(seats),
                                      entry_mode=rng.choice(["scorepad", "totals", "scoring assistant", "digital game"])))
        report_rounds.append(ReportRound(number=number, tables=tuple(tables)))
    standings = standings_from_rounds(report_rounds)
    return EventReportData(event="Spring Open 2026 — Café Łódź", edition="2018", rounds=tuple(report_rounds),
                           final_standings=standings, date="14 March 2026")


def standings_from_rounds(rounds: list[ReportRound]) -> tuple[StandingsLine, ...]:
    """Totals over the rounds with the default tie-breaks (head-to-head left out of the sample)."""
    tp: dict[str, Fraction] = {}
    points: dict[str, int] = {}
    species: dict[str, int] = {}
    opponents: dict[str, list[str]] = {}
    for round_ in rounds:
        for table in round_.tables:
            seats = table.seats or ()
            for seat in seats:
                tp[seat.player] = tp.get(seat.player, Fraction(0)) + Fraction(seat.tournament_points)
                points[seat.player] = points.get(seat.player, 0) + seat.points
                species[seat.player] = species.get(seat.player, 0) + (seat.species_count or 0)
                opponents.setdefault(seat.player, []).extend(s.player for s in seats if s is not seat)
    average = {name: sum((tp[o] for o in opps), Fraction(0)) / len(opps) for name, opps in opponents.items()}
    order = sorted(tp, key=lambda n: (-tp[n], -points[n], -average[n], -species[n], n))
    return tuple(StandingsLine(rank=i + 1, player=name, tournament_points=tp[name], game_points=points[name],
                             opponents_average=average[name], species_count=species[name],
                             games=len(rounds)) for i, name in enumerate(order))


def write_examples(folder: str, dpi: float = 90) -> list[str]:
    """Render one page of each document to PNG for docs/examples (needs the test extras:
    pypdfium2). Run: python -m organizer.printing.samples docs/examples"""
    from pathlib import Path

    import pypdfium2 as pdfium  # test extra: only the docs need pictures

    from organizer.printing.roundpack import round_pack
    from organizer.printing.scorepad import blank_scorepad
    from organizer.printing.scoresheet import score_sheet
    from organizer.printing.standings import event_report, standings_pdf

    pack = round_pack(sample_round_pack(tables=6, digital_every=2))
    sheet = score_sheet(sample_score_sheet())
    wanted = [
        ("scorepad-blank-2018-a4", blank_scorepad(4, "2018", "a4"), 0),
        ("scorepad-blank-2010-letter", blank_scorepad(3, "2010", "letter"), 0),
        ("roundpack-seating", pack, 0),
        ("roundpack-find-your-table", pack, 1),
        ("roundpack-table-scorepad", pack, 7),
        ("roundpack-slips", pack, 8),
        ("scoresheet-summary", sheet, 0),
        ("scoresheet-player", sheet, 1),
        ("standings", standings_pdf(sample_standings(players=120, after_round=4)), 0),
        ("event-report", event_report(sample_event_report()), 1),
    ]
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, pdf, page in wanted:
        document = pdfium.PdfDocument(pdf)
        image = document[page].render(scale=dpi / 72).to_pil().convert("RGB")
        document.close()
        # A 64-colour palette keeps each picture small without visible loss on flat colours.
        target = out / f"{name}.png"
        image.quantize(colors=64).save(target, optimize=True)
        written.append(str(target))
    return written


if __name__ == "__main__":
    import sys

    for path in write_examples(sys.argv[1] if len(sys.argv) > 1 else "docs/examples"):
        print(path)
