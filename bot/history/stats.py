"""Statistics from a server's result rows (pure): a member's record, the leaderboard of
a game, the list of their last tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.history.ratings import Rating, Result

MIN_GAMES = 3  # fewer rated games: listed apart on the leaderboard, as provisional


@dataclass(frozen=True)
class PlayerStats:
    player: str
    name: str
    games: int
    wins: int
    average: float | None
    best: int | None
    favourite: str | None
    longest_table: int | None
    longest_seconds: float
    longest_moves: int

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0


def player_stats(results: Sequence[Result], player: str,
                 game: str | None = None) -> PlayerStats:
    """``results`` may hold other players' rows (a table's every row): only ``player``'s,
    of ``game`` when given, count. A shared first place is a win."""
    mine = [r for r in results if r.player == player and (game is None or r.game == game)]
    if not mine:
        return PlayerStats(player, player, 0, 0, None, None, None, None, 0.0, 0)
    longest = max(mine, key=lambda r: (r.finished_at - r.started_at, r.table_id))
    favourite = Counter(r.game for r in mine).most_common()
    top = max(n for _, n in favourite)
    return PlayerStats(
        player=player, name=mine[0].name, games=len(mine),
        wins=sum(1 for r in mine if r.won),
        average=sum(r.score for r in mine) / len(mine), best=max(r.score for r in mine),
        favourite=min(g for g, n in favourite if n == top),
        longest_table=longest.table_id,
        longest_seconds=longest.finished_at - longest.started_at,
        longest_moves=longest.versions - 1)


def leaderboard(ratings: Sequence[Rating]) -> tuple[list[Rating], list[Rating]]:
    """The ranked players (by mu - 3 sigma) and those with too few games, apart."""
    ordered = sorted(ratings, key=lambda r: (-r.ordinal, r.player))
    return ([r for r in ordered if r.games >= MIN_GAMES],
            [r for r in ordered if r.games < MIN_GAMES])


def rating_points(results: Sequence[Result], player: str,
                  game: str) -> list[tuple[float, float]]:
    """The player's rating (mu, sigma) before their first rated table of ``game``, then
    after each, oldest first."""
    rows = sorted((r for r in results if r.player == player and r.game == game
                   and r.mu is not None and r.sigma is not None
                   and r.mu_before is not None and r.sigma_before is not None),
                  key=lambda r: (r.finished_at, r.table_id))
    if not rows:
        return []
    first = rows[0]
    return [(float(first.mu_before or 0.0), float(first.sigma_before or 0.0))] + [
        (float(r.mu or 0.0), float(r.sigma or 0.0)) for r in rows]


def tables_of(results: Sequence[Result]) -> list[list[Result]]:
    """Rows grouped by table, in the order given (newest first from the store)."""
    groups: dict[int, list[Result]] = {}
    for r in results:
        groups.setdefault(r.table_id, []).append(r)
    return [sorted(rows, key=lambda r: (r.rank, r.slot)) for rows in groups.values()]


def leaderboard_rows(ratings: Sequence[Rating]) -> tuple[list[dict[str, Any]],
                                                          list[dict[str, Any]]]:
    """``leaderboard`` as the templates read it (``history/leaderboard.txt``,
    ``cli/ratings.txt``): the ranked rows with their place, and those apart."""
    ranked, provisional = leaderboard(ratings)
    rows = [{"place": i + 1, "name": r.name, "is_bot": r.is_bot, "mu": r.mu,
             "sigma": r.sigma, "ordinal": r.ordinal, "games": r.games}
            for i, r in enumerate(ranked)]
    apart = [{"name": r.name, "is_bot": r.is_bot, "games": r.games} for r in provisional]
    return rows, apart
