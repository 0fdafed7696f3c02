"""Hostile inputs and environments: trees, signals, resources, injections."""
