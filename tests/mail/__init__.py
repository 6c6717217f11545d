"""Tests of the play-by-email front end (a package, so its module names do not collide
with tests/bot's)."""
