"""Test-wide settings: on CI, Hypothesis draws the same examples at every run, so that a
red build always points at a reproducible case; elsewhere it explores new ones."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "explore")
