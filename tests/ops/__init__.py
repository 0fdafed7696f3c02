"""Tests of the operations' typed results (issue 36): one type per operation, frozen all the way down."""
