"""Tests of clfeval.studies: the Reuters-21578 study and the demos."""
