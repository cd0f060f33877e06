"""Xeri's first pile under explicit chance: a finite chance tree that draws the pile as the redeal rule does.

RULES-XERI.md section 3 deals the pile again while its top card is a jack or pairs the card under it
(with ``pile_any_pair_redeal``, also while any two of its cards pair). Dealt that way the chance tree
is infinite: a redeal can draw the same four cards forever. Every try is uniform over the piles that
the undealt cards make, so the pile the redeals end with is uniform over the piles that stand, and
explicit chance (:mod:`diloti.games.onecard.chance`) draws exactly that, with no redeal: each pile card
with probability proportional to the standing piles it can still end in. These tests walk the pile's
whole chance subtree and check it against a count of the standing piles made with the rule's own
test (:func:`~diloti.games.xeri.rules.pile_must_be_redealt`), and check the engine's own redeal
(a seeded hand) and sampled explicit chance against the same distribution.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from diloti.core.cards import Card, parse_cards
from diloti.core.chance import TABLE
from diloti.core.errors import NoSuchOutcomeError
from diloti.core.phase import Phase
from diloti.games.onecard.chance import TableChance
from diloti.games.xeri.rules import JACK, XeriOptions, XeriState, pile_must_be_redealt, standing_piles

OPTIONS = [(2, XeriOptions()), (2, XeriOptions(pile_any_pair_redeal=True)), (4, XeriOptions(partnerships=True))]


def rank_counts(cards: Sequence[int]) -> list[int]:
    counts = [0] * 13
    for c in cards:
        counts[c >> 2] += 1
    return counts


def standing_by_rank(dealt: Sequence[Card], counts: Sequence[int], any_pair: bool) -> dict[tuple[int, ...], int]:
    """Every way to finish the pile, by the ranks of the cards left to deal: the number of ordered choices
    of undealt cards with those ranks, for the piles that stand by the rule's own test (brute force)."""
    out: dict[tuple[int, ...], int] = {}
    for ranks in itertools.product(range(13), repeat=4 - len(dealt)):
        left, ways = list(counts), 1
        for r in ranks:
            ways *= left[r]
            left[r] -= 1
        if ways > 0 and not pile_must_be_redealt([*dealt, *(Card(4 * r) for r in ranks)], any_pair):
            out[ranks] = ways
    return out


def after_hands(players: int, options: XeriOptions, seed: int) -> XeriState:
    """A hand with explicit chance whose hands are dealt at random (from ``seed``): the pile is next."""
    s = XeriState.new(players, options, dealer=seed % players, explicit_chance=True)
    rng = random.Random(seed)
    while s.chance is not None and s.chance.kind != TABLE:
        s.deal_random(rng)
    assert s.chance is not None and s.chance.left == 4
    return s


@pytest.mark.parametrize("any_pair", [False, True])
def test_the_count_of_standing_piles_is_the_rules_own(any_pair: bool) -> None:
    rng = random.Random(5)
    for _ in range(30):
        deck = list(range(52))
        rng.shuffle(deck)
        k = rng.randrange(5)
        dealt = [Card(c) for c in deck[12:12 + k]]
        counts = rank_counts(deck[12 + k:])
        assert standing_piles(dealt, counts, any_pair) == sum(standing_by_rank(dealt, counts, any_pair).values())


def walk(s: XeriState, probability: float, ranks: tuple[int, ...], leaves: dict[tuple[int, ...], float]) -> None:
    """Every chance node of the pile below ``s``, by rank (the cards of one rank lead to the same subtree up
    to their suits): checks each node's outcomes and adds each pile's probability to ``leaves``."""
    event = s.chance
    if event is None:
        assert s.phase == Phase.PLAY and len(s.table) == 4
        assert not pile_must_be_redealt(s.table, s.options.pile_any_pair_redeal)
        leaves[ranks] = leaves.get(ranks, 0.0) + probability
        return
    assert isinstance(event, TableChance) and event.kind == TABLE
    outcomes = s.chance_outcomes()
    assert 0 < len(outcomes) <= len(s.remaining_stock)
    assert all(p > 0 for _, p in outcomes) and abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
    assert list(event.probabilities) == [p for _, p in outcomes]
    assert [(c, p) for c, p in s.chance_outcome_ids()] == [(int(c), p) for c, p in outcomes]
    by_rank: dict[int, list[tuple[Card, float]]] = {}
    for c, p in outcomes:
        by_rank.setdefault(c >> 2, []).append((c, p))
    for rank, cards in by_rank.items():
        assert len({p for _, p in cards}) == 1  # the suits of a rank are alike
        t = s.copy()
        t.deal(cards[0][0])
        walk(t, probability * sum(p for _, p in cards), (*ranks, rank), leaves)


@pytest.mark.parametrize(("players", "options"), OPTIONS)
def test_the_piles_chance_tree_is_finite_and_each_standing_pile_is_equally_likely(players: int,
                                                                                 options: XeriOptions) -> None:
    s = after_hands(players, options, seed=players + 2 * options.pile_any_pair_redeal)
    counts = rank_counts(s.remaining_stock)
    want = standing_by_rank([], counts, options.pile_any_pair_redeal)
    total = sum(want.values())  # the piles that stand: redealing until one does ends in each with 1/total
    leaves: dict[tuple[int, ...], float] = {}
    walk(s, 1.0, (), leaves)
    assert sum(leaves.values()) == pytest.approx(1.0, abs=1e-12)
    assert leaves.keys() == want.keys()
    for ranks, p in leaves.items():
        assert p == pytest.approx(want[ranks] / total, rel=1e-9), ranks


def test_a_card_that_would_leave_no_standing_pile_is_refused_and_dealing_stays_finite() -> None:
    s = after_hands(2, XeriOptions(), seed=1)
    undealt = set(s.remaining_stock)
    for _ in range(2):
        assert s.chance is not None
        undealt.remove(s.chance.outcomes[0])
        s.deal(s.chance.outcomes[0])
    assert s.chance is not None
    under = next(c for c in s.chance.outcomes if c >> 2 != JACK)
    undealt.remove(under)
    s.deal(under)
    event = s.chance
    assert event is not None and event.left == 1 and set(event.outcomes) <= undealt
    refused = [c for c in undealt if c >> 2 in (JACK, under >> 2)]
    assert refused and set(event.outcomes) == undealt - set(refused)
    for c in refused:
        with pytest.raises(NoSuchOutcomeError, match="would be dealt again"):
            s.deal(c)
    with pytest.raises(NoSuchOutcomeError, match="not equally likely"):
        _ = event.probability


def top_two(pile: Sequence[Card]) -> tuple[bool, int]:
    """What the redeal rule reads, as a category: whether the card under the top is a jack, the top's rank."""
    return pile[-2] >> 2 == JACK, pile[-1] >> 2


def test_the_engines_redeal_and_explicit_chance_draw_the_same_piles() -> None:
    # A deck whose first pile must be dealt again (a jack on top): a seeded hand redeals it from its seed
    # until it stands, as the rules say. Over many seeds its piles, and piles drawn by explicit chance
    # from the same hands, follow the distribution of the standing piles (chi-square, p = 0.001).
    deck = list(range(52))
    random.Random(8).shuffle(deck)
    top = next(i for i in range(12, 52) if deck[i] >> 2 == JACK)
    deck[15], deck[top] = deck[top], deck[15]
    assert pile_must_be_redealt([Card(c) for c in deck[12:16]])
    want = Counter[tuple[bool, int]]()
    for ranks, ways in standing_by_rank([], rank_counts(deck[12:]), False).items():
        want[(ranks[2] == JACK, ranks[3])] += ways
    total = sum(want.values())
    n = 3000
    seeded = Counter(top_two(XeriState.new(deck=deck, seed=seed).first_table) for seed in range(n))
    explicit = Counter[tuple[bool, int]]()
    rng = random.Random(9)
    for _ in range(n):
        e = XeriState.new(explicit_chance=True)
        for c in deck[:12]:
            e.deal(c)
        while e.chance is not None:
            e.deal_random(rng)
        explicit[top_two(e.first_table)] += 1
    for seen in (seeded, explicit):
        assert set(seen) <= set(want)
        chi2 = sum((seen[k] - n * w / total) ** 2 / (n * w / total) for k, w in want.items())
        assert chi2 < 49.7, (chi2, seen)  # 23 degrees of freedom (24 categories): p = 0.001


def test_openspiel_deals_every_card_of_a_xeri_hand_once() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import diloti.envs.openspiel_game  # noqa: F401 - registers the games

    for players, options in ((2, ""), (2, "pile_any_pair_redeal"), (4, "")):
        game = pyspiel.load_game("python_xeri", {"players": players, "options": options})
        rng = random.Random(3)
        for _ in range(5):
            state = game.new_initial_state()
            chance = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    assert outcomes and all(p > 0 for _, p in outcomes)
                    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
                    assert state.legal_actions() == [a for a, _ in outcomes]
                    actions, probs = zip(*outcomes, strict=True)
                    state.apply_action(rng.choices(actions, probs)[0])
                    chance += 1
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            assert chance == 52  # no card is ever dealt twice: no redeal
            assert not pile_must_be_redealt(state.round.first_table, bool(options))


def test_the_pile_of_a_worked_example_stands_and_its_first_card_is_weighted() -> None:
    s = XeriState.new(2, dealer=1, explicit_chance=True)
    for c in parse_cards("7H 3S JH JD 2C QS 3D JC 5C 8H 2D 6H"):
        s.deal(c)
    event = s.chance
    assert isinstance(event, TableChance) and len(event.outcomes) == 40
    # The bottom card's weight: the standing piles below which it lies, as the count says.
    counts = rank_counts(s.remaining_stock)
    for c, w in zip(event.outcomes, event.weights, strict=True):
        counts[c >> 2] -= 1
        assert w == standing_piles([c], counts)
        counts[c >> 2] += 1
    for c in parse_cards("4C 9H KD 7S"):
        s.deal(c)
    assert s.chance is None and s.first_table == tuple(parse_cards("4C 9H KD 7S"))
