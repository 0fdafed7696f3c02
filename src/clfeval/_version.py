"""The version of clfeval (imports nothing, so that every module can read it)."""

__version__ = "0.1.0"
