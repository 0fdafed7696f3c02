"""Tests of clfeval's cli."""
