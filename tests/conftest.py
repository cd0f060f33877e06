"""Shared test helpers: build positions from short text."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


# The fast tier (``scripts/test --quick``, or ``pytest -m quick`` with these paths): the rules, the formats and the
# protocol's core, with their doctests: no browser, no PostgreSQL, no Ray, no long match, under three minutes on a
# small machine (README.md, Testing). The paths are the tier; ``QUICK_SLOW`` the few of their tests (every parameter
# of each) that take tens of seconds, left to the whole suite. A test module added here is in the tier at once.
QUICK = (
    # the rules
    "tests/test_state.py", "tests/test_table.py", "tests/test_perft.py", "tests/test_perft_games.py",
    "tests/test_xeri.py", "tests/test_kontsina.py", "tests/test_game.py", "tests/test_choices.py",
    "tests/test_chance.py", "tests/test_diloti_table_chance.py", "tests/test_xeri_pile_chance.py",
    "tests/test_variant_chance.py", "tests/test_values.py", "tests/test_interface.py", "tests/test_seeds.py",
    "tests/test_properties.py", "tests/test_games_properties.py", "tests/test_layers.py",
    "src/diloti/core", "src/diloti/games",
    # the formats
    "tests/test_notation.py", "tests/test_position.py", "tests/test_record.py", "tests/test_games_formats.py",
    "src/diloti/formats",
    # the protocol's core: its models, the document against them, the messages of a game over the wire, the lobby
    "tests/test_protocol.py", "tests/test_lobby.py", "tests/test_static_shell.py",
    "src/diloti/server/messages.py", "src/diloti/server/client_models.py", "src/diloti/server/game_models.py",
    "src/diloti/server/model_base.py", "src/diloti/server/protocol.py", "src/diloti/server/info.py",
)
QUICK_SLOW = (
    "tests/test_properties.py::test_round_invariants_every_option_mix",
    "tests/test_table.py::test_generator_matches_reference",
    "tests/test_table.py::test_lazy_generator_matches_the_shape_cache",
    "tests/test_xeri_pile_chance.py::test_the_piles_chance_tree_is_finite_and_each_standing_pile_is_equally_likely",
    "tests/test_diloti_table_chance.py::test_the_tables_chance_tree_is_finite_and_each_standing_table_is_equally",
    "tests/test_games_properties.py::test_thousands_of_random_hands_of_each_game",
)


def _quick(item: pytest.Item, root: Path) -> bool:
    try:
        where = item.path.resolve().relative_to(root).as_posix()
    except ValueError:
        return False
    test = f"{where}::{item.name}"
    return (any(where == q or where.startswith(q + "/") for q in QUICK)
            and not any(test.startswith(slow) for slow in QUICK_SLOW))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The fast tier's tests are marked ``quick``. The browser tests run last: Playwright's sync API keeps an event
    loop running in the main thread while its session-wide browser is open, so a test after it that calls
    ``asyncio.run`` (a doctest too) would fail with "cannot be called from a running event loop"."""
    root = Path(__file__).resolve().parents[1]
    for item in items:
        if _quick(item, root):
            item.add_marker(pytest.mark.quick)
    items.sort(key=lambda item: item.nodeid.startswith("tests/browser/"))
