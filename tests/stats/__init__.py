"""Tests of clfeval.stats: each statistic once (issue 39)."""
