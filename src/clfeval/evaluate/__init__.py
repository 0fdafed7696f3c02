"""One classifier on one test set: the report, its baselines, diagnostics and bootstrap intervals."""
