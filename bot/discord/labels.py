"""Button labels and select placeholders, from the templates of a locale."""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord.limits import LABEL_CHARS, PLACEHOLDER_CHARS, truncate
from bot.service.levels import LEVELS
from bot.text import Renderer


@dataclass(frozen=True)
class Labels:
    join: str
    leave: str
    bot: str
    start: str
    hand: str
    back: str
    choose: str  # placeholder of a select of actions
    choose_group: str  # placeholder of a select of groups
    group_count: str  # description of a group, "{n}" for the number of its options
    bot_level: str = "Add a bot of another level…"  # placeholder of the lobby's select
    # (level, label) of each option of that select
    bot_levels: tuple[tuple[str, str], ...] = (("easy", "easy"), ("normal", "normal"),
                                               ("hard", "hard"))


def load_labels(renderer: Renderer, locale: str) -> Labels:
    def say(name: str, limit: int = LABEL_CHARS) -> str:
        return truncate(renderer.render_template(f"discord/{name}", {}, locale=locale), limit)

    return Labels(
        join=say("button_join"), leave=say("button_leave"), bot=say("button_bot"),
        start=say("button_start"), hand=say("button_hand"), back=say("button_back"),
        choose=say("select_choose", PLACEHOLDER_CHARS),
        choose_group=say("select_choose_group", PLACEHOLDER_CHARS),
        group_count=say("select_group_count"),
        bot_level=say("select_bot_level", PLACEHOLDER_CHARS),
        bot_levels=tuple((level, truncate(renderer.render_template(
            "discord/bot_level_option", {"level": level}, locale=locale), LABEL_CHARS))
            for level in LEVELS),
    )
