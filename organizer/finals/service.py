"""An event's finals in the database: the cut made from the Swiss standings, players who decline,
the semi-final and final rounds seated by seed, and the places they decide (docs/finals.md).

A finals' round is a round like any other (published, played on paper or on the devices, its
results entered and confirmed, closed), marked by its stage so the Swiss standings leave it out.
Every change locks the event first (:mod:`organizer.core.guard`), then checks the finals'
version the form was made from: a stale form changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from organizer.core import guard
from organizer.core.errors import InputError
from organizer.core.models import (
    AuditEntry,
    Event,
    Finals,
    Player,
    Round,
    RoundFormat,
    RoundStage,
    RoundStatus,
)
from organizer.core.translate import N_, STAGE_NAMES, _
from organizer.rounds import service as rounds_service
from organizer.scoring import event_standings, finals
from organizer.scoring.schemes import StandingsError, tournament_points
from organizer.scoring.standings import StandingRow


def _audit(session: Session, event_id: int, actor: str, action: str, **values: object) -> None:
    session.add(AuditEntry(event_id=event_id, actor=actor, action=action, new=dict(values) or None))


def get_finals(session: Session, event_id: int) -> Finals | None:
    return session.exec(select(Finals).where(Finals.event_id == event_id)).first()


def finals_rounds(session: Session, event_id: int) -> list[Round]:
    return list(session.exec(select(Round).where(Round.event_id == event_id, Round.stage != RoundStage.SWISS)
                             .order_by(col(Round.number))).all())


def _swiss_rounds(session: Session, event_id: int) -> list[Round]:
    return list(session.exec(select(Round).where(Round.event_id == event_id, Round.stage == RoundStage.SWISS)
                             .order_by(col(Round.number))).all())


def _check_swiss_done(session: Session, event: Event) -> Round:
    """The last Swiss round, when every Swiss round has been played and closed."""
    assert event.id is not None
    rounds = _swiss_rounds(session, event.id)
    if len(rounds) < event.rounds or any(r.status != RoundStatus.FINISHED for r in rounds):
        raise InputError({"": _("The finals start when every Swiss round is closed.")})
    return rounds[-1]


def _last_round_points(session: Session, event: Event, last: Round) -> dict[int, float]:
    points: dict[int, float] = {}
    for table in event_standings.stage_results(session, event, RoundStage.SWISS):
        if table.round_number == last.number:
            points.update(tournament_points(table, event.point_scheme))
    return points


def _compute_cut(session: Session, event: Event, size: int, declined: list[int]) -> finals.Cut:
    assert event.id is not None
    last = _check_swiss_done(session, event)
    rows: list[StandingRow] = event_standings.standings_for(session, event)
    dropped = {p.id for p in session.exec(select(Player).where(Player.event_id == event.id, Player.dropped)).all()}
    # a player who left the event cannot play: they are passed over like a decliner
    try:
        return finals.cut(rows, size, declined=set(declined) | {p for p in dropped if p is not None},
                          last_round_points=_last_round_points(session, event, last), seed=last.seed)
    except StandingsError:
        raise InputError({"cut_size": _("Too few players are left for a cut of %(size)d.", size=size)}) from None


def _seeds_json(cut: finals.Cut) -> list[dict[str, Any]]:
    return [{"seed": s.seed, "player_id": s.player_id, "rank": s.rank, "reason": s.reason, "replaces": s.replaces}
            for s in cut.seeds]


def cut_size_from_text(raw: str) -> int:
    try:
        size = int(raw.strip())
    except ValueError:
        size = 0
    if size not in finals.CUT_SIZES:
        raise InputError({"cut_size": _("Choose a cut of 4, 8, 12 or 16 players.")})
    return size


def _lock(session: Session, event: Event, seen_version: int | None) -> tuple[Event, Finals | None]:
    """The event locked, and its finals as committed now (checked against the form's version)."""
    assert event.id is not None
    locked = guard.lock(session, Event, event.id)
    if locked is None:
        raise InputError({"": _("The event no longer exists.")})
    current = get_finals(session, event.id)
    if current is not None:
        guard.check_version(current.version, seen_version or 0, _("The finals"))
    elif seen_version:
        raise guard.StaleChange(_("The finals"))
    return locked, current


def _not_started(session: Session, event_id: int) -> None:
    if finals_rounds(session, event_id):
        raise InputError({"": _("The finals' tables are seated; the cut can no longer change.")})


def make_cut(session: Session, event: Event, size: int, top_seed_chooses: bool, seen_version: int | None,
             actor: str) -> Finals:
    """Cut the Swiss standings to the top ``size`` (again, while no finals' table is seated)."""
    event, current = _lock(session, event, seen_version)
    assert event.id is not None
    _not_started(session, event.id)
    declined = list(current.declined) if current is not None else []
    cut = _compute_cut(session, event, size, declined)
    if current is None:
        current = Finals(event_id=event.id)
    else:
        current.version += 1
    current.cut_size = size
    current.top_seed_chooses = top_seed_chooses
    current.seeds = _seeds_json(cut)
    session.add(current)
    _audit(session, event.id, actor, "finals.cut", cut_size=size, top_seed_chooses=top_seed_chooses,
           seeds=[s.player_id for s in cut.seeds], tied_at_cut=cut.tied_at_cut)
    session.commit()
    session.refresh(current)
    return current


def decline(session: Session, event: Event, player_id: int, seen_version: int, actor: str) -> Finals:
    """``player_id`` declines their place: the next in line takes it."""
    event, current = _lock(session, event, seen_version)
    assert event.id is not None
    if current is None:
        raise InputError({"": _("Make the cut first.")})
    _not_started(session, event.id)
    if player_id not in {s["player_id"] for s in current.seeds}:
        raise InputError({"": _("That player is not in the finals.")})
    declined = [*current.declined, player_id]
    cut = _compute_cut(session, event, current.cut_size, declined)
    current.declined = declined
    current.seeds = _seeds_json(cut)
    current.version += 1
    session.add(current)
    replacement = next((s.player_id for s in cut.seeds if s.replaces == player_id), None)
    _audit(session, event.id, actor, "finals.declined", player=player_id, replaced_by=replacement)
    session.commit()
    session.refresh(current)
    return current


@dataclass(frozen=True)
class NextStage:
    stage: str
    #: each table's seeds, by seed
    tables: list[list[int]]


def _seed_of(current: Finals) -> dict[int, int]:
    return {int(s["player_id"]): int(s["seed"]) for s in current.seeds}


def next_stage(session: Session, event: Event, current: Finals) -> NextStage | None:
    """What is seated next: the semi-finals, the final table (after closed semi-finals), or
    nothing (the final table is seated, or the semi-finals are still being played)."""
    assert event.id is not None
    rounds = finals_rounds(session, event.id)
    if any(r.stage == RoundStage.FINAL for r in rounds):
        return None
    seeds = [int(s["seed"]) for s in current.seeds]
    if current.cut_size == 4:
        return NextStage(RoundStage.FINAL, [sorted(seeds)])
    semis = [r for r in rounds if r.stage == RoundStage.SEMI_FINAL]
    if not semis:
        return NextStage(RoundStage.SEMI_FINAL, finals.semi_final_tables(current.cut_size))
    if semis[0].status != RoundStatus.FINISHED:
        return None
    seed_of = _seed_of(current)
    winners = finals.semi_final_winners(event_standings.stage_results(session, event, RoundStage.SEMI_FINAL), seed_of)
    return NextStage(RoundStage.FINAL, [sorted(seed_of[p] for p in winners)])


def seat_next(session: Session, event: Event, seen_version: int, top_seats: dict[int, int], actor: str) -> Round:
    """Seat the next finals' round as a proposal (published and played like any round): each
    table by seed, the top seed at the seat they chose when the organizer lets them choose
    (``top_seats``: table number to seat, from 1)."""
    event, current = _lock(session, event, seen_version)
    assert event.id is not None
    if current is None:
        raise InputError({"": _("Make the cut first.")})
    coming = next_stage(session, event, current)
    if coming is None:
        raise InputError({"": _("Nothing to seat: close the semi-finals first, or play the final table.")})
    player_of = {int(s["seed"]): int(s["player_id"]) for s in current.seeds}
    tables: list[list[int]] = []
    for number, seeds in enumerate(coming.tables, start=1):
        chosen = top_seats.get(number) if current.top_seed_chooses else None
        if chosen is not None and not 1 <= chosen <= len(seeds):
            raise InputError({f"top_seat_{number}": _("Choose a seat from 1 to %(count)d.", count=len(seeds))})
        tables.append([player_of[s] for s in finals.seat_order(seeds, chosen)])
    last = max((r.number for r in session.exec(select(Round).where(Round.event_id == event.id)).all()), default=0)
    rnd = Round(event_id=event.id, number=last + 1, format=RoundFormat.STANDARD, stage=coming.stage,
                status=RoundStatus.PROPOSED, seed=0)
    session.add(rnd)
    session.flush()
    rounds_service.seat_tables(session, event, rnd, tables)
    current.version += 1
    session.add(current)
    _audit(session, event.id, actor, "finals.seated", stage=coming.stage, round=rnd.number, tables=tables)
    session.commit()
    session.refresh(rnd)
    return rnd


_SEED_REASONS: dict[str, str] = {
    finals.REASON_RANK: N_("Rank %(rank)d"),
    finals.REASON_LAST_ROUND: N_("Rank %(rank)d, tied at the cut: better last round"),
    finals.REASON_LOT: N_("Rank %(rank)d, tied at the cut: lot drawn"),
}


@dataclass(frozen=True)
class SeedLine:
    seed: int
    player: Player
    reason: str


@dataclass(frozen=True)
class PlaceLine:
    place: int
    player: Player
    stage: str
    stage_name: str
    reason: str

    @property
    def decided_by(self) -> str:
        """"Final table: Place 1 at the final table", punctuated as the reader's language does."""
        return _("%(stage)s: %(reason)s", stage=self.stage_name, reason=self.reason)


@dataclass(frozen=True)
class FinalsView:
    finals: Finals
    seeds: list[SeedLine]
    declined: list[Player]
    rounds: list[Round]
    #: the final places with reasons, once the final table has a result; else empty
    places: list[PlaceLine]
    coming: NextStage | None


def _place_reason(place: finals.Place) -> str:
    if place.stage == RoundStage.FINAL:
        reason = _("Place %(place)d at the final table", place=place.at_table or 0)
    elif place.stage == RoundStage.SEMI_FINAL:
        reason = _("Place %(place)d at a semi-final table", place=place.at_table or 0)
    else:
        return _("Rank %(rank)d in the Swiss rounds", rank=place.swiss_rank or 0)
    if place.by_seed:
        reason = _("%(reason)s (equal result: the better seed)", reason=reason)
    return reason


def finals_view(session: Session, event: Event) -> FinalsView | None:
    """The event's finals as the pages and prints show them; None without a cut."""
    assert event.id is not None
    current = get_finals(session, event.id)
    if current is None:
        return None
    players = {p.id: p for p in session.exec(select(Player).where(Player.event_id == event.id)).all()}
    seeds = []
    for s in current.seeds:
        if s["reason"] == finals.REASON_REPLACES:
            replaced = players.get(s["replaces"])
            reason = _("Rank %(rank)d, replaces %(name)s, who declined", rank=s["rank"],
                       name=replaced.name if replaced else "?")
        else:
            reason = _(_SEED_REASONS[s["reason"]], rank=s["rank"])
        seeds.append(SeedLine(s["seed"], players[s["player_id"]], reason))
    the_cut = finals.Cut([finals.Seed(s["seed"], s["player_id"], s["rank"], s["reason"], s["replaces"])
                          for s in current.seeds], list(current.declined), [])
    rounds = finals_rounds(session, event.id)
    final_round = next((r for r in rounds if r.stage == RoundStage.FINAL), None)
    lines: list[PlaceLine] = []
    finals_results = event_standings.stage_results(session, event, RoundStage.FINAL) if final_round else []
    if finals_results:
        semis = event_standings.stage_results(session, event, RoundStage.SEMI_FINAL)
        rows = event_standings.standings_for(session, event)
        for place in finals.places(rows, the_cut, finals_results[0], semis):
            lines.append(PlaceLine(place.place, players[place.player_id], place.stage,
                                   _(STAGE_NAMES[place.stage]), _place_reason(place)))
    return FinalsView(current, seeds, [players[p] for p in current.declined if p in players], rounds, lines,
                      next_stage(session, event, current))
