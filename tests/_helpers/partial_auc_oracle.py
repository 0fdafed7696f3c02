"""Test-only oracle: the unstandardized partial ROC-AUC from scikit-learn's ROC points (trapezoids up to max_fpr,
the crossing segment interpolated linearly), independent of clfeval's code."""

from __future__ import annotations

import numpy as np
from sklearn.metrics import roc_curve


def partial_auc(y, s, max_fpr: float) -> float:
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    stop = np.searchsorted(fpr, max_fpr, side="right")
    if stop < len(fpr):
        x, yy = fpr[stop - 1:stop + 1], tpr[stop - 1:stop + 1]
        tpr = np.append(tpr[:stop], np.interp(max_fpr, x, yy))
        fpr = np.append(fpr[:stop], max_fpr)
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


def mcclish(area: float, max_fpr: float) -> float:
    lo, hi = max_fpr ** 2 / 2, max_fpr
    return 0.5 * (1 + (area - lo) / (hi - lo))
