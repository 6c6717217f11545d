"""Which process owns which tables' deadlines, reminders, bot turns and outbox.

Alone on a database (SQLite, or one process on PostgreSQL) a process owns every table
and nothing is asked of the database: ``TableLeases.solo()``. When several processes
share one PostgreSQL, the tables are spread over ``BUCKETS`` buckets (``table_id %
BUCKETS``), each a lease in the database (``bot.store.leases``): a process plans jobs,
resumes bots and sends the outbox only for the tables of the buckets it holds, so two
processes never fire the same deadline nor send the same in-doubt message.

Every process also holds a ``member:<owner>`` lease, its heartbeat: the live members are
counted, and each one takes buckets up to its fair share and gives back what it holds
beyond it, so a new process gets work and a dead one's buckets are taken over once
their leases have expired (within ``ttl`` seconds). Losing a lease is never unsafe:
every table write is conditional on the version it read, so a paused process that
fires a deadline anyway loses that write.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from bot.store import Store

log = logging.getLogger(__name__)

BUCKETS = 64
TTL_SECONDS = 30.0  # a dead process's tables are taken over within this
MEMBER = "member:"
BUCKET = "bucket:"


def bucket_of(table_id: int, buckets: int = BUCKETS) -> int:
    return table_id % buckets


def bucket_name(bucket: int) -> str:
    return f"{BUCKET}{bucket}"


def fair_share(buckets: int, members: list[str], me: str) -> int:
    """How many buckets ``me`` should hold: the even split, and one more for the first
    ``buckets % len(members)`` members in name order, so that every member computes the
    same shares and the shares differ by one at most (a ceiling for everyone would leave
    the last member short: 22, 22 and 20 of 64)."""
    if not members:
        return buckets
    base, extra = divmod(buckets, len(members))
    rank = members.index(me) if me in members else len(members)
    return base + (1 if rank < extra else 0)


@dataclass(frozen=True)
class Change:
    """What a refresh changed: buckets gained (their jobs to plan) and lost (to cancel)."""
    gained: frozenset[int]
    lost: frozenset[int]


@dataclass
class TableLeases:
    owner: str | None  # None: alone on the database, every table is ours
    buckets: int = BUCKETS
    ttl: float = TTL_SECONDS
    held: set[int] = field(default_factory=set)
    valid_until: float = 0.0  # our leases hold until then (our clock, when we renewed)

    @classmethod
    def solo(cls) -> TableLeases:
        return cls(None)

    @property
    def shared(self) -> bool:
        return self.owner is not None

    @property
    def period(self) -> float:
        """How often to refresh: three chances to renew before a lease expires."""
        return self.ttl / 3

    def owns(self, table_id: int, now: float | None = None) -> bool:
        """Whether this process acts for the table; with ``now``, also whether the lease
        is still safely ours (a job about to act asks this)."""
        if self.owner is None:
            return True
        if now is not None and now >= self.valid_until:
            return False
        return bucket_of(table_id, self.buckets) in self.held

    async def refresh(self, store: Store, now: float) -> Change:
        """Renew what we hold, take free or expired buckets up to our fair share, give
        back what is beyond it."""
        if self.owner is None:
            return Change(frozenset(), frozenset())
        before = set(self.held)
        renewed = set(await store.renew_leases(self.owner, now, self.ttl))
        member = f"{MEMBER}{self.owner}"
        if member not in renewed:
            await store.acquire_lease(member, self.owner, now, self.ttl)
        held = {int(n[len(BUCKET):]) for n in renewed if n.startswith(BUCKET)}
        all_leases = await store.load_leases()
        names = sorted(lease.name for lease in all_leases
                       if lease.name.startswith(MEMBER) and lease.held_at(now))
        members = len(names) or 1
        share = fair_share(self.buckets, names, member)
        taken = {int(lease.name[len(BUCKET):]) for lease in all_leases
                 if lease.name.startswith(BUCKET) and lease.held_at(now)
                 and lease.owner != self.owner}
        for bucket in range(self.buckets):
            if len(held) >= share:
                break
            if bucket in held or bucket in taken:
                continue
            got = await store.acquire_lease(bucket_name(bucket), self.owner, now, self.ttl)
            if got is not None and got.owner == self.owner:
                held.add(bucket)
        surplus = sorted(held)[share:] if len(held) > share else []
        if surplus:
            await store.release_leases(self.owner, now, [bucket_name(b) for b in surplus])
            held -= set(surplus)
        self.held = held
        self.valid_until = now + self.ttl
        change = Change(frozenset(held - before), frozenset(before - held))
        if change.gained or change.lost:
            log.info("leases of %s: %d buckets (+%d -%d), %d members", self.owner, len(held),
                     len(change.gained), len(change.lost), members)
        return change

    async def release_all(self, store: Store, now: float) -> None:
        """At a clean shutdown: the others take our tables at once, not after ``ttl``."""
        if self.owner is not None:
            await store.release_leases(self.owner, now, None)
            self.held.clear()
            self.valid_until = 0.0
