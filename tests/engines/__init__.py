"""Tests of clfeval's engines."""
