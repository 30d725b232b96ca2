"""The strong bot: determinized flat Monte Carlo over the engine's own games.

For one decision it deals the cards its seat cannot see anew, consistently with what the seat has
seen (:func:`determinize`: built from ``state.view(seat)`` and the public moves
``state.last_moves(...)`` only, never from the state's hidden zones; in the draft also the hands
the seat has held this round, which it remembers as a person would, see
:func:`engine.bots.knowledge.draft_memory`), plays each candidate action
in that deal and the rest of the game with every seat playing the normal bot's choice (each
reading only its own seat in that deal), scores the end, and repeats with new deals while its
budget lasts. Random playouts judge badly: random seats throw away the hands that decide the
rights, so a search over them is no better than the normal bot (52% in two players); a playout
of sensible play asks the question that matters, "what if everyone plays
well from here". The other seats are not assumed to be exactly the normal bot, though: for each
deal every other seat draws how often it plays one of the normal bot's next best instead
(:data:`OPPONENTS`), so the search is not tuned to one opponent. In the draft the hidden hands are
dealt by what the others seem to collect (:mod:`engine.bots.reading`).

The candidates are the heuristic's best few (its ranking reads only what the seat may see, see
:mod:`engine.bots.knowledge`), every source for a draw; in the draft the best placement of each
card first (which card to take, and so which to pass on, decides more than where it goes). Every candidate is played in the same
deals with the same playout seed (common random numbers), so candidates are compared pairwise
against the heuristic's choice; a candidate clearly worse after a few deals is dropped, so the
budget goes to the ones that may beat it, and the heuristic's choice is left only for a candidate
clearly better in the same deals, so a small budget falls back on the heuristic instead of on
noise.

The budget is ``iterations`` (playouts per decision of a two-player game, fewer in games whose
playouts are longer: :func:`playouts_for`; deterministic from ``rng``) and an optional
``seconds`` cap (anytime: stopping early still gives a legal, weaker choice). A result is
1 for a win, 1/k for a win shared by k, 0 for a loss, plus a little for the score margin against
the best other seat."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import cast

from ..actions import Action, Draw, Give, Pick, Play
from ..arboretum import Arboretum
from ..cards import Card
from ..draft import DraftState
from ..game import State
from ..games import Game
from ..solo import Q as Q_SEAT
from ..standard import StandardState
from ..views import PublicMove, SeatView
from .knowledge import DraftMemory, _all_cards, draft_memory
from .reading import Tastes, pickers, tastes, weighted_hand
from .turns import TableCache

#: weight of the score margin (per point) next to the win itself
MARGIN_WEIGHT = 0.02
#: standard errors by which a candidate must beat the heuristic's choice to be played instead
CONFIDENCE = 1.5
#: deals after which a candidate clearly worse than the heuristic's choice is no longer played,
#: and by how many standard errors it must be worse
PRUNE_AFTER = 4
PRUNE_SE = 1.0
#: share of the budget's playouts played at the horizon's start of each game (the budget is
#: counted in playouts of the two-player game): a playout with more seats is longer and each of
#: its moves costs more; closer to the end the playouts are shorter and the share grows with
#: the horizon over the cards left, up to the whole budget (:data:`PLAYOUT_CAP`). So a decision
#: costs about as much at every point and in every game; set from the CPU time a decision takes
#: at the default budget (bench/bench_bots.py --levels --rows timing)
PLAYOUT_SHARE: dict[tuple[str, int], float] = {
    ("standard", 3): 0.85, ("standard", 4): 0.6, ("draft", 2): 4 / 7, ("draft", 3): 4 / 7, ("draft", 4): 0.4,
}
#: how fast the share grows toward the end (the power of the horizon over the cards left; a game
#: not listed, the draft's: 1, its last playouts being far cheaper than its first). A standard
#: game's last playouts are not much cheaper than the first (full arboretums cost more to score
#: and plan), hence 3 players' square root; 4 players' last turns cost a third of a second a
#: decision at the square root, their first over 0.8 s, so the end, where the rights are decided
#: by what each seat keeps, gets more of the second
SHARE_GROWTH: dict[tuple[str, int], float] = {("standard", 3): 0.5, ("standard", 4): 1.0}
#: the most the share grows to (1: the whole budget). Standard 3 and 4 players' last playouts
#: cost a fifth of their first, so their last decisions play more than the two-player budget
PLAYOUT_CAP: dict[tuple[str, int], float] = {("standard", 3): 3.0, ("standard", 4): 3.0}
#: the draft: the picks of a seat searched, counted from the end (its last round)
DRAFT_PICKS = 7
#: the other seats of a playout, drawn anew for every deal: pairs of how often a seat plays one of
#: the normal bot's next best instead of its best, and how likely that seat is. Opponents assumed
#: to be exactly the normal bot tune the search to the normal bot (strong against it, much less
#: against anyone else); a mix of the normal bot and sloppier players is what a table is
#: (docs/engine.md, "Whom the strong bot's playouts assume")
OPPONENTS: tuple[tuple[float, float], ...] = ((0.0, 0.5), (0.35, 0.3), (0.7, 0.2))
#: how far down the normal bot's ranking a slip goes (the best excluded)
SLIP_DEPTH = 4


@dataclass(frozen=True)
class Reason:
    """Why the strong bot chose its action, as typed data for an explanation in the reader's words.

    ``playouts`` is the number of sampled futures (deals of the hidden cards, each played to the
    end once per candidate still in the running); 0 when the bot did not search (early in the
    game), then the values are the normal bot's ratings and ``runner_up`` its next best. ``wins``
    and ``points``: the share of those futures the action won and the seat's mean final score in
    them (likewise ``runner_up_wins``, ``runner_up_points`` for the next best candidate, over the
    futures it was played in). ``candidates``: how many moves were compared. ``collecting``: in
    the draft, the other seats read as collecting species (seat, species best first), which
    shaped the hidden hands dealt; ``opponents_mixed``: the others were played as a mix of
    careful and careless players, not as one bot. ``kept_rating``: the next best did better in
    these futures, but not clearly enough to leave the move the normal bot's rating puts first."""

    action: str
    value: float
    runner_up: str | None
    runner_up_value: float | None
    playouts: int
    wins: float = 0.0
    points: float = 0.0
    runner_up_wins: float | None = None
    runner_up_points: float | None = None
    candidates: int = 1
    collecting: tuple[tuple[int, tuple[str, ...]], ...] = ()
    opponents_mixed: bool = False
    kept_rating: bool = False

    def __str__(self) -> str:
        if self.playouts == 0:
            if self.runner_up is None:
                return f"{self.action}: the only move"
            return f"{self.action}: the normal bot's rating; next best {self.runner_up} (no search yet)"
        if self.runner_up is None or self.runner_up_points is None or self.runner_up_wins is None:
            return f"{self.action}: the only candidate ({self.playouts} sampled futures)"
        return (f"{self.action}: won {self.wins:.0%}, scored {self.points:.1f}; next best {self.runner_up}: won "
                f"{self.runner_up_wins:.0%}, scored {self.runner_up_points:.1f} ({self.playouts} sampled futures, "
                f"{self.candidates} candidates)")


def _public_game(game: Game) -> Game:
    """The game's parameters without its seed (the seed would tell the deal)."""
    return Game(game.mode, game.players, seed=0, edition=game.edition, species=game.species, names=game.names,
                q_places=game.q_places)


def _arboretum(view: SeatView, seat: int) -> Arboretum:
    return Arboretum.from_cells({p.cell: p.card for p in view.seats[seat].arboretum})


def known_in_hands(moves: list[PublicMove], piles: list[list[Card]], seats: int, seat: int) -> list[list[Card]]:
    """The cards each other seat is known to hold: taken from a face-up discard pile (the public
    moves say which pile; the pile, replayed over the moves, says which card) and not played or
    discarded since."""
    discarded_to = [0] * len(piles)
    drawn_from = [0] * len(piles)
    for move in moves:
        if move.kind == "discard":
            discarded_to[move.seat] += 1
        elif move.kind == "draw" and type(move.source) is int:
            drawn_from[move.source] += 1
    # a 2010 starting discard is dealt face up but not logged: unknown when taken before seen
    replayed: list[list[Card | None]] = [
        [None] * max(0, len(pile) + drawn_from[i] - discarded_to[i]) for i, pile in enumerate(piles)
    ]
    hands: list[list[Card]] = [[] for _ in range(seats)]
    for move in moves:
        if move.kind == "discard" and move.card is not None:
            replayed[move.seat].append(move.card)
            if move.card in hands[move.seat]:
                hands[move.seat].remove(move.card)
        elif move.kind == "play" and move.card is not None:
            if move.card in hands[move.seat]:
                hands[move.seat].remove(move.card)
        elif move.kind == "draw" and type(move.source) is int:
            pile = replayed[move.source]
            card = pile.pop() if pile else None
            if card is not None and move.seat != seat:
                hands[move.seat].append(card)
    hands[seat] = []
    return hands


def determinize(state: State, seat: int, rng: random.Random, memory: DraftMemory | None = None,
                read: Tastes | None = None) -> State:
    """A state for ``seat``'s decision with every card it cannot see dealt at random among the
    places it could be, built from ``state.view(seat)`` and the public moves only (the draft: also
    the hands the seat has held this round, :func:`engine.bots.knowledge.draft_memory`, and with
    ``read``, what the others collect, :mod:`engine.bots.reading`: a hand the seats collecting Oak
    have picked from is dealt a high Oak less often)."""
    view = state.view(seat)
    det = _public_game(state.game).new_initial_state()
    det.arboretums = [_arboretum(view, s) for s in range(state.seats)]
    own = list(view.hand or ())
    seen = set(own)
    for arboretum in det.arboretums:
        seen.update(arboretum.cards())
    if isinstance(det, DraftState):
        draft = view.draft
        assert draft is not None
        if memory is None:
            memory = draft_memory(cast(DraftState, state), seat)
        known = [list(cards) if s != seat else [] for s, cards in enumerate(memory.known)]
        for s, info in enumerate(view.seats):
            if len(known[s]) > info.hand_size:  # a hand that lost an unseen card to a discard
                rng.shuffle(known[s])
                del known[s][info.hand_size:]
            seen.update(known[s])
        out = [card for card in memory.out if card not in seen]
        seen.update(out)
        pool = [card for card in _all_cards(tuple(view.species)) if card not in seen]
        rng.shuffle(pool)
        hands: list[list[Card]] = []
        for s, info in enumerate(view.seats):
            if s == seat:
                hands.append(own)
                continue
            missing = info.hand_size - len(known[s])
            by = [] if read is None else [read.by_seat[p] for p in pickers(cast(DraftState, state), s) if p != seat]
            hands.append(known[s] + weighted_hand(pool, missing, by, rng))
        det.hands = hands
        det.deck = pool[:draft.undealt]
        det.out = out + pool[draft.undealt:]
        det.round, det.pick, det.reveals = draft.round - 1, draft.pick - 1, draft.reveals
        det.discarded = list(draft.discarded)
        return det
    turns = view.turns
    assert turns is not None and isinstance(det, StandardState)
    piles = [list(pile.cards) for pile in turns.piles]
    for pile in piles:
        seen.update(pile)
    known = ([[] for _ in range(state.seats)] if state.mode == "solo"
             else known_in_hands(state.last_moves(state.version), piles, state.seats, seat))
    for cards in known:
        seen.update(cards)
    pool = [card for card in _all_cards(tuple(view.species)) if card not in seen]
    rng.shuffle(pool)
    hands = []
    for s, info in enumerate(view.seats):
        if s == seat:
            hands.append(own)
            continue
        missing = info.hand_size - len(known[s])
        hands.append(known[s] + pool[:missing])
        pool = pool[missing:]
    det.hands = hands
    det.piles = piles
    det.deck = pool
    assert len(pool) == turns.draw_pile  # every card the seat cannot see is in a hand or the draw pile
    det.seat = turns.actor if turns.actor is not None else seat
    det.phase = view.phase
    det.turn = turns.turn
    det.drawn = [(d.source, cast(Card, d.card)) for d in turns.drawn]
    return det


def _result(state: State, seat: int, margin: float = MARGIN_WEIGHT) -> tuple[float, float, int]:
    """The search's value of a finished playout for ``seat``, its share of the win and its score."""
    outcome = state.outcome()
    assert outcome is not None
    totals = [p.total for p in outcome.players]
    winners = outcome.winners
    win = 1.0 / len(winners) if seat in winners else 0.0
    best_other = max(t for s, t in enumerate(totals) if s != seat) if len(totals) > 1 else 0
    return win + margin * (totals[seat] - best_other), win, totals[seat]


def _playout(state: State, rng: random.Random) -> None:
    """Random play to the end (every seat; a draft's seats in seat order)."""
    random_action = state.random_action
    apply = state.apply_action
    if isinstance(state, DraftState):
        while not state.terminal:
            for s in state.awaited_seats():
                apply(random_action(rng, s), s)
        return
    while not state.terminal:
        apply(random_action(rng))


def _heuristic_playout(state: State, rng: random.Random, cache: TableCache | None = None,
                       slips: tuple[float, ...] = ()) -> None:
    """Every seat plays the normal bot's choice to the end, or, with ``slips``, seat ``s`` takes
    one of the normal bot's next best now and then (``slips[s]``: how often; see :data:`OPPONENTS`).
    The normal bot reads only what its seat sees in this deal, so the playout asks "what if
    everyone played sensibly", which judges a hand kept for the rights far better than random
    play (random seats throw their hands away). ``cache``: the search's path tables, told of every
    card planted (standard and solo)."""
    apply = state.apply_action
    if isinstance(state, DraftState):
        from .draft import DraftPlanner, choose_pick
        from .draft import TableCache as DraftCache

        tables: DraftCache = {}
        while not state.terminal:
            for s in state.awaited_seats():
                if slips and slips[s] > 0.0:
                    actions = state.legal_actions(s)
                    apply(_slipped(actions, DraftPlanner(state, s, tables).score(actions), slips[s], rng), s)
                else:
                    apply(choose_pick(state, s, rng, tables), s)
        return
    from .turns import choose_turn_action, score_turn_actions

    standard = cast(StandardState, state)
    if cache is None:
        cache = TableCache(standard.seats)
    history = standard.history
    while not standard.terminal:
        player = standard.current_player()
        if slips and slips[player] > 0.0:
            actions, scores = score_turn_actions(standard, player, cache)
            apply(_slipped(actions, scores, slips[player], rng))
        else:
            apply(choose_turn_action(standard, player, rng, cache))
        _planted(standard, history[-1], cache)


def _slipped(actions: list[Action], scores: list[float], slip: float, rng: random.Random) -> Action:
    """The best-scored action, or with probability ``slip`` one of the next :data:`SLIP_DEPTH`
    best (never one scored as never worth it)."""
    best = 0
    for index, score in enumerate(scores):
        if score > scores[best]:
            best = index
    if len(actions) == 1 or rng.random() >= slip:
        return actions[best]
    order = sorted(range(len(actions)), key=lambda i: -scores[i])[1:SLIP_DEPTH]
    options = [i for i in order if scores[i] > -1e8]
    return actions[rng.choice(options)] if options else actions[best]


def opponent_slips(seats: int, seat: int, rng: random.Random, mix: tuple[tuple[float, float], ...]) -> tuple[float, ...]:
    """One deal's opponents: each seat but ``seat`` draws how often it slips from ``mix`` (pairs
    of a slip rate and its weight); ``seat`` itself plays the normal bot's choice."""
    rates = [rate for rate, _ in mix]
    weights = [weight for _, weight in mix]
    return tuple(0.0 if s == seat else rng.choices(rates, weights)[0] for s in range(seats))


def _planted(state: StandardState, entry: tuple[int, Action], cache: TableCache) -> None:
    """Tell ``cache`` of the card the log's ``entry`` planted, if any (a play into the actor's
    arboretum, a solo gift into Q's, at the cell the log names)."""
    action = entry[1]
    kind = type(action)
    if kind is Play:
        play = cast(Play, action)
        cache.planted(entry[0], play.card, play.cell)
    elif kind is Give:
        give = cast(Give, action)
        assert give.cell is not None  # the log names the cell (the rule's, when Q places)
        cache.planted(Q_SEAT, give.card, give.cell)


def ranked_candidates(state: State, seat: int) -> tuple[list[Action], list[float]]:
    """Every legal action with the heuristic's value, best first."""
    if isinstance(state, DraftState):
        from .draft import score_picks

        actions, scores = score_picks(state, seat)
    else:
        from .turns import score_turn_actions

        actions, scores = score_turn_actions(cast(StandardState, state), seat)
    order = sorted(range(len(actions)), key=lambda i: -scores[i])
    return [actions[i] for i in order], [scores[i] for i in order]


def cards_left(state: State) -> int:
    """How much game is left, public: the draw pile (the draft: the picks still to be made, every
    seat's, this one included)."""
    view = state.view(None)
    if view.draft is not None:
        draft = view.draft
        picks = draft.picks_per_round - draft.pick + 1 + draft.picks_per_round * (draft.rounds - draft.round)
        return picks * len(view.seats)
    assert view.turns is not None
    return view.turns.draw_pile


def default_horizon(state: State) -> int:
    """About the last three turns of every seat (the draft: its last DRAFT_PICKS picks)."""
    if isinstance(state, DraftState):
        return DRAFT_PICKS * state.seats
    return 6 * state.seats


def playouts_for(state: State, iterations: int, horizon: int | None = None, left: int | None = None) -> int:
    """The playouts of a decision in this game for a budget of ``iterations`` two-player playouts
    (:data:`PLAYOUT_SHARE`, more as the end nears); ``left``: :func:`cards_left`, when known."""
    if iterations <= 0:
        return 0
    share = PLAYOUT_SHARE.get((state.mode, state.seats), 1.0)
    cap = PLAYOUT_CAP.get((state.mode, state.seats), 1.0)
    if share < cap:
        reach = default_horizon(state) if horizon is None else min(horizon, default_horizon(state))
        left = cards_left(state) if left is None else left
        share = min(cap, share * (reach / max(1, left)) ** SHARE_GROWTH.get((state.mode, state.seats), 1.0))
    return max(1, round(iterations * share))


def search(state: State, seat: int, rng: random.Random, iterations: int, seconds: float | None,
           width: int, horizon: int | None = None, rollout: str = "heuristic",
           margin: float = MARGIN_WEIGHT, opponents: tuple[tuple[float, float], ...] = OPPONENTS,
           read_draft: bool = True) -> tuple[Action, Reason]:
    """The strong bot's decision and its reason (see the module docstring). ``horizon``: search
    only once at most that many cards are left (:func:`cards_left`; None: :func:`default_horizon`);
    before, the heuristic's choice. ``rollout``: "heuristic" (every seat plays the normal bot's
    choice to the end, the others drawn from ``opponents`` for each deal, :data:`OPPONENTS`; empty:
    every seat the normal bot) or "random". ``read_draft``: deal a draft's hidden hands by what the
    others collect (:mod:`engine.bots.reading`)."""
    actions, scores = ranked_candidates(state, seat)
    left = cards_left(state)
    iterations = playouts_for(state, iterations, horizon, left)
    if horizon is None:
        horizon = default_horizon(state)
    if len(actions) == 1 or iterations <= 0 or left > horizon:
        return actions[0], _unsearched(state, actions, scores)
    # the draft: the best placement of each card first (which card to take, and so which to pass
    # on, decides more than where to plant it), then the heuristic's next best
    candidates = _diverse(actions, width) if isinstance(state, DraftState) else actions[:width]
    if isinstance(candidates[0], Draw):
        candidates = actions  # at most five sources, and the choice that most needs the lookahead
    playout = _heuristic_playout if rollout == "heuristic" else _playout
    count = len(candidates)
    # Every candidate is played in the same deals with the same playout seed, so the
    # difference to the heuristic's choice (candidate 0) is measured pairwise, with much less
    # noise than the results themselves.
    sums = [0.0] * count
    wins = [0.0] * count
    points = [0.0] * count
    diffs = [0.0] * count
    squares = [0.0] * count
    #: candidates still played; one clearly worse than the heuristic's choice is dropped, so the
    #: budget goes to the ones that may beat it (candidate 0 is always played: the pairs need it)
    active = list(range(count))
    dropped_at: dict[int, int] = {}
    started = time.perf_counter()
    deadline = None if seconds is None else started + seconds
    deals = 0
    done = 0
    last_cost = 0.0
    memory = draft_memory(state, seat) if isinstance(state, DraftState) else None
    read = tastes(state, seat) if isinstance(state, DraftState) and read_draft else None
    # solo: the only other seat is Q, who plays by the rule
    mixed = rollout == "heuristic" and state.mode != "solo" and any(rate > 0.0 for rate, _ in opponents)
    standard = isinstance(state, StandardState) and rollout == "heuristic"
    tables = TableCache(state.seats) if standard else None
    while done < iterations:
        # anytime: a deal is started only if it should end before the deadline (its cost guessed
        # from the last one), so a decision stays within its cap
        if deadline is not None and deals and time.perf_counter() + last_cost > deadline:
            break
        began = time.perf_counter()
        det = determinize(state, seat, rng, memory, read)
        playout_seed = rng.getrandbits(32)
        slips = opponent_slips(state.seats, seat, rng, opponents) if mixed else ()
        results: dict[int, float] = {}
        for index in active:
            trial = det.clone()
            trial.apply_action(candidates[index], seat)
            if tables is not None:
                tables.restart()
                _planted(cast(StandardState, trial), trial.history[-1], tables)
                _heuristic_playout(trial, random.Random(playout_seed), tables, slips)
            elif rollout == "heuristic":
                _heuristic_playout(trial, random.Random(playout_seed), None, slips)
            else:
                playout(trial, random.Random(playout_seed))
            value, win, total = _result(trial, seat, margin)
            results[index] = value
            wins[index] += win
            points[index] += total
        for index, value in results.items():
            sums[index] += value
            diffs[index] += value - results[0]
            squares[index] += (value - results[0]) ** 2
        deals += 1
        done += len(active)
        last_cost = time.perf_counter() - began
        if deals >= PRUNE_AFTER and len(active) > 2:
            for i in active[1:]:
                if diffs[i] / deals + PRUNE_SE * _error(diffs[i], squares[i], deals) < 0:
                    dropped_at[i] = deals
            active = [i for i in active if i not in dropped_at]
            if len(active) == 1:
                break  # nothing left that could beat the heuristic's choice
    # a dropped candidate's mean is over the deals it was played in
    played = [dropped_at.get(index, deals) for index in range(count)]
    means = [sums[i] / played[i] for i in range(count)]
    # leave the heuristic's choice only for a candidate clearly better in these deals: its mean
    # gain over it at least CONFIDENCE standard errors
    best = 0
    best_gain = 0.0
    for index in active[1:]:
        gain = diffs[index] / deals
        if gain > best_gain and gain > CONFIDENCE * _error(diffs[index], squares[index], deals):
            best, best_gain = index, gain
    second = max((i for i in range(count) if i != best), key=lambda i: means[i])
    collecting = () if read is None else tuple(
        (s, read.collecting(s)) for s in range(state.seats) if s != seat and read.collecting(s))
    reason = Reason(str(candidates[best]), means[best], str(candidates[second]), means[second], deals,
                    wins[best] / played[best], points[best] / played[best], wins[second] / played[second],
                    points[second] / played[second], count, collecting, mixed, means[second] > means[best])
    return candidates[best], reason


def _unsearched(state: State, actions: list[Action], scores: list[float]) -> Reason:
    """The reason of a move the search leaves to the normal bot's rating: its best and next best
    (in the draft the next best card, not the same card at another cell)."""
    best = actions[0]
    others = [a for a in actions[1:] if not isinstance(a, Pick) or not isinstance(best, Pick) or a.card != best.card]
    if not others:
        return Reason(str(best), scores[0], None, None, 0)
    second = others[0]
    return Reason(str(best), scores[0], str(second), scores[actions.index(second)], 0, candidates=len(actions))


def _diverse(actions: list[Action], width: int) -> list[Action]:
    """The best-ranked pick of each card, best first, filled up with the next best picks."""
    first: list[Action] = []
    cards: set[object] = set()
    for action in actions:
        card = cast(Pick, action).card
        if card not in cards:
            cards.add(card)
            first.append(action)
    chosen = first[:width]
    for action in actions:
        if len(chosen) >= width:
            break
        if action not in chosen:
            chosen.append(action)
    return chosen


def _error(total: float, squares: float, n: int) -> float:
    """Standard error of a mean from its sum and sum of squares over ``n`` values."""
    mean = total / n
    return math.sqrt(max(0.0, squares / n - mean * mean) / max(1, n - 1))


def budget_for(seconds: float) -> int:
    """Playouts that fit comfortably in ``seconds`` on one core (about 0.4 ms each)."""
    return max(1, math.floor(seconds * 2000))
