"""What a process may do for a table under shared leases, at the edges: a job asks with
the current time, and the moment the leases run out it must no longer act (another
process may already have taken the bucket over)."""

from __future__ import annotations

from bot.service.leasing import TableLeases, bucket_of


def test_a_process_stops_acting_the_moment_its_leases_run_out() -> None:
    leases = TableLeases("one", buckets=4, held={bucket_of(5, 4)}, valid_until=100.0)
    assert leases.owns(5, now=99.5)
    assert not leases.owns(5, now=100.0)
    assert not leases.owns(5, now=100.5)
    # Without a time only the bucket is asked: planning jobs needs no clock.
    assert leases.owns(5)
    assert not leases.owns(6, now=50.0)


def test_alone_on_the_database_a_process_owns_every_table_at_any_time() -> None:
    leases = TableLeases.solo()
    assert not leases.shared
    assert leases.owns(5, now=1e12) and leases.owns(6)
