"""A test estimator whose errors are planned per training set (mission §10 example 10)."""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin


class Planned(BaseEstimator, ClassifierMixin):
    """Predicts the gold label (column 1 of X) except for the items its plan marks wrong for this training set."""

    def __init__(self, plan=None):
        self.plan = plan

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.key_ = tuple(sorted(int(i) for i in np.asarray(X)[:, 0]))
        return self

    def predict(self, X):
        X = np.asarray(X)
        wrong = self.plan.get(self.key_, set())
        return np.array(["a" if (g == 1) == (int(i) not in wrong) else "b" for i, g in X])
