"""Inside one group (a Ginkgopolis card with many tiles), more than 25 options are cut
into selects of 25, in order, on the rows left beside the Back button; a group too big for
them is typed (bot/discord/menus.py ``plan_group``, components.menu_view)."""

from __future__ import annotations

import pytest

from bot.discord import components, ids
from bot.discord.labels import Labels
from bot.discord.limits import ROWS, SELECT_OPTIONS
from bot.discord.menus import MAX_BUTTONS, plan, plan_group

TABLE, VERSION = 4, 17


def card_options(card: str, tiles: int) -> list[str]:
    """A card, its resource and tile options, and ``tiles`` card+tile placements."""
    return [f"{card}:res", f"{card}:tile", *(f"{card}+T{i}" for i in range(tiles))]


def others() -> list[str]:
    return [*card_options("A1", 3), *card_options("C9", 2), "newhand"]


@pytest.mark.parametrize("size", [SELECT_OPTIONS + 1, 2 * SELECT_OPTIONS + 3,
                                  SELECT_OPTIONS * (ROWS - 1)])
def test_a_group_of_more_than_25_options_is_cut_into_selects_of_25(size: int) -> None:
    group = card_options("B16", size - 2)
    assert len(group) == size
    texts = [*others()[:5], *group, *others()[5:]]
    top = plan(texts, table=TABLE, version=VERSION)
    assert [g.key for part in top.groups for g in part] == ["A1", "B16", "C9", "newhand"]
    inside = plan_group(texts, "B16", table=TABLE, version=VERSION)
    assert not inside.buttons and not inside.groups and not inside.typed_only
    expected = [tuple(group[i:i + SELECT_OPTIONS]) for i in range(0, size, SELECT_OPTIONS)]
    assert list(inside.selects) == expected
    assert len(inside.selects) <= ROWS - 1  # one row stays for Back


def test_a_group_too_big_for_the_rows_beside_back_is_typed() -> None:
    group = card_options("B16", SELECT_OPTIONS * (ROWS - 1) + 1 - 2)
    assert len(group) == SELECT_OPTIONS * (ROWS - 1) + 1
    inside = plan_group([*others(), *group], "B16", table=TABLE, version=VERSION)
    assert inside.typed_only and inside.empty


@pytest.mark.parametrize(("size", "kind"), [(MAX_BUTTONS, "buttons"),
                                            (MAX_BUTTONS + 1, "one select"),
                                            (SELECT_OPTIONS, "one select")])
def test_a_group_of_25_or_fewer_is_buttons_or_one_select(size: int, kind: str) -> None:
    group = card_options("B16", size - 2)
    inside = plan_group([*others(), *group], "B16", table=TABLE, version=VERSION)
    if kind == "buttons":
        assert inside.buttons == tuple(group) and not inside.selects
    else:
        assert inside.selects == (tuple(group),) and not inside.buttons


async def test_the_chunked_group_view_fits_discord_with_back_on_its_own_row() -> None:
    size = 3 * SELECT_OPTIONS + 7
    group = card_options("B16", size - 2)
    inside = plan_group([*others(), *group], "B16", table=TABLE, version=VERSION)
    labels = Labels(join="Join", leave="Leave", bot="Bot", start="Start", hand="Hand",
                    back="Back", choose="Choose", choose_group="Choose a card",
                    group_count="{n} options")
    view = components.menu_view(inside, TABLE, VERSION, labels, back=True)
    assert view is not None
    rows = view.to_components()  # what Discord receives: one action row each
    assert len(rows) == ROWS
    children = [row["components"] for row in rows]
    assert all(len(row) == 1 for row in children)
    selects, (back,) = [row[0] for row in children[:-1]], children[-1]
    assert [len(s["options"]) for s in selects] == [25, 25, 25, 7]
    assert [o["value"] for s in selects for o in s["options"]] == group
    assert [s["custom_id"] for s in selects] == [ids.action_select(TABLE, VERSION, part)
                                                 for part in range(4)]
    assert back["custom_id"] == ids.back(TABLE, VERSION)


def test_two_groups_of_more_than_25_options_are_a_select_of_two_groups() -> None:
    texts = [*card_options("B16", 15), *card_options("R7", 13)]
    assert len(texts) > SELECT_OPTIONS
    top = plan(texts, table=TABLE, version=VERSION)
    assert not top.selects and not top.buttons
    assert [[g.key for g in part] for part in top.groups] == [["B16", "R7"]]
    assert [len(g.texts) for g in top.groups[0]] == [17, 15]


def test_a_short_label_whose_custom_id_is_too_long_is_no_button() -> None:
    # A button's custom id carries the table, the version and the text: big ids make a
    # label of 75 characters too long for Discord's 100-character custom id.
    table, version, text = 10**12, 10**6, "x" * 75
    assert len(text) <= 80 and len(ids.action(table, version, text)) > 100
    menu = plan([text, "b"], table=table, version=version)
    assert not menu.buttons and menu.selects == ((text, "b"),)
    fits = plan([text, "b"], table=TABLE, version=VERSION)
    assert fits.buttons == (text, "b")
