"""What a click does. Every handler acknowledges the interaction first (Discord allows
three seconds; a move may trigger bot moves and rendering), then asks the service, which
alone decides who may do what: a refusal comes back as a polite ephemeral message and
leaves the table as it was."""

from __future__ import annotations

import functools
import logging
from typing import Any

import discord

from bot.discord import components, ids, menus
from bot.discord.frontend import Frontend, frontend_of
from bot.discord.limits import truncate
from bot.discord.livemenus import MenuOf, is_answer, may_show_menu
from bot.service import Prompt, Refused

log = logging.getLogger(__name__)


async def _where(fe: Frontend, table: int,
                 interaction: discord.Interaction[Any]) -> tuple[str, str | None]:
    """The table's locale and game, for the words of the answer."""
    try:
        info = await fe.service.info(table)
    except Refused:
        return fe.guild_locale(interaction), None
    return info.locale, info.game


def _moved_on(prompt: Prompt, version: int) -> Refused | None:
    """The same refusal the service gives a stale move, for menu navigation (which is not a
    move, so the service never sees it)."""
    if prompt.decision is None or not prompt.options:
        return Refused("not_your_turn", "You have nothing to decide right now.")
    if version < prompt.version:
        return Refused("stale", "The table has moved on since this was shown.",
                       given_version=version, prompt_version=prompt.version,
                       options=[o.to_json() for o in prompt.options],
                       legal=[o.text for o in prompt.options])
    return None


def _shown_version(message: discord.Message | None, table: int, default: int) -> int:
    """The version of the menu ``message`` shows (all its components carry the same; a
    forged one aside, so the newest counts)."""
    found = [ids.menu_version(c.custom_id, table)
             for row in (message.components if message is not None else [])
             for c in getattr(row, "children", [row]) if getattr(c, "custom_id", None)]
    return max((v for v in found if v is not None), default=default)


async def _keep_clicked(fe: Frontend, interaction: discord.Interaction[Any], table: int,
                        seat: int, version: int) -> None:
    """The clicked message shows (again, or still) the menu of ``seat``'s decision opened
    at ``version``: tracked, so it is closed with that decision, at once if it is over."""
    message = interaction.message
    if message is None or not may_show_menu(message):
        return
    close = None
    if is_answer(message):
        # An answer to an interaction: only a token edits it, this click's is the newest.
        close = functools.partial(interaction.edit_original_response, view=None)
    await fe.menus.keep(MenuOf(table, seat, version), message, close=close)


async def play(interaction: discord.Interaction[Any], table: int, version: int,
               text: str) -> None:
    """A button or select carrying one action (its text form) built for ``version``."""
    fe = frontend_of(interaction)
    await interaction.response.defer()
    actor = fe.actor(interaction)
    locale, game = await _where(fe, table, interaction)
    clicked = interaction.message
    seat: int | None = None
    try:
        prompt = await fe.service.prompt(table, actor)
        option = next((o for o in prompt.options if o.text == text), None)
        if clicked is not None and may_show_menu(clicked):
            # This message is answered in place below: the delivery worker must not also
            # disable it when the move closes its decision (two edits, in either order).
            await fe.menus.forget(table, clicked)
            seat = prompt.seat
        if option is not None:
            result = await fe.service.act(table, actor, option.json, version=version,
                                          in_place=True)
        else:
            # Not among the current options: the service says why (stale, illegal...).
            result = await fe.service.act_text(table, actor, text, version=version,
                                               in_place=True)
    except Refused as exc:
        if seat is not None:
            # Nothing was played, so nothing answers in the clicked message: it keeps
            # its menu, to close with its decision (now, if the click was stale).
            await _keep_clicked(fe, interaction, table, seat,
                                _shown_version(clicked, table, version))
        await fe.refuse(interaction, exc, locale=locale, game=game, table=table)
        return
    await _answer_in_place(interaction, fe, table, result.next_in_place, result.text,
                           locale=locale, game=game, shown=_shown_version(clicked, table, version))


async def _answer_in_place(interaction: discord.Interaction[Any], fe: Frontend, table: int,
                           next_here: bool, text: str, *, locale: str,
                           game: str | None, shown: int) -> None:
    """Say what was chosen in the clicked message itself (an answer to the click costs
    no message), and show there what comes next for the player right away: a pick that
    may still change, or their next decision (a refill's next step, a turn's next
    action, the next round) with its new picture, which the service then did not send
    as a message (``next_here``). A decision that comes later comes in a new private
    message, so this one keeps no buttons then: only the newest message of a seat ever
    has live components."""
    chosen = fe.say("chosen", locale, game, text=text, table_id=table)
    actor = fe.actor(interaction)
    try:
        now = await fe.service.prompt(table, actor)
    except Refused:
        now = None
    before = interaction.message.content if interaction.message else ""
    kwargs: dict[str, Any] = {"view": None}
    content = f"{before}\n\n{chosen}" if before else chosen
    if now is not None and now.options and now.decision == "changeable":
        content += "\n" + fe.say("chosen_changeable", locale, game, table_id=table)
        kwargs["view"] = fe.menu(table, now.version, now.options, locale)
    elif now is not None and now.options and next_here:
        out = await fe.hand_message(table, actor)
        content = f"{chosen}\n\n{out.content}"
        kwargs["view"] = out.view
        file = out.file()
        if file is not None:
            kwargs["attachments"] = [file]
    try:
        await interaction.edit_original_response(content=truncate(content), **kwargs)
    except discord.HTTPException:
        log.warning("table %d: could not mark the menu as used", table)
        if now is not None:
            # It still shows the menu that was clicked, whose decision just closed.
            await _keep_clicked(fe, interaction, table, now.seat, shown)
        return
    if now is not None and kwargs["view"] is not None:
        await _keep_clicked(fe, interaction, table, now.seat, now.version)


async def _navigate(interaction: discord.Interaction[Any], table: int, version: int,
                    key: str | None) -> None:
    fe = frontend_of(interaction)
    await interaction.response.defer()
    actor = fe.actor(interaction)
    locale, game = await _where(fe, table, interaction)
    try:
        prompt = await fe.service.prompt(table, actor)
        problem = _moved_on(prompt, version)
        if problem is not None:
            # The clicked menu is for a closed decision: closed, if nothing closed it yet.
            await _keep_clicked(fe, interaction, table, prompt.seat,
                                _shown_version(interaction.message, table, version))
            raise problem
    except Refused as exc:
        await fe.refuse(interaction, exc, locale=locale, game=game, table=table)
        return
    texts = [o.text for o in prompt.options]
    if key is None:
        view = fe.menu(table, version, prompt.options, locale)
    else:
        plan = menus.plan_group(texts, key, table=table, version=version)
        view = components.menu_view(plan, table, version, fe.labels(locale), back=True)
    await interaction.edit_original_response(view=view)
    # Tracked again after the edit: a close that ran since the check above took the old
    # record and left this new view live.
    await _keep_clicked(fe, interaction, table, prompt.seat, version)


async def open_group(interaction: discord.Interaction[Any], table: int, version: int,
                     key: str) -> None:
    """A group chosen (a card): the same message now offers that group's actions."""
    await _navigate(interaction, table, version, key)


async def back_to_menu(interaction: discord.Interaction[Any], table: int, version: int) -> None:
    await _navigate(interaction, table, version, None)


async def show_hand(interaction: discord.Interaction[Any], table: int) -> None:
    """The seat's private message, ephemerally: for closed DMs, or a lost DM."""
    fe = frontend_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale, game = await _where(fe, table, interaction)
    try:
        out = await fe.hand_message(table, fe.actor(interaction))
    except Refused as exc:
        await fe.refuse(interaction, exc, locale=locale, game=game)
        return
    await fe.reply(interaction, out)


async def lobby(interaction: discord.Interaction[Any], verb: str, table: int, *,
                level: str | None = None) -> None:
    """The lobby buttons (and the select of a bot's level). Success needs no answer of
    its own: the lobby message itself is edited by the notifications that follow."""
    fe = frontend_of(interaction)
    await interaction.response.defer()
    actor = fe.actor(interaction)
    locale, game = await _where(fe, table, interaction)
    service = fe.service
    try:
        if verb == "join":
            await service.join(table, actor)
        elif verb == "leave":
            await service.leave(table, actor)
        elif verb == "bot":
            await service.add_bot(table, actor, level=level)
        elif verb == "start":
            await service.start(table, actor)
    except Refused as exc:
        await fe.refuse(interaction, exc, locale=locale, game=game)


async def unknown_component(interaction: discord.Interaction[Any]) -> None:
    """A ``urb:`` custom id that no component answers to: forged, or from a bot version
    that is gone. Say so rather than let Discord show "interaction failed"."""
    fe = frontend_of(interaction)
    await fe.reply(interaction, fe.say("unknown_button", fe.guild_locale(interaction)))
