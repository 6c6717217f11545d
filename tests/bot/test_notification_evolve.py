"""``Notification.evolve``: the changed copy the service makes of a note between its
action and its sending, as ``dataclasses.replace`` makes it, without its cost."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service.notifications import FileSpec, Notification

NOTE = Notification(table_id=3, seat=1, template="your_turn", context={"view": {"a": 1}},
                    game="ginkgopolis", locale="fr", user_id="u1",
                    files=(FileSpec("board", 1),), slot="hand", version=7, fill=("view",))

CHANGES = st.fixed_dictionaries({}, optional={
    "context": st.dictionaries(st.text(max_size=3), st.integers()),
    "defer": st.booleans(), "in_doubt": st.booleans(), "outbox_id": st.integers(0, 99),
    "sent": st.tuples(st.text(max_size=4)), "fill": st.just(()),
    "game": st.text(max_size=5), "locale": st.sampled_from(["en", "fr"]),
})


@given(CHANGES)
def test_evolve_is_replace(changes: dict[str, object]) -> None:
    evolved = NOTE.evolve(**changes)
    assert evolved == dataclasses.replace(NOTE, **changes)  # type: ignore[arg-type]
    assert type(evolved) is Notification and evolved is not NOTE
    assert NOTE.context == {"view": {"a": 1}} and not NOTE.defer  # the original as it was


def test_evolve_refuses_what_is_no_field_and_keeps_the_copy_frozen() -> None:
    with pytest.raises(TypeError, match="vue"):
        NOTE.evolve(vue={})
    with pytest.raises(dataclasses.FrozenInstanceError):
        NOTE.evolve(defer=True).defer = False  # type: ignore[misc]
