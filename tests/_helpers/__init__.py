"""Helpers shared by the tests (imported as ``tests._helpers.NAME``), and the golden files."""
