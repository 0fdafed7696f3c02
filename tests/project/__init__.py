"""Tests of the project as a whole: the public API, the architecture, the documentation, the result signature."""
