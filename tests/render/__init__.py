"""Tests of clfeval's render."""
