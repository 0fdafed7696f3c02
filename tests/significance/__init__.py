"""Tests of clfeval's significance."""
