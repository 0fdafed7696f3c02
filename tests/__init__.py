"""The tests of clfeval, by stage (core, io, engines, scores, evaluate, significance, protocols, render, cli, ...)."""
