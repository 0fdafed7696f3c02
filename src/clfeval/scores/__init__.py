"""Scores: score columns, rankings (ROC/PR, AP), threshold objectives and choices, calibration."""
