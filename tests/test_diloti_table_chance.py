"""Diloti's first table under explicit chance: a finite chance tree that draws the table as the redeal rule does.

RULES.md ("Deal") deals the first table again while it holds three or four face cards of one rank
(three stay with ``three_faces_stay``; with ``any_rank_redeal``, three or more cards of any rank too).
Dealt that way the chance tree is infinite: a redeal can draw the same four cards forever. Every try is
uniform over the tables the undealt cards make, so the table the redeals end with is uniform over the
tables that stand, and explicit chance (:mod:`diloti.core.chance`) draws exactly that, with no redeal:
each table card with probability proportional to the standing tables it can still end in
(:func:`~diloti.games.diloti.chance.standing_tables`). These tests check that count against one made
with the state's own redeal test, walk the table's whole chance subtree, and check the engine's own
redeal (a seeded round) and sampled explicit chance against the same distribution.
"""

from __future__ import annotations

import copy
import itertools
import math
import pickle
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from diloti.core.cards import Card, parse_cards
from diloti.core.chance import BOTTOM, TABLE, TableChance
from diloti.core.errors import NoSuchOutcomeError
from diloti.core.phase import Phase
from diloti.games.diloti.chance import standing_tables
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State

OPTIONS = [
    Options(),
    Options(three_faces_stay=True),
    Options(any_rank_redeal=True),
    Options(any_rank_redeal=True, three_faces_stay=True, dealer_sees_bottom=True),
]
IDS = ["standard", "three_faces_stay", "any_rank_redeal", "both+bottom"]


def rank_counts(cards: Sequence[int]) -> list[int]:
    counts = [0] * 13
    for c in cards:
        counts[c >> 2] += 1
    return counts


_JUDGES: dict[Options, State] = {}


def must_be_redealt(options: Options, table: Sequence[Card]) -> bool:
    """The seeded engine's own test of a first table (the one its redeal loop reads)."""
    judge = _JUDGES.get(options)
    if judge is None:
        judge = _JUDGES[options] = State(2, options)
    return judge._table_must_be_redealt(list(table))


def standing_by_rank(options: Options, dealt: Sequence[Card], counts: Sequence[int]) -> dict[tuple[int, ...], int]:
    """Every way to finish the table, by the ranks of the cards left to deal (in order): the number of ordered
    choices of undealt cards with those ranks, for the tables that stand by the engine's own test (brute force)."""
    out: dict[tuple[int, ...], int] = {}
    for ranks in itertools.product(range(13), repeat=4 - len(dealt)):
        left, ways = list(counts), 1
        for r in ranks:
            ways *= left[r]
            left[r] -= 1
        if ways > 0 and not must_be_redealt(options, [*dealt, *(Card(4 * r) for r in ranks)]):
            out[ranks] = ways
    return out


def after_hands(players: int, options: Options, seed: int) -> State:
    """A round with explicit chance whose hands (and bottom card) are dealt at random from ``seed``: the first
    table is next."""
    s = State.new(players, options, dealer=seed % players, explicit_chance=True)
    rng = random.Random(seed)
    while s.chance is not None and s.chance.kind != TABLE:
        s.deal_random(rng)
    assert s.chance is not None and s.chance.left == 4
    return s


def table_undealt(s: State) -> list[Card]:
    """The cards the first table may take: the undealt ones but the bottom card the dealer saw."""
    return [c for c in s.remaining_stock if c != s.bottom]


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_the_count_of_standing_tables_is_the_engines_own(options: Options) -> None:
    rng = random.Random(5)
    for _ in range(40):
        deck = list(range(52))
        rng.shuffle(deck)
        k = rng.randrange(5)
        dealt = [Card(c) for c in deck[12:12 + k]]
        counts = rank_counts(deck[12 + k:])
        want = sum(standing_by_rank(options, dealt, counts).values())
        assert standing_tables(dealt, counts, options.three_faces_stay, options.any_rank_redeal) == want
    # Tables rich in one rank, where the limits bite: a full deck, and three of a rank dealt.
    for dealt in ([], parse_cards("KC KD"), parse_cards("KC KD KH"), parse_cards("5C 5D"), parse_cards("5C 5D 5H"),
                  parse_cards("QC QD QH QS"), parse_cards("QC QD 5H 5S")):
        counts = [4 - sum(1 for c in dealt if c >> 2 == r) for r in range(13)]
        want = sum(standing_by_rank(options, dealt, counts).values())
        assert standing_tables(dealt, counts, options.three_faces_stay, options.any_rank_redeal) == want


def walk(s: State, probability: float, ranks: tuple[int, ...], leaves: dict[tuple[int, ...], float]) -> None:
    """Every chance node of the first table below ``s``, by rank (the cards of one rank lead to the same
    subtree up to their suits): checks each node's outcomes and adds each table's probability to ``leaves``."""
    event = s.chance
    if event is None:
        assert s.phase != Phase.CHANCE and len(s.table) == 4 and s.first_table == tuple(s.table)
        assert not must_be_redealt(s.options, s.table)
        leaves[ranks] = leaves.get(ranks, 0.0) + probability
        return
    assert isinstance(event, TableChance) and event.kind == TABLE and event.to == "table"
    outcomes = s.chance_outcomes()
    undealt = table_undealt(s)
    assert 0 < len(outcomes) <= len(undealt) and {c for c, _ in outcomes} <= set(undealt)
    assert all(p > 0 for _, p in outcomes) and abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
    assert list(event.probabilities) == [p for _, p in outcomes] and event.outcomes == tuple(c for c, _ in outcomes)
    ids = s.chance_outcome_ids()
    assert ids == [(int(c), p) for c, p in outcomes] and all(type(c) is int for c, _ in ids)
    by_rank: dict[int, list[tuple[Card, float]]] = {}
    for c, p in outcomes:
        by_rank.setdefault(c >> 2, []).append((c, p))
    for rank, cards in by_rank.items():
        assert len({p for _, p in cards}) == 1  # the suits of a rank are alike
        t = s.copy()
        t.deal(cards[0][0])
        walk(t, probability * sum(p for _, p in cards), (*ranks, rank), leaves)


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_the_tables_chance_tree_is_finite_and_each_standing_table_is_equally_likely(options: Options) -> None:
    players = 4 if options.any_rank_redeal and not options.three_faces_stay else 2
    s = after_hands(players, options, seed=OPTIONS.index(options))
    counts = rank_counts(table_undealt(s))
    want = standing_by_rank(options, [], counts)
    total = sum(want.values())  # the tables that stand, in order: redealing until one does ends in each with 1/total
    assert total == standing_tables([], counts, options.three_faces_stay, options.any_rank_redeal)
    leaves: dict[tuple[int, ...], float] = {}
    walk(s, 1.0, (), leaves)
    assert sum(leaves.values()) == pytest.approx(1.0, abs=1e-12)
    assert leaves.keys() == want.keys()
    for ranks, p in leaves.items():
        # A rank sequence stands for want[ranks] tables of equal probability (the suits alike): each 1/total.
        assert p == pytest.approx(want[ranks] / total, rel=1e-9), ranks


def test_a_table_card_that_would_leave_no_standing_table_is_refused() -> None:
    s = State.new(2, explicit_chance=True)
    for c in parse_cards("AC 2C 3C 4C 5C 6C AD 2D 3D 4D 5D 6D QC QD"):
        s.deal(c)
    event = s.chance
    assert isinstance(event, TableChance) and event.left == 2
    assert set(parse_cards("QH QS")).isdisjoint(event.outcomes) and len(event.outcomes) == 36
    assert set(event.probabilities) == {1 / 36}  # any two others stand
    with pytest.raises(NoSuchOutcomeError, match="cannot deal QS: every table with it there would be dealt again"):
        s.deal("QS")
    with pytest.raises(NoSuchOutcomeError, match="not equally likely"):
        _ = event.probability
    with pytest.raises(NoSuchOutcomeError, match="not among the undealt"):
        s.deal("QC")  # dealt already: the usual refusal
    assert copy.copy(event) == event and copy.deepcopy(event).weights == event.weights
    again = pickle.loads(pickle.dumps(event))
    assert again == event and again.weights == event.weights and again.probabilities == event.probabilities

    t = State.new(2, Options(three_faces_stay=True), explicit_chance=True)
    for c in parse_cards("AC 2C 3C 4C 5C 6C AD 2D 3D 4D 5D 6D QC QD QH"):
        t.deal(c)
    # Three queens stay: the last card may be any but the fourth queen.
    assert t.chance is not None and len(t.chance.outcomes) == 36 and Card("QS") not in t.chance.outcomes
    t.deal("5S")
    assert t.chance is None and t.table == parse_cards("5S QC QD QH")


def test_the_bottom_card_the_dealer_saw_is_never_a_table_card() -> None:
    s = State.new(2, Options(dealer_sees_bottom=True, any_rank_redeal=True), dealer=0, explicit_chance=True)
    assert s.chance is not None and s.chance.kind == BOTTOM
    s.deal("KS")
    for c in parse_cards("AC 2C 3C 4C 5C 6C AD 2D 3D 4D 5D 6D KC KD"):
        s.deal(c)
    event = s.chance
    assert isinstance(event, TableChance) and Card("KS") not in event.outcomes
    # 37 undealt cards besides the bottom one: any but KH, the third king (any_rank_redeal or not).
    assert len(event.outcomes) == 36 and Card("KH") not in event.outcomes


def kind_of(table: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """A table's category for the chi-square tests: its face cards, and how many cards of a rank it holds."""
    return sum(1 for c in table if c >> 2 >= 10), tuple(sorted(Counter(c >> 2 for c in table).values()))


def chi2_limit(df: int) -> float:
    """The chi-square value exceeded with probability 0.001 (Wilson and Hilferty's approximation)."""
    z = 3.0902
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize(("options", "table"), [
    (Options(), "KC KD KH 7S"),
    (Options(any_rank_redeal=True), "5C 5D 5H QS"),
    (Options(three_faces_stay=True, dealer_sees_bottom=True), "JC JD JH JS"),
])
def test_the_engines_redeal_and_explicit_chance_draw_the_same_tables(options: Options, table: str) -> None:
    # A deck whose first table must be dealt again: a seeded round redeals it from its seed until it stands,
    # as the rules say. Over many seeds its tables, and tables drawn by explicit chance from the same hands
    # (and bottom card), follow the distribution of the standing tables (chi-square, p = 0.001).
    front = parse_cards("AH 2H 3H 4H 5H 6H AS 2S 3S 4S 5S 6S" if "5C" not in table else
                        "AH 2H 3H 4H 6H 7H AS 2S 3S 4S 6S 7S") + parse_cards(table)
    bottom = Card("QC")  # the dealer's card with dealer_sees_bottom: never a table card, redealt or not
    rest = [Card(c) for c in range(52) if c not in front and c != bottom]
    random.Random(8).shuffle(rest)
    deck = [*front, *rest, bottom]
    assert must_be_redealt(options, front[12:])
    undealt = deck[12:51] if options.dealer_sees_bottom else deck[12:]
    want = Counter[tuple[int, tuple[int, ...]]]()
    for ranks, ways in standing_by_rank(options, [], rank_counts(undealt)).items():
        want[kind_of([4 * r for r in ranks])] += ways
    total = sum(want.values())
    n = 3000
    # Categories expected fewer than 5 times are pooled into one (None).
    pooled = {k: (k if n * w / total >= 5 else None) for k, w in want.items()}
    expected = Counter[tuple[int, tuple[int, ...]] | None]()
    for k, w in want.items():
        expected[pooled[k]] += w
    seeded = Counter[tuple[int, tuple[int, ...]] | None]()
    for seed in range(n):
        s = State.new(2, options, deck=deck, seed=seed)
        assert s.shuffles >= 2 and s.bottom == (bottom if options.dealer_sees_bottom else None)
        seeded[pooled[kind_of(s.first_table)]] += 1
    dealt = State.new(2, options, explicit_chance=True)
    if options.dealer_sees_bottom:
        dealt.deal(bottom)
    for c in deck[:12]:
        dealt.deal(c)
    explicit = Counter[tuple[int, tuple[int, ...]] | None]()
    rng = random.Random(9)
    for _ in range(n):
        e = dealt.copy()
        while e.phase == Phase.CHANCE:
            e.deal_random(rng)
        assert e.phase == Phase.PLAY and e.hands == dealt.hands
        explicit[pooled[kind_of(e.first_table)]] += 1
    limit = chi2_limit(len(expected) - 1)
    for seen in (seeded, explicit):
        assert set(seen) <= set(expected)
        chi2 = sum((seen[k] - n * w / total) ** 2 / (n * w / total) for k, w in expected.items())
        assert chi2 < limit, (chi2, limit, seen)


@pytest.mark.parametrize(("options", "tables"), [
    (Options(), ["AD 3D 10S KD", "6D 8C 10S QD", "2C 7C KC KS", "7H 10S JD KD", "4D 8C JS QH", "9C JH KC KD"]),
    (Options(dealer_sees_bottom=True, any_rank_redeal=True),
     ["AD 8H 10H JC", "9C QC QS KH", "2C 8D 9C 9H", "7H 10S JD KD", "8D 9D QC QD", "7H JC JS KC"]),
])
def test_seeded_rounds_are_dealt_as_before(options: Options, tables: list[str]) -> None:
    # The seeded deal is untouched: a table of three kings is dealt again from the seed's next shuffle. The
    # tables were recorded from the engine before explicit chance weighed its table cards.
    deck = parse_cards("AH 2H 3H 4H 5H 6H AS 2S 3S 4S 5S 6S KC KD KH 7S")
    deck += [Card(c) for c in range(52) if c not in deck]
    for seed, table in enumerate(tables):
        s = State.new(2, options, deck=deck, seed=seed)
        assert (s.shuffles, s.first_table) == (2, tuple(parse_cards(table)))


def test_openspiel_deals_a_diloti_round_without_a_redeal_of_the_table() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import diloti.envs.openspiel_game  # noqa: F401 - registers the games

    for players, options in ((2, ""), (2, "any_rank_redeal three_faces_stay"), (4, "dealer_sees_bottom")):
        game = pyspiel.load_game("python_diloti", {"players": players, "options": options})
        rng = random.Random(3)
        for _ in range(3):
            state = game.new_initial_state()
            chance = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    assert outcomes and all(p > 0 for _, p in outcomes)
                    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
                    assert state.legal_actions() == [a for a, _ in outcomes]
                    if state.round.chance.kind == TABLE and state.round.chance.left == 1:
                        # The last table card: every outcome lays a standing table and a player acts.
                        for a, _ in outcomes:
                            child = state.child(a)
                            assert not child.is_chance_node() and not must_be_redealt(child.round.options,
                                                                                       child.round.table)
                    actions, probs = zip(*outcomes, strict=True)
                    state.apply_action(rng.choices(actions, probs)[0])
                    chance += 1
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            # Every card dealt once (the bottom card chosen first, then dealt last): no redeal.
            assert chance == 52 + ("dealer_sees_bottom" in options)
            assert not must_be_redealt(state.round.options, list(state.round.first_table))
            assert len(state.round.first_table) == 4 and state.round.stock_size == 0
