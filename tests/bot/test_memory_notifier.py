"""The in-memory transport (tests and the console) sorts what it kept by table and seat:
one table's messages never show among another's."""

from __future__ import annotations

from bot.service.notifications import MemoryNotifier, Notification


def note(table_id: int, seat: int | None, template: str) -> Notification:
    return Notification(table_id=table_id, seat=seat, template=template, context={},
                        game="fakepicks", locale="en")


async def test_messages_are_sorted_by_table_and_seat() -> None:
    notifier = MemoryNotifier()
    await notifier.deliver([note(1, None, "a"), note(1, 0, "b"), note(2, 0, "c"),
                            note(2, None, "d"), note(1, 1, "e")])
    assert [n.template for n in notifier.to_seat(0)] == ["b", "c"]
    assert [n.template for n in notifier.to_seat(0, 1)] == ["b"]
    assert [n.template for n in notifier.to_seat(0, 2)] == ["c"]
    assert [n.template for n in notifier.to_table()] == ["a", "d"]
    assert [n.template for n in notifier.to_table(2)] == ["d"]
    assert notifier.templates(table=True) == ["a", "d"]
    assert notifier.templates(1) == ["e"]
