"""Tests of clfeval's evaluate."""
