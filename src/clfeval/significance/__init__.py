"""Is the difference real? Paired tests (bootstrap, randomization, McNemar, Holm), DeLong's test, model comparison
under cross-validation, power and sample size, bootstrap bands of curves."""
