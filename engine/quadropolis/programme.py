"""The dynamic programme of the allocation search (``search``): its tables and how they
combine.

A table maps a bucket, the resources a set of activated buildings uses, to the best
entry there. Both are packed in one integer (issue 25: merging tables is most of a
search's work, and a view asks for the changed city's allocation on the event loop):

- an entry is ``points << shift | buildings << n | preference`` (``Search.pack``; n the
  city's buildings, the preference a bit per building, the first building highest):
  adding two entries of disjoint buildings adds their fields, none carrying into the
  next, and comparing two entries compares (points, buildings activated, preference) in
  that order;
- a bucket is (inhabitants used, energy used, shops activated), a byte each
  (``bucket``). A state of the programme carries an offset besides (``Search.offset``:
  its inhabitants and energy count up from 127 less the budget), so that a sum over the
  budget sets a bit of ``OVER``.
"""

from __future__ import annotations

from engine.quadropolis.scoring import City

Entry = int  # (points, buildings activated, preference); the preference holds the mask
Bucket = int  # (inhabitants used, energy used, shops activated)
Table = dict[Bucket, Entry]
Scored = tuple[Bucket, Entry, int]  # a subset with its entry: bucket, entry, mask

COUNT_BITS = 7  # room for the buildings activated in a packed entry
OVER = 128 << 16 | 128 << 8  # a state's inhabitants or energy over the budget
LOWEST = -(1 << 256)  # below every entry


def bucket(used_i: int, used_e: int, shops: int) -> Bucket:
    return used_i << 16 | used_e << 8 | shops


def unbucket(packed: Bucket) -> tuple[int, int, int]:
    return packed >> 16, packed >> 8 & 255, packed & 255


class Resources:
    """Customers, absorption and penalties for given totals used: all that depends on
    (inhabitants used, energy used, activated shops)."""

    def __init__(self, city: City) -> None:
        self.city = city
        self.cap = city.tables.max_customers
        self.shop_table = city.tables.shop
        self.parks = sum(b.absorbs for b in city.buildings)
        self.spaces = city.spaces
        self.known: dict[Bucket, tuple[int, int, int, int]] = {}

    def customers(self, used_i: int, shops: int) -> int:
        return min(self.city.inhabitants - used_i, self.cap * shops)

    def shop_points(self, customers: int) -> int:
        full, rest = divmod(customers, self.cap)
        return full * self.shop_table[self.cap] + self.shop_table[rest]

    def of(self, packed: Bucket) -> tuple[int, int, int, int]:
        """(points the resources add: customers less penalties, inhabitants placed,
        resources placed, -penalty) for a bucket; the final key is (buildings' points +
        the first, the second, -empty spaces, the third, the fourth)."""
        found = self.known.get(packed)
        if found is None:
            used_i, used_e, shops = unbucket(packed)
            customers = self.customers(used_i, shops)
            unplaced_i = self.city.inhabitants - used_i - customers
            left_e = self.city.energy - used_e
            unplaced_e = left_e - min(left_e, self.parks)
            penalty = unplaced_i + unplaced_e
            found = (self.shop_points(customers) - penalty, used_i + customers,
                     used_i + used_e + customers, -penalty)
            self.known[packed] = found
        return found


def merge(states: Table, options: Table) -> Table:
    """Every state with every option of the next part, best entry per bucket. A state's
    bucket carries the offset (``Search.offset``): a sum over the budget has a bit of
    ``OVER`` set."""
    merged: Table = {}
    get = merged.get
    more = list(options.items())
    for at, entry in states.items():
        for step, gain in more:
            to = at + step
            if to & OVER:
                continue
            total = entry + gain
            if total > get(to, LOWEST):
                merged[to] = total
    return merged


def keep_best(table: Table, at: Bucket, entry: Entry) -> None:
    if entry > table.get(at, LOWEST):
        table[at] = entry


def holding(listing: list[Scored], forced: int) -> Table:
    """The best entry per bucket of the subsets listed that hold the ``forced`` buildings."""
    best: Table = {}
    get = best.get
    for at, entry, mask in listing:
        if mask & forced == forced and entry > get(at, LOWEST):
            best[at] = entry
    return best
