"""Tests of clfeval's io."""
