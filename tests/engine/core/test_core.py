"""The core pieces: the seeded generator, ranks, errors, the registry."""

from __future__ import annotations

import pytest

from engine.core import BadOptions, IllegalAction, ParseError, Rng, get_game, rank_totals


def test_rng_is_deterministic_and_its_state_is_one_int() -> None:
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    c = Rng(a.state)
    assert c.next_u64() == a.next_u64()
    assert Rng.from_seed(1).next_u64() != Rng.from_seed(2).next_u64()


def test_randbelow_is_in_range_and_roughly_uniform() -> None:
    rng = Rng.from_seed(3)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randbelow(6)] += 1
    assert all(800 < c < 1200 for c in counts)
    with pytest.raises(ValueError):
        rng.randbelow(0)


def test_shuffle_is_a_permutation() -> None:
    items = list(range(50))
    Rng.from_seed(5).shuffle(items)
    assert sorted(items) == list(range(50)) and items != list(range(50))


def test_rank_totals_share_ties() -> None:
    assert rank_totals([5, 9, 9, 1]) == [3, 1, 1, 4]


def test_errors_carry_a_code_and_a_readable_message() -> None:
    err = IllegalAction("You cannot do that.", code="nope", legal=["a"])
    assert (str(err), err.code, err.params["legal"]) == ("You cannot do that.", "nope", ["a"])
    assert ParseError("x").code == "parse"


def test_registry_knows_the_games_and_refuses_unknown_ones() -> None:
    assert get_game("ginkgopolis").name == "ginkgopolis"
    with pytest.raises(KeyError, match="known games"):
        get_game("monopoly")


def test_bad_options_are_refused_readably() -> None:
    with pytest.raises(BadOptions, match="1 to 5"):
        get_game("ginkgopolis").setup(6, {}, 1)
    with pytest.raises(BadOptions, match="Unknown option"):
        get_game("ginkgopolis").setup(3, {"colour": "mauve"}, 1)
