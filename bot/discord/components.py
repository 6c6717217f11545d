"""Buttons and selects as ``discord.ui.DynamicItem``: each one is rebuilt from its
``custom_id`` when clicked (see ``ids``), so a view holds no game state and a restart
loses no button. Each item's ``callback`` does what its click does, finding the
``Frontend`` at click time (``frontend_of``), as RoboDanny's buttons find their cog.

Every click acknowledges the interaction first (Discord allows three seconds; a move may
trigger bot moves and rendering), then asks the service, which alone decides who may do
what: a refusal comes back as a polite ephemeral message and leaves the table as it was.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.discord import ids, menus
from bot.discord.frontend import BRIEF_DECISION, Frontend, Outgoing, frontend_of
from bot.discord.labels import Labels
from bot.discord.limits import BUTTONS_PER_ROW, LABEL_CHARS, truncate
from bot.discord.livemenus import MenuOf, is_answer, may_show_menu
from bot.discord.menus import MenuPlan
from bot.service import Actor, FileSpec, Prompt, Refused

log = logging.getLogger(__name__)

Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]


class ActionButton(discord.ui.DynamicItem[Button], template=ids.ACTION):
    def __init__(self, table: int, version: int, text: str, *, row: int | None = None,
                 note: str | None = None) -> None:
        # The note only labels the button: the custom id, and so the click, is the text.
        label = f"{text} ({note})" if note else text
        super().__init__(discord.ui.Button(
            label=truncate(label, LABEL_CHARS), style=discord.ButtonStyle.primary,
            custom_id=ids.action(table, version, text)), row=row)
        self.table, self.version, self.text = table, version, text

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionButton:
        return cls(int(match["table"]), int(match["version"]), match["text"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await play(interaction, self.table, self.version, self.text)


class ActionSelect(discord.ui.DynamicItem[Select], template=ids.ACTION_SELECT):
    def __init__(self, table: int, version: int, part: int, texts: tuple[str, ...] = (),
                 *, placeholder: str | None = None, row: int | None = None,
                 notes: Mapping[str, str] | None = None) -> None:
        notes = notes or {}
        options = [discord.SelectOption(
            label=truncate(t, LABEL_CHARS), value=t,
            description=truncate(notes[t], LABEL_CHARS) if t in notes else None)
            for t in texts]
        super().__init__(discord.ui.Select(
            custom_id=ids.action_select(table, version, part), options=options,
            placeholder=placeholder, min_values=1, max_values=1), row=row)
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionSelect:
        return cls(int(match["table"]), int(match["version"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if values:
            await play(interaction, self.table, self.version, values[0])


class GroupSelect(discord.ui.DynamicItem[Select], template=ids.GROUP_SELECT):
    def __init__(self, table: int, version: int, part: int,
                 groups: tuple[tuple[str, int], ...] = (), *, labels: Labels | None = None,
                 row: int | None = None) -> None:
        options = [
            discord.SelectOption(
                label=truncate(key, LABEL_CHARS), value=key,
                description=labels.group_count.replace("{n}", str(n)) if labels else None)
            for key, n in groups
        ]
        super().__init__(discord.ui.Select(
            custom_id=ids.group_select(table, version, part), options=options,
            placeholder=labels.choose_group if labels else None, min_values=1, max_values=1),
            row=row)
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> GroupSelect:
        return cls(int(match["table"]), int(match["version"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if values:
            await open_group(interaction, self.table, self.version, values[0])


class BackButton(discord.ui.DynamicItem[Button], template=ids.BACK):
    def __init__(self, table: int, version: int, *, label: str = "Back",
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, custom_id=ids.back(table, version)),
            row=row)
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BackButton:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await back_to_menu(interaction, self.table, self.version)


class HandButton(discord.ui.DynamicItem[Button], template=ids.HAND):
    def __init__(self, table: int, *, label: str = "My hand") -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, custom_id=ids.hand(table)))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HandButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await show_hand(interaction, self.table)


_LOBBY_STYLES = {
    "join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
    "bot": discord.ButtonStyle.secondary, "start": discord.ButtonStyle.primary,
}


class LobbyButton(discord.ui.DynamicItem[Button], template=ids.LOBBY):
    def __init__(self, verb: str, table: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or verb, style=_LOBBY_STYLES[verb], custom_id=ids.lobby(verb, table)))
        self.verb, self.table = verb, table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        return cls(match["verb"], int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await lobby(interaction, self.verb, self.table)


class LobbyBotSelect(discord.ui.DynamicItem[Select], template=ids.LOBBY_BOT):
    """Adds a bot of the level chosen (the lobby's bot button adds one at the table's)."""

    def __init__(self, table: int, *, labels: Labels | None = None, row: int | None = None
                 ) -> None:
        options = [discord.SelectOption(label=label, value=level)
                   for level, label in (labels.bot_levels if labels else ())]
        super().__init__(discord.ui.Select(
            custom_id=ids.lobby_bot(table), options=options or [
                discord.SelectOption(label="-", value="-")],
            placeholder=labels.bot_level if labels else None, min_values=1, max_values=1),
            row=row)
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyBotSelect:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if values:
            await lobby(interaction, "bot", self.table, level=values[0])


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActionButton, ActionSelect, GroupSelect, BackButton, HandButton, LobbyButton,
    LobbyBotSelect,
)


def menu_view(plan: MenuPlan, table: int, version: int, labels: Labels, *,
              back: bool = False, notes: Mapping[str, str] | None = None
              ) -> discord.ui.View | None:
    """The components of ``plan``; None when there is nothing to click. ``notes``: the
    words of an option's note, by its text (``option_notes``)."""
    notes = notes or {}
    if plan.empty and not back:
        return None
    view = discord.ui.View(timeout=None)
    row = 0
    for i, text in enumerate(plan.buttons):
        row = i // BUTTONS_PER_ROW
        view.add_item(ActionButton(table, version, text, row=row, note=notes.get(text)))
    if plan.buttons:
        row += 1
    for part, texts in enumerate(plan.selects):
        view.add_item(ActionSelect(table, version, part, texts, placeholder=labels.choose,
                                   row=row, notes=notes))
        row += 1
    for part, groups in enumerate(plan.groups):
        counts = tuple((g.key, len(g.texts)) for g in groups)
        view.add_item(GroupSelect(table, version, part, counts, labels=labels, row=row))
        row += 1
    if back:
        view.add_item(BackButton(table, version, label=labels.back, row=min(row, 4)))
    return view


def lobby_view(table: int, labels: Labels) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb, label in (("join", labels.join), ("leave", labels.leave), ("bot", labels.bot),
                        ("start", labels.start)):
        view.add_item(LobbyButton(verb, table, label=label))
    view.add_item(LobbyBotSelect(table, labels=labels, row=1))
    return view


def hand_view(table: int, labels: Labels) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(table, label=labels.hand))
    return view


def option_notes(fe: Frontend, options: Sequence[Mapping[str, Any] | Any], locale: str,
                 game: str | None) -> dict[str, str]:
    """The words of each option's note (a take that takes nothing...), by the option's
    text, from the game's ``option_note`` template: a game adds notes without bot code."""
    notes = {}
    for o in options:
        text, key = (o["text"], o.get("note")) if isinstance(o, Mapping) else (o.text, o.note)
        if key:
            notes[text] = fe.renderer.render_template("option_note", {"note": key},
                                                      locale=locale, game=game)
    return notes


def menu(fe: Frontend, table: int, version: int, options: Sequence[Mapping[str, Any] | Any],
         locale: str, game: str | None = None) -> discord.ui.View | None:
    """The buttons and selects for a seat's options (``Option`` values or their JSON)."""
    texts = [o["text"] if isinstance(o, Mapping) else o.text for o in options]
    plan = menus.plan(texts, table=table, version=version)
    return menu_view(plan, table, version, fe.labels(locale),
                     notes=option_notes(fe, options, locale, game))


def menu_from_context(fe: Frontend, context: Mapping[str, Any], table: int,
                      locale: str) -> discord.ui.View | None:
    """A menu for a notification or refusal that carries ``options``: a decision's
    notes (your turn, reminder, submitted, hand) and stale/illegal refusals."""
    options = context.get("options") or []
    version = context.get("prompt_version")
    if not options or version is None or context.get("decision", True) is None:
        return None
    game = context.get("game")
    return menu(fe, table, int(version), options, locale, game if isinstance(game, str) else None)


async def hand_message(fe: Frontend, table_id: int, actor: Actor, *,
                       brief: bool = False) -> Outgoing:
    """The seat's private situation, image and menu. ``brief``: the decision as its DM
    says it (what to do, above the menu); else the whole text (/hand: the hand in words,
    how to type each move), which is where the DM sends those who read it."""
    note = await fe.service.hand(table_id, actor)
    ctx = note.context
    long_text = "your_turn" if ctx.get("decision") else "discord/hand"
    template = BRIEF_DECISION if brief and ctx.get("decision") else long_text
    content = fe.renderer.render_template(template, ctx, locale=note.locale,
                                          game=note.game, fallback="hand")
    info = await fe.service.info(table_id)
    image = await fe.image_for(note.game, FileSpec("board", note.seat), ctx.get("view"),
                               info)
    view = menu_from_context(fe, ctx, table_id, note.locale)
    return Outgoing(content, image, view,
                    fe.menu_of(ctx, table_id, note.seat) if view is not None else None)


def refusal_message(fe: Frontend, exc: Refused, locale: str, game: str | None,
                    table: int | None, seat: int | None) -> Outgoing:
    """The refusal's words, and the menu of ``seat``'s current options when it has
    them (tracked, so it is closed with that decision)."""
    view = None if table is None else menu_from_context(fe, exc.context, table, locale)
    return fe.refusal_message(exc, locale, game, table, seat, view)


async def refuse(fe: Frontend, interaction: discord.Interaction[Any], exc: Refused, *,
                 locale: str, game: str | None = None, table: int | None = None) -> None:
    """A polite no, with the current options as a fresh menu when the refusal has them
    (a stale button shows what can be done now)."""
    view = None if table is None else menu_from_context(fe, exc.context, table, locale)
    await fe.refuse(interaction, exc, locale=locale, game=game, table=table, view=view)


# ---------------------------------------------------------------- what a click does


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
        await refuse(fe, interaction, exc, locale=locale, game=game, table=table)
        return
    await _answer_in_place(interaction, fe, table, result.next_in_place, result.text,
                           locale=locale, game=game, shown=_shown_version(clicked, table, version),
                           note=result.note)


async def _answer_in_place(interaction: discord.Interaction[Any], fe: Frontend, table: int,
                           next_here: bool, text: str, *, locale: str,
                           game: str | None, shown: int, note: str | None = None) -> None:
    """Say what was chosen in the clicked message itself (an answer to the click costs
    no message), and show there what comes next for the player right away: a pick that
    may still change, or their next decision (a refill's next step, a turn's next
    action, the next round) with its new picture, which the service then did not send
    as a message (``next_here``). A decision that comes later comes in a new private
    message, so this one keeps no buttons then: only the newest message of a seat ever
    has live components."""
    chosen = fe.say("chosen", locale, game, text=text, table_id=table, note=note)
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
        kwargs["view"] = menu(fe, table, now.version, now.options, locale, game)
    elif now is not None and now.options and next_here:
        out = await hand_message(fe, table, actor, brief=True)
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
        await refuse(fe, interaction, exc, locale=locale, game=game, table=table)
        return
    texts = [o.text for o in prompt.options]
    if key is None:
        view = menu(fe, table, version, prompt.options, locale, game)
    else:
        plan = menus.plan_group(texts, key, table=table, version=version)
        view = menu_view(plan, table, version, fe.labels(locale), back=True,
                         notes=option_notes(fe, prompt.options, locale, game))
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
        out = await hand_message(fe, table, fe.actor(interaction))
    except Refused as exc:
        await refuse(fe, interaction, exc, locale=locale, game=game)
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
        await refuse(fe, interaction, exc, locale=locale, game=game)


async def unknown_component(interaction: discord.Interaction[Any]) -> None:
    """A ``urb:`` custom id that no component answers to: forged, or from a bot version
    that is gone. Say so rather than let Discord show "interaction failed"."""
    fe = frontend_of(interaction)
    await fe.reply(interaction, fe.say("unknown_button", fe.guild_locale(interaction)))
