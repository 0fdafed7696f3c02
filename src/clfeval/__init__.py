"""clfeval: how good is a classifier really, and does it really beat another one?

Count once, derive everything: labels are encoded once, counted into tables
that add up, and every metric, baseline, diagnostic and resampling test is
computed from those tables.
"""

from __future__ import annotations

__version__ = "0.1.0"
