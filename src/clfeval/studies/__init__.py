"""Studies that join models and evaluation: the Reuters-21578 study (mission §9) and the worked-example demos."""
