"""The core pieces: the seeded generator, ranks, errors, the registry."""

from __future__ import annotations

import pytest

from engine.core import (
    BadOptions,
    IllegalAction,
    ParseError,
    Rng,
    game_names,
    get_game,
    rank_totals,
    typed_int,
)


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
    with pytest.raises(KeyError) as refused:
        get_game("monopoly")
    # The refusal lists the games there are.
    assert "known games: " in str(refused.value) and "ginkgopolis" in str(refused.value)


def test_a_game_package_that_is_absent_is_skipped_but_a_broken_one_is_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def absent(name: str) -> object:
        if name == "engine.neotopia":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real(name)

    from engine.core import registry

    # The built-in games are imported once per process: each case is a first time.
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(importlib, "import_module", absent)
    assert "ginkgopolis" in game_names()  # a game not installed is simply not offered

    def broken(name: str) -> object:
        if name == "engine.neotopia":
            raise ModuleNotFoundError("No module named 'numpyy'", name="numpyy")
        return real(name)

    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="numpyy"):
        game_names()  # a game whose own import fails must say so


def test_bad_options_are_refused_readably() -> None:
    with pytest.raises(BadOptions, match="1 to 5"):
        get_game("ginkgopolis").setup(6, {}, 1)
    with pytest.raises(BadOptions, match="Unknown option"):
        get_game("ginkgopolis").setup(3, {"colour": "mauve"}, 1)


# Published SplitMix64 outputs for the state 0 (Vigna's reference splitmix64.c): a change of
# the generator would silently change every stored game's replay.
SPLITMIX64_FROM_0 = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
                     0xF88BB8A8724C81EC, 0x1B39896A51A8749B]


def test_rng_matches_the_published_splitmix64_outputs() -> None:
    rng = Rng(0)
    assert [rng.next_u64() for _ in SPLITMIX64_FROM_0] == SPLITMIX64_FROM_0
    assert Rng(1 << 64).state == 0  # the state is kept to 64 bits


def _reference_stream(state: int) -> list[int]:
    """A second SplitMix64, written from the paper, to check the derived draws against."""
    out = []
    for _ in range(64):
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        out.append(z ^ (z >> 31))
    return out


def test_seeding_randbelow_and_shuffle_follow_the_reference_stream() -> None:
    seed = 20261126
    mixed = _reference_stream(seed)[0]  # from_seed mixes the seed once
    assert Rng.from_seed(seed).state == mixed
    stream = iter(_reference_stream(mixed))

    def below(n: int) -> int:  # rejection sampling, no modulo bias
        limit = (2**64 // n) * n
        while (x := next(stream)) >= limit:
            pass
        return x % n

    expected = list(range(10))
    for i in range(9, 0, -1):  # Fisher-Yates from the end
        j = below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    items = list(range(10))
    rng = Rng.from_seed(seed)
    rng.shuffle(items)
    assert items == expected
    assert [rng.randbelow(n) for n in (7, 1, 2**63 + 1)] == [below(n) for n in (7, 1, 2**63 + 1)]
    # Bounds just above 2**63 reject about half the draws: the rejection must be exact.
    bounds = [2**63 + 1, 3 * 2**62, 2**64 - 1] * 8
    assert [rng.randbelow(n) for n in bounds] == [below(n) for n in bounds]


def _unmix(y: int) -> int:
    """The generator state whose next draw is ``y`` (splitmix64's finaliser inverted)."""
    mask = 2**64 - 1

    def unshift(v: int, k: int) -> int:
        x = v
        for _ in range(64 // k + 1):
            x = v ^ (x >> k)
        return x

    z = unshift(y, 31)
    z = unshift((z * pow(0x94D049BB133111EB, -1, 2**64)) & mask, 27)
    z = unshift((z * pow(0xBF58476D1CE4E5B9, -1, 2**64)) & mask, 30)
    return (z - 0x9E3779B97F4A7C15) & mask


def test_a_draw_at_the_rejection_limit_is_rejected() -> None:
    n = 3 * 2**62  # one multiple fits in 64 bits: the limit is n itself
    for x in (n - 1, n, n + 1):
        assert Rng(_unmix(x)).next_u64() == x  # the inverse is right
    assert Rng(_unmix(n - 1)).randbelow(n) == n - 1  # just below: kept
    after = Rng(_unmix(n))
    after.next_u64()  # the draw at the limit, skipped
    expected = after.randbelow(n)
    assert expected != 0  # what keeping the draw at the limit would give (n % n)
    assert Rng(_unmix(n)).randbelow(n) == expected  # at the limit: drawn again


def test_a_bad_number_is_echoed_whole_up_to_twenty_characters_then_cut() -> None:
    with pytest.raises(ParseError) as whole:
        typed_int("x" * 20)
    assert repr("x" * 20) in str(whole.value) and "…" not in str(whole.value)
    with pytest.raises(ParseError) as cut:
        typed_int("y" * 21)
    assert repr("y" * 20 + "…") in str(cut.value) and "y" * 21 not in str(cut.value)
    assert cut.value.code == "bad_number"
