"""Ratings, per server and per game, with OpenSkill's Plackett-Luce model. Pure: the
store calls ``settle`` inside the transaction that finishes a table (and again, table
by table, when the ratings are rebuilt), so the same inputs give the same numbers.

Who is rated: every competitor in the outcome. A human is their Discord id; a bot seat
is ``bot:<ai_kind>`` and a solitaire automaton ``bot:<its name>`` (``bot:hal``), both
marked as bots, so a player can measure themselves against ``bot:greedy``.

What is not rated (the table is still listed in the history, marked unrated): an
aborted table (never ``finished``), a table with fewer than two competitors, and a table
where a human seat's decisions were mostly made for it by the timeout AI: more than
``TIMEOUT_SHARE`` (a half) of the actions logged for that seat came from a timeout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from openskill.models import PlackettLuce

if TYPE_CHECKING:  # the store imports this module: no import of the store at run time
    from bot.store.records import ActionRecord, SeatRecord, TableRecord

TIMEOUT_SHARE: Final = 0.5
NO_GUILD: Final = ""  # a table played outside any server (the console)
BOT_PREFIX: Final = "bot:"
_MODEL: Final = PlackettLuce()
MU: Final = float(_MODEL.mu)
SIGMA: Final = float(_MODEL.sigma)


@dataclass(frozen=True)
class Competitor:
    """One standing of a finished table. ``slot`` is the seat, or -1, -2 ... for an
    automaton (which has no seat)."""

    slot: int
    player: str
    name: str
    is_bot: bool
    rank: int
    score: int


@dataclass(frozen=True)
class RatedGame:
    """What a finished table contributes to the history, before any rating is read."""

    table_id: int
    guild_id: str
    game: str
    finished_at: float
    started_at: float
    versions: int
    competitors: tuple[Competitor, ...]


@dataclass(frozen=True)
class Rating:
    player: str
    name: str
    is_bot: bool
    mu: float
    sigma: float
    games: int
    updated_at: float = 0.0

    @property
    def ordinal(self) -> float:
        """The conservative estimate (mu - 3 sigma) leaderboards sort by."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Result:
    """One competitor's row of the history; the ratings are None when unrated."""

    table_id: int
    slot: int
    guild_id: str
    game: str
    player: str
    name: str
    is_bot: bool
    rank: int
    score: int
    finished_at: float
    started_at: float
    versions: int
    unrated: str | None = None  # why the table was not rated
    mu_before: float | None = None
    sigma_before: float | None = None
    mu: float | None = None
    sigma: float | None = None

    @property
    def won(self) -> bool:
        return self.rank == 1


@dataclass(frozen=True)
class Settlement:
    results: tuple[Result, ...]
    ratings: tuple[Rating, ...]  # the new ratings of the players rated (empty if unrated)


def bot_identity(seat: SeatRecord) -> str:
    return BOT_PREFIX + (seat.ai_kind or "greedy")


def rated_game(before: TableRecord, after: TableRecord, seats: Sequence[SeatRecord],
               action: ActionRecord | None) -> RatedGame | None:
    """The history entry a write owes: only when it finishes the table."""
    if after.status != "finished" or before.status == "finished":
        return None
    at = action.at if action is not None else after.updated_at
    return game_of(after, seats, at)


def game_of(table: TableRecord, seats: Sequence[SeatRecord],
            finished_at: float) -> RatedGame | None:
    """A finished table's entry (None without an outcome)."""
    if table.outcome is None:
        return None
    competitors = []
    automata = 0
    for standing in table.outcome.get("standings", []):
        seat_number = standing.get("seat")
        name = str(standing.get("name", "?"))
        if seat_number is None:
            automata += 1
            slot, player, is_bot = -automata, BOT_PREFIX + name.lower(), True
        else:
            seat = seats[seat_number]
            slot, name = seat.seat, seat.name
            if seat.is_bot or seat.user_id is None:
                player, is_bot = bot_identity(seat), True
            else:
                player, is_bot = seat.user_id, False
        competitors.append(Competitor(slot, player, name, is_bot, int(standing["rank"]),
                                      int(standing["total"])))
    return RatedGame(table.id, table.guild_id or NO_GUILD, table.game, finished_at,
                     table.created_at, table.version, tuple(competitors))


def why_unrated(game: RatedGame,
                decisions: Mapping[int, Mapping[str, int]]) -> str | None:
    """``decisions``: per seat, how many logged actions came from each source."""
    if len(game.competitors) < 2:
        return "alone"
    for c in game.competitors:
        if c.is_bot or c.slot < 0:
            continue
        counts = decisions.get(c.slot, {})
        total = sum(counts.values())
        if total and counts.get("timeout", 0) > TIMEOUT_SHARE * total:
            return "timeout"
    return None


def settle(game: RatedGame, decisions: Mapping[int, Mapping[str, int]],
           current: Mapping[str, Rating]) -> Settlement:
    """The history rows of ``game`` and the players' new ratings. ``current`` holds the
    players' ratings in this server and game (a newcomer starts at the model's prior).

    A bot kind may hold several seats of one table: each seat is rated as its own team
    from the kind's rating, and the kind's new rating is the mean of its seats' (its
    games count goes up by one)."""
    reason = why_unrated(game, decisions)
    if reason is not None:
        return Settlement(tuple(_result(game, c, reason) for c in game.competitors), ())
    priors = {c.player: current.get(c.player) for c in game.competitors}
    teams = [[_MODEL.rating(mu=_prior(priors[c.player]).mu,
                            sigma=_prior(priors[c.player]).sigma, name=c.player)]
             for c in game.competitors]
    rated = _MODEL.rate(teams, ranks=[float(c.rank) for c in game.competitors])
    after: dict[str, list[tuple[float, float]]] = {}
    rows: list[Result] = []
    for c, team in zip(game.competitors, rated, strict=True):
        mu, sigma = float(team[0].mu), float(team[0].sigma)
        after.setdefault(c.player, []).append((mu, sigma))
        before = _prior(priors[c.player])
        rows.append(_result(game, c, None, before.mu, before.sigma, mu, sigma))
    ratings: list[Rating] = []
    for c in game.competitors:
        if c.player in {r.player for r in ratings}:
            continue
        pairs = after[c.player]
        old = priors[c.player]
        # A bot's rating is its kind's, whatever each seat was called.
        name = c.player.removeprefix(BOT_PREFIX) if c.is_bot else c.name
        ratings.append(Rating(
            c.player, name, c.is_bot, sum(p[0] for p in pairs) / len(pairs),
            sum(p[1] for p in pairs) / len(pairs), (old.games if old else 0) + 1,
            game.finished_at))
    return Settlement(tuple(rows), tuple(ratings))


@dataclass(frozen=True)
class _Prior:
    mu: float
    sigma: float


def _prior(rating: Rating | None) -> _Prior:
    return _Prior(MU, SIGMA) if rating is None else _Prior(rating.mu, rating.sigma)


def _result(game: RatedGame, c: Competitor, unrated: str | None,
            mu_before: float | None = None, sigma_before: float | None = None,
            mu: float | None = None, sigma: float | None = None) -> Result:
    return Result(game.table_id, c.slot, game.guild_id, game.game, c.player, c.name,
                  c.is_bot, c.rank, c.score, game.finished_at, game.started_at, game.versions,
                  unrated, mu_before, sigma_before, mu, sigma)


def result_to_json(r: Result) -> dict[str, Any]:
    return {k: getattr(r, k) for k in Result.__dataclass_fields__}
