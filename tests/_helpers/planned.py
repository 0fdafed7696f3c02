"""A test estimator whose errors are planned per training set (mission §10 example 10)."""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from clfeval.protocols._api import Protocol, run_protocol, split


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


def example_10():
    """Mission §10 example 10: five folds of 100 test items, with 82, 80, 84, 81 and 83 correct."""
    y = ["a" if i % 3 else "b" for i in range(500)]
    X = np.array([[i, 1 if lab == "a" else 0] for i, lab in enumerate(y)])
    protocol = Protocol.kfold(5)
    plan = {tuple(sorted(f.train.tolist())): set(f.test[: 100 - c].tolist())
            for f, c in zip(split(protocol, y, seed=4), [82, 80, 84, 81, 83], strict=True)}
    return run_protocol(Planned(plan), X, y, protocol=protocol, seed=4, metrics=["accuracy", "macro_f1", "micro_f1"])
