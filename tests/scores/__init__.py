"""Tests of clfeval's scores."""
