"""The parts of a notification made at send time: a seat's view and its legal moves.

An action owes a private message to every seat that decides next and a status to the
table, each showing a view of the state. Made at commit, those views were most of the
CPU of an action and most of the bytes it wrote (the outbox held every rendered view, per
seat, until sent; issue 25). Now the outbox row says which parts it needs (``fill``) and
the version they are of; the delivery worker makes them just before the transport sends,
from the state at that version:

- the live table's state, when the table is still at that version (``current``): the
  common case, a message goes out within moments of its action;
- else a copy of the state at that version kept by ``RecentStates``: the service copies
  the state before an action changes it in place while the table's delivery is still at
  work (bots reply under the lock, before the delivery task runs);
- else read back: the table's snapshot with the log's actions after it replayed, or its
  log replayed from the seed (after a restart, or a long outage of the transport). The
  engine is deterministic, so the replay gives the very state the commit saw.

A notification held back (a round's news: ``defer``) and offered again is made once: its
made parts are kept in a small LRU by (table, version, seat, parts).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.service.decisions import decision_keys
from bot.service.live import LiveTable
from bot.service.notifications import TABLE, Notification
from bot.service.values import Option
from engine.core import Game

VIEW = "view"
OPTIONS = "options"
# The table's facts every notification carries (``names``, ``status``, ``host_id``):
# read from the table as it is when the message goes out, not stored with each row.
TABLE_KEYS = ("names", "status", "host_id")

# (table, version) -> the state's snapshot (canonical JSON), as committed.
StateKey = tuple[int, int]
Loader = Callable[[int, int], Awaitable[tuple[Game[Any], Any] | None]]
FactsLoader = Callable[[int], Awaitable[dict[str, Any] | None]]
# A message's made parts: (table, version, seat, parts).
MadeKey = tuple[int, int, int | None, tuple[str, ...]]
# The live table when its state in memory is the state of that version (no parse).
Current = Callable[[int, int], LiveTable | None]


class RecentStates:
    """Copies of the states of the last versions of the busiest tables, by (table,
    version), taken before an action changed the live state while messages of its
    version may still be unmade; dropped once they are made (``made``). Bounded both
    ways, small: a state is thousands of objects the garbage collector walks, and a
    delivery runs moments after its action; a miss is read back from the database
    (``Filler``). Nothing changes a state once it is here."""

    def __init__(self, tables: int = 64, versions: int = 4) -> None:
        self.tables = tables
        self.versions = versions
        self._items: OrderedDict[int, OrderedDict[int, Any]] = OrderedDict()

    def remember(self, table_id: int, version: int, state: Any) -> None:
        versions = self._items.get(table_id)
        if versions is None:
            versions = self._items[table_id] = OrderedDict()
            while len(self._items) > self.tables:
                self._items.popitem(last=False)
        else:
            self._items.move_to_end(table_id)
        versions[version] = state
        while len(versions) > self.versions:
            versions.popitem(last=False)

    def get(self, table_id: int, version: int) -> Any:
        """The state of that version, or None."""
        versions = self._items.get(table_id)
        return None if versions is None else versions.get(version)

    def made(self, table_id: int, version: int) -> None:
        """The table's messages up to ``version`` are made: their states are not needed."""
        versions = self._items.get(table_id)
        if versions is None:
            return
        for old in [v for v in versions if v <= version]:
            del versions[old]
        if not versions:
            del self._items[table_id]

    def __len__(self) -> int:
        return sum(len(v) for v in self._items.values())


def copy_of(game: Game[Any], state: Any) -> Any:
    """A state equal to ``state`` that shares nothing with it: the engine's own copy
    when its state has one (all four do), else a JSON round trip."""
    copy = getattr(state, "copy", None)
    return copy() if callable(copy) else game.state_from_json(game.state_to_json(state))


def options_of(game: Game[Any], state: Any, seat: int) -> list[Option]:
    """The seat's legal moves as the menu shows them (none when it decides nothing)."""
    if decision_keys(game, state).get(seat) is None:
        return []
    hook = getattr(game, "action_note", None)
    return [Option(a.text(), dict(a.to_json()),
                   hook(state, seat, a) if hook is not None else None)
            for a in game.legal_actions(state, seat)]


def options_at(live: LiveTable, seat: int) -> list[Option]:
    """``options_of`` the live table's state, made once per seat and version: the prompt
    a player asks for and the message that shows the same moves share them."""
    version = live.record.version
    if live.state_at(version) is None:
        return options_of(live.game, live.state, seat)
    if live.menus_version != version:
        live.menus, live.menus_version = {}, version
    menu = live.menus.get(seat)
    if menu is None:
        menu = live.menus[seat] = options_of(live.game, live.state, seat)
    return menu


def made_parts(game: Game[Any], state: Any, seat: int | None, parts: Sequence[str],
               live: LiveTable | None = None) -> dict[str, Any]:
    """The parts of a message to ``seat``; ``live``: the live table ``state`` is of."""
    made: dict[str, Any] = {}
    if VIEW in parts:
        made[VIEW] = game.view(state, seat)
    if OPTIONS in parts and seat is not None:
        moves = options_at(live, seat) if live is not None else options_of(game, state, seat)
        made[OPTIONS] = [o.to_json() for o in moves]
    return made


def with_facts(context: dict[str, Any], facts: dict[str, Any], seat: int | None) -> None:
    context.update((k, facts[k]) for k in TABLE_KEYS if k in facts)
    if "game" in facts:
        context["game"] = facts["game"]
    names = facts.get("names") or []

    def name_of(number: Any) -> str | None:
        return names[number] if isinstance(number, int) and 0 <= number < len(names) else None

    if "name" not in context:
        context["name"] = name_of(seat)
    # The seats a notification names by number are named from the same names.
    if "actor" in context and "actor_name" not in context:
        context["actor_name"] = name_of(context["actor"])
    if isinstance(context.get("waiting"), list):
        context["waiting"] = [{**w, "name": name_of(w.get("seat"))} if "name" not in w else w
                              for w in context["waiting"]]


def filled(note: Notification, game: Game[Any], state: Any,
           facts: dict[str, Any] | None = None) -> Notification:
    """``note`` with its parts made from ``state`` (the state at its version) and the
    table's ``facts``."""
    if not note.fill:
        return note
    context = {**note.context, **made_parts(game, state, note.seat, note.fill)}
    if TABLE in note.fill and facts is not None:
        with_facts(context, facts, note.seat)
    return note.evolve(context=context, fill=())


class Filler:
    """Makes the parts of a batch of notifications, each state parsed once."""

    def __init__(self, recent: RecentStates, get_game: Callable[[str], Game[Any]],
                 load: Loader, facts: FactsLoader, *, current: Current | None = None,
                 memo: int = 512) -> None:
        self.recent = recent
        self.current = current
        self.get_game = get_game
        self.load = load
        self.facts = facts
        self.memo_size = memo
        self._memo: OrderedDict[MadeKey, dict[str, Any]] = OrderedDict()

    async def __call__(self, notes: Sequence[Notification]) -> list[Notification]:
        states: dict[StateKey, tuple[Game[Any], Any] | None] = {}
        facts: dict[int, dict[str, Any] | None] = {}
        out: list[Notification] = []
        made_live: dict[int, tuple[LiveTable, int]] = {}
        made_up_to: dict[int, int] = {}
        batch: dict[MadeKey, dict[str, Any]] = {}
        for n in notes:
            if not n.fill:
                out.append(n)
                continue
            context = dict(n.context)
            if TABLE in n.fill:
                if n.table_id not in facts:
                    facts[n.table_id] = await self.facts(n.table_id)
                told = facts[n.table_id]
                if told is None:
                    raise LookupError(f"table {n.table_id} is not in the database")
                with_facts(context, told, n.seat)
                n = n.evolve(game=told["game"], locale=told["locale"])
            parts = tuple(p for p in n.fill if p != TABLE)
            if parts:
                context.update(await self._made(n, parts, states, made_live, batch))
                made_up_to[n.table_id] = max(n.version, made_up_to.get(n.table_id, -1))
            out.append(n.evolve(context=context, fill=()))
        for live, version in made_live.values():
            live.made_version = version
        for table_id, version in made_up_to.items():
            self.recent.made(table_id, version)
        return out

    async def _made(self, n: Notification, parts: tuple[str, ...],
                    states: dict[StateKey, tuple[Game[Any], Any] | None],
                    made_live: dict[int, tuple[LiveTable, int]],
                    batch: dict[MadeKey, dict[str, Any]]) -> dict[str, Any]:
        key = (n.table_id, n.version, n.seat, parts)
        made = batch.get(key)
        if made is None and n.defer:
            made = self._memo.get(key)
            if made is not None:
                self._memo.move_to_end(key)
        if made is not None:
            return made
        live = self.current(n.table_id, n.version) if self.current is not None else None
        if live is not None:
            # Made at once, with no await between: the table's next action changes this
            # state in place.
            made = made_parts(live.game, live.state, n.seat, parts, live)
            made_live[n.table_id] = (live, n.version)
        else:
            where = (n.table_id, n.version)
            if where not in states:
                states[where] = await self._state(n)
            found = states[where]
            if found is None:
                raise LookupError(f"table {n.table_id} has no state at v{n.version}")
            game, state = found
            made = made_parts(game, state, n.seat, parts)
        batch[key] = made
        if n.defer:
            self._kept(key, made)
        return made

    def _kept(self, key: MadeKey, made: dict[str, Any]) -> None:
        # Only what a transport may hold and offered again (``defer``: a round's news)
        # is kept past its batch: every view kept is many objects that live on, and a
        # young generation of them, old ones freed as new ones come, grows past the
        # collector's threshold unnoticed (40 ms collections).
        self._memo[key] = made
        while len(self._memo) > self.memo_size:
            self._memo.popitem(last=False)

    async def _state(self, note: Notification) -> tuple[Game[Any], Any] | None:
        state = self.recent.get(note.table_id, note.version)
        if state is not None:
            return self.get_game(note.game), state
        return await self.load(note.table_id, note.version)
