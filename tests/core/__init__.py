"""Tests of clfeval's core."""
