"""Tests of clfeval.text: the Reuters-21578 reader, terms, text models."""
