"""Tests of clfeval's protocols."""
