"""Every registered game's ``parse_action`` against long and adversarial typed text.

Whatever a player types, the parser answers with an Action, a ParseError or an
IllegalAction, leaves the state untouched, and refuses anything over
``MAX_TYPED`` characters before doing any work that depends on the text. Work is
bounded by counting (interpreter calls, memory), never by timing.
"""

from __future__ import annotations

import functools
import gc
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.core import MAX_TYPED, IllegalAction, ParseError, game_names, get_game
from engine.core.protocol import Game
from engine.core.rng import Rng
from engine.core.textinput import check_typed, typed_int

# Characters that have broken parsers before or that tempt ``isdigit`` / ``\d`` / ``int``:
# superscripts, circled and other scripts' digits, full-width and mathematical digits,
# unusual spaces, controls, letters whose case mapping changes their length.
NASTY = (
    " \t\n\r\x0b\x0c\x00\x1b\x7f\u0085\u00a0\u1680\u2028\u200b\u3000\ufeff"
    "0123456789²³¹①⑳٣߁०௭𝟘０９Ⅻ½"
    "@:+-–—,.;!#/\\'\"`*_=<>()[]{}"
    "abcxyzABCXYZ rgbyv RES TILE draft give take done newhand bridge roof pont toit"
    "éÉßİıﬃǅΣς\u0301\U0001f600"
)


STEPS = (0, 9, 39)
"""The opening and two later positions of each game, each with a seat that has to decide."""


@functools.cache
def _positions(name: str) -> dict[int, tuple[Game[Any], Any, int]]:
    """Played when a test first asks, never at import: collection plays no game."""
    game = get_game(name)
    seats = max(2, game.min_seats)
    state = game.setup(seats, game.default_options(), 7)
    rng = Rng.from_seed(7)
    found: dict[int, tuple[Game[Any], Any, int]] = {}
    for step in range(max(STEPS) + 1):
        waiting = sorted(game.pending(state).waiting)
        assert waiting, f"{name} ended before step {step}"
        if step in STEPS:
            found[step] = (game, game.state_from_json(game.state_to_json(state)), waiting[0])
        seat = waiting[0]
        legal = game.legal_actions(state, seat)
        game.apply(state, seat, rng.choice(legal))
    return found


def position(name: str, step: int) -> tuple[Game[Any], Any, int]:
    return _positions(name)[step]


# Only the shipped games: the bot's tests register fake games in the same process.
SHIPPED = [n for n in game_names() if type(get_game(n)).__module__.startswith("engine.")]
CASES = [(name, step) for name in SHIPPED for step in STEPS]
IDS = [f"{name}-{i}" for name in SHIPPED for i in range(len(STEPS))]

runs = st.builds(
    lambda head, char, count, tail: head + char * count + tail,
    st.sampled_from(["", "red", "red ", "3@", "bridge 5", "A@", "A@1,", "draft ", "R7+",
                     "#", "x", "b:", "roof", "-", "give B"]),
    st.sampled_from([" ", "\t", "1", "9", "-", "@", "²", "①", "٣", "\x00", "a", "é", ":"]),
    st.integers(min_value=0, max_value=3 * MAX_TYPED),
    st.sampled_from(["", "!", "1", "@5", ",1", " 5", "²", "x"]),
)
texts = st.one_of(
    st.text(st.sampled_from(NASTY), max_size=MAX_TYPED + 20),
    st.text(max_size=40),
    runs,
)


def _parse(game: Game[Any], state: Any, seat: int, text: str) -> object:
    try:
        return game.parse_action(state, seat, text)
    except (ParseError, IllegalAction) as refusal:
        return refusal


@pytest.mark.parametrize(("name", "step"), CASES, ids=IDS)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
@example(text="red" + " " * 2000 + "!")
@example(text="red" + " " * (MAX_TYPED - 4) + "!")
@example(text="9" * 4301)
@example(text="A@" + "1" * 4301 + ",1")
@example(text="3@" + "1" * (MAX_TYPED - 2))
@example(text="draft " + "7" * (MAX_TYPED - 6))
@example(text="#²")
@example(text="3@①")
@example(text="x" * 100_000)
def test_parse_action_answers_every_text(name: str, step: int, text: str) -> None:
    game, state, seat = position(name, step)
    before = game.state_to_json(state)
    answer = _parse(game, state, seat, text)
    assert game.state_to_json(state) == before
    if len(text) > MAX_TYPED:
        assert isinstance(answer, ParseError), answer
        assert answer.code == "too_long"
        assert answer.params["limit"] == MAX_TYPED
        assert answer.params["length"] == len(text)
    elif not isinstance(answer, (ParseError, IllegalAction)):
        # Whatever was understood is an action whose own text reads back the same.
        assert game.parse_action(state, seat, answer.text()) == answer  # type: ignore[attr-defined]


@contextmanager
def _counting_calls() -> Iterator[list[int]]:
    """Count every function call, Python or C, made on this thread inside the block.
    The garbage collector is off meanwhile: a collection would run the finalizers of
    other tests' leftovers and count their calls too (seen in the full suite)."""
    count = [0]

    def profile(frame: object, event: str, arg: object) -> None:
        if event in ("call", "c_call"):
            count[0] += 1

    gc.collect()
    gc.disable()
    sys.setprofile(profile)
    try:
        yield count
    finally:
        sys.setprofile(None)
        gc.enable()


def _cost(call: Callable[[], object]) -> tuple[int, int]:
    """(calls, peak bytes allocated) of one call."""
    tracemalloc.start()
    try:
        with _counting_calls() as count:
            call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return count[0], peak


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("char", ["x", " ", "9", "②"])
def test_a_100kb_text_costs_what_the_shortest_refused_text_costs(name: str, char: str) -> None:
    game, state, seat = position(name, STEPS[0])
    # The length check comes before any parsing: the refusal of 100,000 characters makes
    # exactly the calls that of MAX_TYPED + 1 makes, and never copies the text (a lower(),
    # a strip() or a re.sub() of it would allocate 100 KB or more).
    shortest, huge = char * (MAX_TYPED + 1), char * 100_000
    _parse(game, state, seat, shortest)  # warm any cache before counting
    for text in (shortest, huge):
        answer = _parse(game, state, seat, text)
        assert isinstance(answer, ParseError) and answer.code == "too_long"
    short_calls, short_peak = _cost(lambda: _parse(game, state, seat, shortest))
    huge_calls, huge_peak = _cost(lambda: _parse(game, state, seat, huge))
    assert huge_calls == short_calls
    assert huge_peak < short_peak + len(huge) // 4


def test_the_length_check_refuses_past_the_limit_only() -> None:
    assert check_typed("a" * MAX_TYPED) == "a" * MAX_TYPED
    with pytest.raises(ParseError) as info:
        check_typed("a" * (MAX_TYPED + 1))
    assert (info.value.code, info.value.params["limit"]) == ("too_long", MAX_TYPED)
    with pytest.raises(ParseError) as info:
        check_typed("abc", limit=2)
    assert (info.value.code, info.value.params["limit"]) == ("too_long", 2)


@pytest.mark.parametrize("token", ["", "-", "²", "①", "٣", "０", "1²", "1" * 7, "--1", "+1",
                                   "1 ", "1_000"])
def test_typed_int_refuses_what_int_would_take_or_choke_on(token: str) -> None:
    with pytest.raises(ParseError) as info:
        typed_int(token)
    assert info.value.code == "bad_number"


@pytest.mark.parametrize(("token", "value"), [("0", 0), ("007", 7), ("-12", -12),
                                              ("999999", 999_999)])
def test_typed_int_reads_ascii_numbers(token: str, value: int) -> None:
    assert typed_int(token) == value


@pytest.mark.parametrize(("name", "step"), CASES, ids=IDS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_legal_texts_among_noise_read_or_refuse_politely(name: str, step: int,
                                                         data: st.DataObject) -> None:
    game, state, seat = position(name, step)
    # The success path too: a legal action's text with what a chat adds around it (spaces,
    # a newline, a different case) reads as that action; with characters inserted inside
    # it is read as an action whose text reads back the same, or refused, nothing else.
    legal = game.legal_actions(state, seat)
    action = data.draw(st.sampled_from(legal), label="action")
    text = action.text()
    padded = data.draw(st.sampled_from([" ", "  ", "\n", " \t"])) + text + "\n"
    assert game.parse_action(state, seat, padded) == action
    assert game.parse_action(state, seat, text.upper()) == action
    assert game.parse_action(state, seat, text.lower()) == action
    at = data.draw(st.integers(0, len(text)), label="at")
    noise = data.draw(st.text(st.sampled_from(NASTY), min_size=1, max_size=5), label="noise")
    before = game.state_to_json(state)
    answer = _parse(game, state, seat, text[:at] + noise + text[at:])
    assert game.state_to_json(state) == before
    if not isinstance(answer, (ParseError, IllegalAction)):
        assert game.parse_action(state, seat, answer.text()) == answer  # type: ignore[attr-defined]
